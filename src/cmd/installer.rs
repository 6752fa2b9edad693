//! `agterm-backup installer apply|remove|status`.

use crate::cli::{ApplyArgs, JsonArgs, RemoveArgs};
use crate::{CliError, CliResult};

pub fn apply(_args: ApplyArgs) -> CliResult {
    Err(CliError::failure("installer apply: not built yet"))
}

pub fn remove(_args: RemoveArgs) -> CliResult {
    Err(CliError::failure("installer remove: not built yet"))
}

pub fn status(_args: JsonArgs) -> CliResult {
    Err(CliError::failure("installer status: not built yet"))
}
