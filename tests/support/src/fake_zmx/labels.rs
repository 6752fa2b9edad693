//! Labels (`get`, `set`, `clear`, and `attach --labels`): `k=v` pairs a daemon keeps for the
//! session's lifetime, validated and reported as `label.zig` and `main.zig` do.

use super::cli::{help, Ctx, Fail};
use super::format::{label_error, labels_text};
use super::proto::{self, Request};

/// `get`, `set`, `clear` (labels live in the daemon, for the session's lifetime).
pub fn labels(ctx: &Ctx, cmd: &str, rest: &[String]) -> Result<(), Fail> {
    let raw = rest.first().ok_or(Fail::Zig("SessionNameRequired"))?;
    if raw == "--help" || raw == "-h" {
        return help();
    }
    let env_name = std::env::var("ZMX_SESSION").unwrap_or_default();
    let raw = if raw == "." {
        if env_name.is_empty() {
            eprintln!("error: \".\" requires ZMX_SESSION (are you inside a zmx session?)");
            return Err(Fail::Zig("SessionNameRequired"));
        }
        env_name
    } else {
        raw.clone()
    };
    let name = ctx.name(&raw)?;
    let Some(path) = ctx.socket(&name) else {
        return Ok(());
    };
    let label_fail = |err: &str| {
        match err {
            "Timeout" => {
                eprintln!("error: session \"{name}\" does not support labels (daemon too old?)")
            }
            "ConnectionRefused" | "Unexpected" => {
                eprintln!("error: session \"{name}\" not found or unresponsive")
            }
            other => eprintln!("error: {other}"),
        }
        Fail::Exit(1)
    };
    match cmd {
        "set" => {
            let kvs = rest[1..].join(" ");
            assert_labels(&kvs)?;
            set_labels(&path, &kvs).map_err(label_fail)
        }
        "clear" => match proto::round_trip(&path, &Request::LabelClear) {
            Ok(_) => Ok(()),
            Err(e) => Err(label_fail(e)),
        },
        _ => {
            let info = proto::probe(&path).map_err(label_fail)?;
            let text = labels_text(&info.labels);
            match rest.get(1) {
                None => print!("{text}"),
                Some(key) => match info.labels.get(key) {
                    Some(v) => print!("{v}"),
                    None => return Err(Fail::Zig("LabelKeyNotFound")),
                },
            }
            Ok(())
        }
    }
}

/// `assertLabels`: the first bad pair's message, exit 1.
pub fn assert_labels(kvs: &str) -> Result<(), Fail> {
    for (k, v) in super::format::label_pairs(kvs) {
        if let Some(msg) = label_error(&k, &v) {
            eprintln!("{msg}");
            return Err(Fail::Exit(1));
        }
    }
    Ok(())
}

pub fn set_labels(path: &str, kvs: &str) -> Result<(), &'static str> {
    let req = Request::LabelSet {
        labels: kvs.to_string(),
    };
    proto::round_trip(path, &req).map(drop)
}
