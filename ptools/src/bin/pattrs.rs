//! pattrs: the functions supported and the attributes each supports, for this library's
//! client, server and tool roles (from the library's own table) and for the host
//! environment (asked of the server with `PMIX_QUERY_ATTRIBUTE_SUPPORT`).

use clap::Parser;
use pmix_core::attrs::{Role, supported};
use pmix_core::values::{Info, PStr, Query, Value};
use pmix_sys::*;
use ptools::{Target, connect, error_text, fail, finish, info};

/// PMIx supported attributes and functions
#[derive(Parser, Debug)]
#[command(name = "pattrs", version)]
struct Cli {
    #[command(flatten)]
    target: Target,
    /// Do not connect to a server (the host's support is then unknown)
    #[arg(long)]
    do_not_connect: bool,
    /// Client functions (or "all") whose attributes to print; alone, list the functions
    #[arg(long, value_name = "FUNCTIONS", num_args = 0..=1, default_missing_value = "")]
    client: Option<String>,
    /// Server functions (or "all") whose attributes to print; alone, list the functions
    #[arg(long, value_name = "FUNCTIONS", num_args = 0..=1, default_missing_value = "")]
    server: Option<String>,
    /// Tool functions (or "all") whose attributes to print; alone, list the functions
    #[arg(long, value_name = "FUNCTIONS", num_args = 0..=1, default_missing_value = "")]
    tool: Option<String>,
    /// Host functions (or "all") whose attributes to print; alone, list the functions
    #[arg(long, value_name = "FUNCTIONS", num_args = 0..=1, default_missing_value = "")]
    host: Option<String>,
}

/// One attribute row: name, key string, type, description.
struct Row(String, String, String, String);

fn row_of_key(k: &core::ffi::CStr) -> Row {
    let def = pmix_core::attrs::by_key(k.to_bytes());
    Row(
        def.map_or_else(
            || k.to_string_lossy().into_owned(),
            |d| d.name.to_string_lossy().into_owned(),
        ),
        k.to_string_lossy().into_owned(),
        def.map_or_else(String::new, |d| {
            pmix_core::print::data_type_string(d.ty)
                .to_string_lossy()
                .into_owned()
        }),
        String::new(),
    )
}

fn print_attrs(title: &str, per_function: &[(String, Vec<Row>)]) {
    println!("{title} SUPPORTED ATTRIBUTES:");
    let (mut w0, mut w1, mut w2) = (4, 6, 4);
    for (_, rows) in per_function {
        for r in rows {
            w0 = w0.max(r.0.len());
            w1 = w1.max(r.1.len());
            w2 = w2.max(r.2.len());
        }
    }
    println!(
        "{:<w0$}  {:<w1$}  {:<w2$}  DESCRIPTION",
        "NAME", "STRING", "TYPE"
    );
    println!(
        "{}  {}  {}  {}",
        "-".repeat(w0),
        "-".repeat(w1),
        "-".repeat(w2),
        "-".repeat(11)
    );
    for (f, rows) in per_function {
        println!("{f}:");
        if rows.is_empty() {
            println!("    (none)");
        }
        for r in rows {
            println!("{:<w0$}  {:<w1$}  {:<w2$}  {}", r.0, r.1, r.2, r.3);
        }
    }
}

fn print_functions(title: &str, functions: &[String]) {
    println!("{title} SUPPORTED FUNCTIONS:");
    for f in functions {
        println!("    {f}");
    }
}

/// The functions named in `list` ("all": every one of `known`); unknown names are errors.
fn selected(list: &str, known: &[String], role: &str) -> Vec<String> {
    if list.trim() == "all" {
        return known.to_vec();
    }
    list.split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| {
            if !known.iter().any(|k| k == f) {
                fail("pattrs", format!("{f} is not a supported {role} function"));
            }
            f.to_string()
        })
        .collect()
}

fn library(role: Role, title: &str, arg: &str) {
    let table = supported(role);
    let known: Vec<String> = table.iter().map(|(f, _)| f.to_string()).collect();
    if arg.is_empty() {
        print_functions(title, &known);
        return;
    }
    let per: Vec<(String, Vec<Row>)> = selected(arg, &known, &title.to_lowercase())
        .into_iter()
        .map(|f| {
            let keys = table
                .iter()
                .find(|(n, _)| *n == f)
                .map_or(&[][..], |(_, k)| k);
            (f, keys.iter().map(|k| row_of_key(k)).collect())
        })
        .collect();
    print_attrs(title, &per);
}

fn host_query(client: &pmix_core::client::Client, qualifier: Info) -> Vec<Info> {
    let q = Query {
        keys: vec![PStr::from(PMIX_QUERY_ATTRIBUTE_SUPPORT.to_bytes())],
        qualifiers: vec![qualifier],
    };
    match client.query(&[q]) {
        Ok((_, answers)) => {
            match pmix_core::values::info_value(&answers, PMIX_QUERY_ATTRIBUTE_SUPPORT) {
                Some(Value::DataArray(a)) => a
                    .items
                    .iter()
                    .filter_map(|v| match v {
                        Value::Info(i) => Some((**i).clone()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            }
        }
        Err(e) => fail(
            "pattrs",
            format!(
                "the host did not say which attributes it supports: {}",
                error_text(&e)
            ),
        ),
    }
}

fn host_functions(client: &pmix_core::client::Client) -> Vec<String> {
    let answers = host_query(client, info(PMIX_HOST_FUNCTIONS, Value::Bool(true)));
    match pmix_core::values::info_value(&answers, PMIX_HOST_FUNCTIONS) {
        Some(Value::String(Some(s))) => s
            .to_str_lossy()
            .split(',')
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

fn host(client: &pmix_core::client::Client, arg: &str) {
    let known = host_functions(client);
    if arg.is_empty() {
        print_functions("HOST", &known);
        return;
    }
    let wanted = selected(arg, &known, "host");
    let answers = host_query(
        client,
        info(
            PMIX_HOST_ATTRIBUTES,
            Value::String(Some(wanted.join(",").into())),
        ),
    );
    let per: Vec<(String, Vec<Row>)> = wanted
        .into_iter()
        .map(|f| {
            let rows = match answers.iter().find(|i| i.key.as_bytes() == f.as_bytes()) {
                Some(Info {
                    value: Value::DataArray(a),
                    ..
                }) => a
                    .items
                    .iter()
                    .filter_map(|v| match v {
                        Value::Regattr(r) => Some(Row(
                            r.name
                                .as_ref()
                                .map_or_else(|| r.string.to_string(), |n| n.to_string()),
                            r.string.to_string(),
                            pmix_core::print::data_type_string(r.ty)
                                .to_string_lossy()
                                .into_owned(),
                            r.description
                                .iter()
                                .map(|d| d.to_string())
                                .collect::<Vec<_>>()
                                .join(" "),
                        )),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            (f, rows)
        })
        .collect();
    print_attrs("HOST", &per);
}

fn main() {
    let cli = Cli::parse();
    if cli.client.is_none() && cli.server.is_none() && cli.tool.is_none() && cli.host.is_none() {
        eprintln!("pattrs: say which of --client, --server, --tool or --host to show");
        std::process::exit(2);
    }
    if let Some(a) = &cli.client {
        library(Role::Client, "CLIENT", a);
    }
    if let Some(a) = &cli.server {
        library(Role::Server, "SERVER", a);
    }
    if let Some(a) = &cli.tool {
        library(Role::Tool, "TOOL", a);
    }
    if let Some(a) = &cli.host {
        if cli.do_not_connect {
            fail(
                "pattrs",
                "--host needs a connection to the host (drop --do-not-connect)",
            );
        }
        let client = connect("pattrs", &cli.target);
        host(&client, a);
        finish(&client);
    }
}
