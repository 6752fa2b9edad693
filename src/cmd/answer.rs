//! `agterm-backup answer`.

use crate::cli::AnswerArgs;
use crate::{CliError, CliResult};
use std::path::PathBuf;

pub fn run(_args: AnswerArgs, _socket: Option<PathBuf>) -> CliResult {
    Err(CliError::failure("answer: not built yet"))
}
