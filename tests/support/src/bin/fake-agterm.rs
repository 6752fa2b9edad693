//! `fake-agterm`: the fake agterm control-socket server used by the tests (see
//! `agterm_backup_testkit::fake_agterm`). Runs until a `fake.quit` request.

use agterm_backup_testkit::fake_agterm::{run, Options};

fn main() {
    let opts = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fake-agterm: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(opts) {
        eprintln!("fake-agterm: {e}");
        std::process::exit(1);
    }
}
