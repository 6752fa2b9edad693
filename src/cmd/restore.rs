//! `agterm-backup restore`.

use crate::cli::RestoreArgs;
use crate::{CliError, CliResult};
use std::path::PathBuf;

pub fn run(_args: RestoreArgs, _socket: Option<PathBuf>) -> CliResult {
    Err(CliError::failure("restore: not built yet"))
}
