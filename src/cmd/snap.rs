//! `agterm-backup snap`.

use crate::cli::SnapArgs;
use crate::{CliError, CliResult};
use std::path::PathBuf;

pub fn run(_args: SnapArgs, _socket: Option<PathBuf>) -> CliResult {
    Err(CliError::failure("snap: not built yet"))
}
