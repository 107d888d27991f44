//! pevent: injects an event (`PMIx_Notify_event` from a tool): a status code and a range,
//! with optional attributes.

use clap::Parser;
use pmix_core::values::Info;
use pmix_sys::*;
use ptools::{Target, connect, error_text, fail, finish, key_of, parse_range, parse_value, wait};

/// Inject PMIx events
#[derive(Parser, Debug)]
#[command(name = "pevent", version)]
struct Cli {
    #[command(flatten)]
    target: Target,
    /// Status code of the event (an integer, or a name such as PMIX_ERR_PROC_ABORTED)
    #[arg(long, value_name = "CODE", value_parser = parse_code, allow_hyphen_values = true)]
    event: pmix_status_t,
    /// Range of the event (local, namespace, session, global, proc_local, custom, or a number)
    #[arg(long, value_name = "RANGE", default_value = "session", value_parser = parse_range)]
    range: pmix_data_range_t,
    /// Attributes to send with the event (KEY=VALUE, the key an attribute's name or string)
    #[arg(long = "info", value_name = "KEY=VALUE", value_parser = parse_info)]
    info: Vec<Info>,
}

/// A status code by number or by the name `PMIx_Error_string` gives it.
fn parse_code(s: &str) -> Result<pmix_status_t, String> {
    if let Ok(n) = s.parse() {
        return Ok(n);
    }
    // PMIX_ERR_BAD_PARAM, ERR_BAD_PARAM and BAD-PARAM all name "BAD-PARAM".
    let norm = |t: &str| {
        let t = t.to_ascii_uppercase().replace(['-', ' '], "_");
        let t = t.strip_prefix("PMIX_").map(str::to_string).unwrap_or(t);
        t.strip_prefix("ERR_").map(str::to_string).unwrap_or(t)
    };
    let want = norm(s);
    // Status codes lie well within this range.
    (-10_000..=10_000)
        .find(|&c| norm(&pmix_core::print::error_string(c).to_string_lossy()) == want)
        .ok_or_else(|| format!("{s:?} is neither a number nor the name of a status code"))
}

fn parse_info(s: &str) -> Result<Info, String> {
    let (k, v) = s.split_once('=').unwrap_or((s, ""));
    let key = key_of(k);
    let value = match pmix_core::attrs::by_key(key.as_bytes()) {
        Some(a) => parse_value(a.ty, v)?,
        None => pmix_core::values::Value::String(Some(v.into())),
    };
    Ok(Info::new(key, value))
}

fn main() {
    let cli = Cli::parse();
    let client = connect("pevent", &cli.target);
    let r = wait(|done| client.notify_nb(cli.event, None, cli.range, &cli.info, done));
    finish(&client);
    match r {
        Ok(()) => println!(
            "pevent: event {} ({}) sent with range {}",
            cli.event,
            pmix_core::print::error_string(cli.event).to_string_lossy(),
            pmix_core::print::data_range_string(cli.range).to_string_lossy()
        ),
        Err(e) => fail(
            "pevent",
            format!("the server refused the event: {}", error_text(&e)),
        ),
    }
}
