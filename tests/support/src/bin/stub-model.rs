//! `stub-model [--port N] [--log FILE]`: the stub model API as a process, for manual runs and scripts.
//! Prints `http://127.0.0.1:<port>` on stdout once it listens, then serves until killed.

use agterm_backup_testkit::stub_model::StubModel;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut port = 0u16;
    let mut log = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--port", Some(v)) => match v.parse() {
                Ok(p) => port = p,
                Err(_) => return usage(&format!("--port {v:?} is not a port number")),
            },
            ("--log", Some(v)) => log = Some(PathBuf::from(v)),
            _ => return usage(&format!("unexpected argument {arg:?}")),
        }
    }
    let stub = match StubModel::bind(port, log) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("stub-model: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::from(1);
        }
    };
    println!("{}", stub.base_url());
    loop {
        std::thread::park();
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!("stub-model: {problem}\nusage: stub-model [--port N] [--log FILE]");
    ExitCode::from(2)
}
