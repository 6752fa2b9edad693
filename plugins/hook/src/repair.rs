//! What the hook repairs in the files it owns before writing them, silently (each repair is logged):
//! a symlink planted at a journal's, record's or lock's path is removed (never followed: unlinking a
//! link leaves its target alone), an empty folder there is removed, and a journal whose last line was
//! torn gets the newline that keeps the next line whole.

use agterm_backup_core::state::{guard, StateDir};
use std::fs;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// Makes `path` a place the hook can write its own file to: a link there is removed, an empty folder
/// removed; anything else is left and named in the error. Returns the file's length when it is one.
pub fn own_file(state: &StateDir, path: &Path) -> io::Result<Option<u64>> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let t = meta.file_type();
    if t.is_symlink() {
        fs::remove_file(path)?;
        state.log(&format!(
            "hook: removed the symbolic link at {} (never followed; the file is ours to write)",
            path.display()
        ));
        return Ok(None);
    }
    if t.is_dir() {
        return match fs::remove_dir(path) {
            Ok(()) => {
                state.log(&format!(
                    "hook: removed the empty folder at {}",
                    path.display()
                ));
                Ok(None)
            }
            Err(_) => Err(io::Error::other(format!(
                "{} is a folder with files in it, not our file: move it away",
                path.display()
            ))),
        };
    }
    Ok(Some(meta.len()))
}

/// Ends a journal whose last line was torn (no newline) so the next line starts on its own.
pub fn end_torn_line(state: &StateDir, path: &Path, len: u64) -> io::Result<()> {
    if len == 0 {
        return Ok(());
    }
    let mut f = guard::open_read(path)?;
    f.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    f.read_exact(&mut last)?;
    if last[0] != b'\n' {
        agterm_backup_core::state::append_line(path, b"\n")?;
        state.log(&format!(
            "hook: ended the torn last line of {}",
            path.display()
        ));
    }
    Ok(())
}
