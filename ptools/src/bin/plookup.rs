//! plookup: looks up data published with `PMIx_Publish` (`PMIx_Lookup` from a tool).

use clap::Parser;
use pmix_core::values::Value;
use pmix_sys::*;
use ptools::{Target, connect, error_text, fail, finish, info, parse_range, proc_text, value_text};

/// PMIx lookup tool
#[derive(Parser, Debug)]
#[command(name = "plookup", version)]
struct Cli {
    #[command(flatten)]
    target: Target,
    /// Wait for the data to be published
    #[arg(long)]
    wait: bool,
    /// Seconds to wait at most for the data
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<u32>,
    /// Range to search (namespace, session, global, ...)
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    range: Option<pmix_data_range_t>,
    /// Keys to look up
    #[arg(required = true, value_name = "KEY")]
    keys: Vec<String>,
}

fn main() {
    let cli = Cli::parse();
    let client = connect("plookup", &cli.target);
    let mut directives = Vec::new();
    if cli.wait {
        // 0: every key.
        directives.push(info(PMIX_WAIT, Value::Int(0)));
    }
    if let Some(t) = cli.timeout {
        directives.push(info(PMIX_TIMEOUT, Value::Int(t as i32)));
    }
    if let Some(r) = cli.range {
        directives.push(info(PMIX_RANGE, Value::DataRange(r)));
    }
    let keys: Vec<Vec<u8>> = cli.keys.iter().map(|k| k.as_bytes().to_vec()).collect();
    let r = client.lookup(&keys, &directives);
    finish(&client);
    let found = match r {
        Ok(f) => f,
        Err(e) => fail(
            "plookup",
            format!(
                "nothing published under {}: {}",
                cli.keys.join(", "),
                error_text(&e)
            ),
        ),
    };
    for d in &found {
        println!(
            "{}: {} (published by {})",
            d.key,
            value_text(&d.value, 0),
            proc_text(&d.proc)
        );
    }
    let missing: Vec<&String> = cli
        .keys
        .iter()
        .filter(|k| !found.iter().any(|d| d.key.as_bytes() == k.as_bytes()))
        .collect();
    if !missing.is_empty() || found.is_empty() {
        let m: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
        fail(
            "plookup",
            format!("nothing published under {}", m.join(", ")),
        );
    }
}
