//! `agterm-backup status`.

use crate::cli::StatusArgs;
use crate::{CliError, CliResult};
use std::path::PathBuf;

pub fn run(_args: StatusArgs, _socket: Option<PathBuf>) -> CliResult {
    Err(CliError::failure("status: not built yet"))
}
