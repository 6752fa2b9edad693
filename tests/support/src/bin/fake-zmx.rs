//! `fake-zmx`: the fake `zmx` used by the tests (see `agterm_backup_testkit::fake_zmx`). Installed as
//! `zmx` on a PATH; also its own session daemon (`__daemon`) and pane launcher (`__exec`).

fn main() {
    let code = agterm_backup_testkit::fake_zmx::cli::main(std::env::args().skip(1).collect());
    std::process::exit(code);
}
