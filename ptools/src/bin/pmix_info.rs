//! pmix_info: version and build facts of this PMIx implementation.

use std::path::PathBuf;

use clap::Parser;

/// PMIx library information
#[derive(Parser, Debug)]
#[command(name = "pmix_info", version)]
struct Cli {
    /// Show everything
    #[arg(short = 'a', long)]
    all: bool,
    /// Show the architecture the library was built for
    #[arg(long)]
    arch: bool,
    /// Show build configuration
    #[arg(short = 'c', long)]
    config: bool,
    /// Show an installation path: prefix, bindir, libdir, incdir
    #[arg(long, value_name = "WHICH")]
    path: Option<String>,
    /// Show the version: full, major, minor, release
    #[arg(long, value_name = "[pmix:]PART")]
    show_version: Option<String>,
    /// Machine-parsable output (key:value)
    #[arg(long, visible_alias = "parseable")]
    parsable: bool,
    /// Human-readable output (the default)
    #[arg(long)]
    pretty_print: bool,
}

/// The installation prefix: this program lives in PREFIX/bin.
fn prefix() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|e| e.parent()?.parent().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("/usr/local"))
}

fn paths() -> Vec<(&'static str, String)> {
    let p = prefix();
    vec![
        ("prefix", p.display().to_string()),
        ("bindir", p.join("bin").display().to_string()),
        ("libdir", p.join("lib").display().to_string()),
        ("incdir", p.join("include").display().to_string()),
    ]
}

fn main() {
    let cli = Cli::parse();
    let version = env!("CARGO_PKG_VERSION");
    let mut parts = version.split('.');
    let (major, minor, release) = (
        parts.next().unwrap_or("0"),
        parts.next().unwrap_or("0"),
        parts.next().unwrap_or("0"),
    );
    let out = |pretty: &str, key: &str, value: &str| {
        if cli.parsable {
            println!("{key}:{value}");
        } else {
            println!("{pretty:>24}: {value}");
        }
    };
    if let Some(which) = &cli.show_version {
        let part = which.rsplit(':').next().unwrap_or("full");
        let v = match part {
            "full" | "" => version,
            "major" => major,
            "minor" => minor,
            "release" => release,
            other => {
                eprintln!(
                    "pmix_info: --show-version: unknown part {other:?} (full, major, minor, release)"
                );
                std::process::exit(2)
            }
        };
        out("PMIX", "pmix:version", v);
        return;
    }
    if let Some(which) = &cli.path {
        let all = paths();
        let chosen: Vec<_> = all
            .iter()
            .filter(|(k, _)| which == "all" || which == k)
            .collect();
        if chosen.is_empty() {
            eprintln!(
                "pmix_info: --path: unknown path {which:?} (prefix, bindir, libdir, incdir, all)"
            );
            std::process::exit(2);
        }
        for (k, v) in chosen {
            out(k, &format!("path:{k}"), v);
        }
        return;
    }
    let arch = format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS);
    if cli.arch && !cli.all && !cli.config {
        out("Configured architecture", "config:arch", &arch);
        return;
    }
    out(
        "Package",
        "package",
        &pmix_core::print::VERSION.to_string_lossy(),
    );
    out("PMIX", "pmix:version", version);
    out(
        "PMIX Standard",
        "pmix:std",
        pmix_core::print::STANDARD_VERSION,
    );
    out(
        "PMIX Standard ABI",
        "pmix:abi",
        &format!(
            "Stable ({}), Provisional ({})",
            pmix_core::wire::STABLE_ABI_VERSION,
            pmix_core::wire::PROVISIONAL_ABI_VERSION
        ),
    );
    out(
        "Wire protocol",
        "pmix:wire",
        &format!(
            "v41 buffers over TCP, announced as {}",
            pmix_core::wire::VERSION
        ),
    );
    out("Prefix", "path:prefix", &prefix().display().to_string());
    out("Configured architecture", "config:arch", &arch);
    if cli.all || cli.config {
        out(
            "Build profile",
            "config:profile",
            if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            },
        );
        out("Language", "config:language", "Rust (pmix-core, pmix-ffi)");
        for (k, v) in paths() {
            out(k, &format!("path:{k}"), &v);
        }
    }
}
