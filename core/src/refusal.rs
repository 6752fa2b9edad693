//! A file we will not edit: why, and where (1-based line and column), for the one-line error the CLI prints.
//! Below every editor of a user's file (the installer's, a terminal's config file's).

use std::fmt;
use std::path::{Path, PathBuf};

/// A refusal to edit a file whose content we cannot safely parse (exit 2, file untouched).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

impl Refusal {
    pub fn at(line: usize, column: usize, reason: impl Into<String>) -> Refusal {
        Refusal {
            line,
            column,
            reason: reason.into(),
        }
    }

    /// A refusal at byte `offset` of `text`.
    pub fn at_offset(text: &str, offset: usize, reason: impl Into<String>) -> Refusal {
        let (line, column) = line_column(text, offset);
        Refusal::at(line, column, reason)
    }

    /// Attaches the file the refusal is about.
    pub fn in_file(self, path: &Path) -> FileRefusal {
        FileRefusal {
            path: path.to_path_buf(),
            refusal: self,
        }
    }
}

/// A [`Refusal`] naming its file: `path:line:column: reason`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRefusal {
    pub path: PathBuf,
    pub refusal: Refusal,
}

impl fmt::Display for FileRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.refusal.line,
            self.refusal.column,
            self.refusal.reason
        )
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line, before[line_start..].chars().count() + 1)
}

/// Decodes a file as UTF-8, or refuses at the first invalid byte.
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, Refusal> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
        let (line, column) = line_column(valid, valid.len());
        Refusal::at(
            line,
            column,
            "not UTF-8 text; fix or remove the file, then run again",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_characters() {
        assert_eq!(line_column("ab\ncé\nx", 0), (1, 1));
        assert_eq!(line_column("ab\ncé\nx", 3), (2, 1));
        assert_eq!(line_column("ab\ncé\nx", 7), (3, 1));
        assert_eq!(line_column("ab\ncéz", 6), (2, 3));
    }

    #[test]
    fn invalid_utf8_is_located() {
        let r = decode_utf8(b"{\n  \"a\": \"\xff\"}").unwrap_err();
        assert_eq!((r.line, r.column), (2, 9));
    }
}
