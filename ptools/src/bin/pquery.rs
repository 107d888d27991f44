//! pquery: asks a PMIx server the keys given on the command line (`PMIx_Query_info`) and
//! prints the answers. A key is an attribute's macro name or key string, optionally with
//! qualifiers: `PMIX_JOB_SIZE[PMIX_NSPACE=run.1.1]`.

use clap::Parser;
use ptools::{Target, connect, error_text, fail, finish, name_of, parse_query, value_text};

/// PMIx query tool
#[derive(Parser, Debug)]
#[command(
    name = "pquery",
    version,
    after_help = "Keys may carry qualifiers, separated by semicolons:\n  PMIX_JOB_SIZE[PMIX_NSPACE=run.1.1]"
)]
struct Cli {
    #[command(flatten)]
    target: Target,
    /// Keys to query (PMIX_QUERY_NAMESPACES, pmix.job.size, KEY[QUAL=VALUE;...])
    #[arg(required = true, value_name = "KEY")]
    keys: Vec<String>,
}

fn main() {
    let cli = Cli::parse();
    let queries: Vec<_> = cli
        .keys
        .iter()
        .map(|k| {
            parse_query(k).unwrap_or_else(|e| {
                eprintln!("pquery: {e}");
                std::process::exit(2)
            })
        })
        .collect();
    let client = connect("pquery", &cli.target);
    let r = client.query(&queries);
    finish(&client);
    let answers = match r {
        Ok((_, a)) => a,
        Err(e) => fail("pquery", format!("the query failed: {}", error_text(&e))),
    };
    if answers.is_empty() {
        fail("pquery", "the query returned no results");
    }
    for a in &answers {
        println!("{}: {}", name_of(a.key.as_bytes()), value_text(&a.value, 0));
    }
}
