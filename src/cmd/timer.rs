//! `agterm-backup timer install|status|uninstall`.

use crate::cli::TimerArgs;
use crate::{CliError, CliResult};

pub fn run(_args: TimerArgs) -> CliResult {
    Err(CliError::failure("timer: not built yet"))
}
