//! Every running process's short name (what `ps -c` shows), read from the kernel without a child
//! process: Linux `/proc/<pid>/comm`, macOS `proc_listallpids` + `proc_name`. It answers "does a program
//! of this name run at all" (is a terminal app up, or did it quit and leave its variables behind) in a few
//! milliseconds. `None` where the platform cannot say: callers then assume it runs.

/// `(pid, short name)` of every process this user can see; `None` when they cannot be listed.
pub fn all() -> Option<Vec<(u32, String)>> {
    platform()
}

#[cfg(target_os = "linux")]
fn platform() -> Option<Vec<(u32, String)>> {
    let procs = std::fs::read_dir("/proc").ok()?;
    Some(
        procs
            .flatten()
            .filter_map(|p| {
                let pid = p.file_name().to_str()?.parse().ok()?;
                let comm = std::fs::read_to_string(p.path().join("comm")).ok()?;
                Some((pid, comm.trim_end_matches('\n').to_string()))
            })
            .collect(),
    )
}

#[cfg(target_os = "macos")]
fn platform() -> Option<Vec<(u32, String)>> {
    use std::os::raw::c_void;
    // SAFETY: a null buffer of size 0 asks only for the count.
    let count = unsafe { libc::proc_listallpids(std::ptr::null_mut(), 0) };
    // Room for processes started between the two calls.
    let mut pids = vec![0 as libc::c_int; usize::try_from(count).ok()? + 64];
    let bytes = libc::c_int::try_from(pids.len() * std::mem::size_of::<libc::c_int>()).ok()?;
    // SAFETY: `pids` is writable for `bytes` bytes.
    let listed = unsafe { libc::proc_listallpids(pids.as_mut_ptr() as *mut c_void, bytes) };
    let mut out = Vec::new();
    for pid in pids_of_listing(&pids, listed)? {
        let mut name = [0u8; 256];
        // SAFETY: `name` is writable for its length.
        let len =
            unsafe { libc::proc_name(pid as libc::c_int, name.as_mut_ptr() as *mut c_void, 256) };
        if let Some(name) = name_of_buffer(&name, len) {
            out.push((pid, name));
        }
    }
    Some(out)
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn platform() -> Option<Vec<(u32, String)>> {
    None
}

/// The pids of a `proc_listallpids` buffer whose call returned `listed` (a count of pids, or -1).
pub fn pids_of_listing(buffer: &[i32], listed: i32) -> Option<Vec<u32>> {
    let n = usize::try_from(listed).ok()?.min(buffer.len());
    Some(
        buffer[..n]
            .iter()
            .filter_map(|&p| u32::try_from(p).ok().filter(|&p| p > 0))
            .collect(),
    )
}

/// A `proc_name` answer: the first `len` bytes (up to a NUL), `None` when it failed (`len` ≤ 0).
pub fn name_of_buffer(buffer: &[u8], len: i32) -> Option<String> {
    let len = usize::try_from(len)
        .ok()
        .filter(|&l| l > 0)?
        .min(buffer.len());
    let bytes = &buffer[..len];
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(len);
    Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_keeps_the_pids_it_returned_and_drops_the_kernel_and_the_rest() {
        // `proc_listallpids` fills the front of the buffer (pid 0 is the kernel) and returns the count.
        let buffer = [412, 1, 0, 98_765, 7, 7];
        assert_eq!(pids_of_listing(&buffer, 4), Some(vec![412, 1, 98_765]));
        assert_eq!(
            pids_of_listing(&buffer, 99),
            Some(vec![412, 1, 98_765, 7, 7])
        );
        assert_eq!(pids_of_listing(&buffer, -1), None);
    }

    #[test]
    fn a_name_is_cut_at_its_length_or_its_nul() {
        let mut buffer = [0u8; 32];
        buffer[..6].copy_from_slice(b"kitty0");
        assert_eq!(name_of_buffer(&buffer, 6).as_deref(), Some("kitty0"));
        assert_eq!(name_of_buffer(&buffer, 32).as_deref(), Some("kitty0"));
        assert_eq!(name_of_buffer(&buffer, 0), None);
        assert_eq!(name_of_buffer(&buffer, -1), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn this_process_is_listed_by_its_name() {
        let me = std::process::id();
        let comm = std::fs::read_to_string(format!("/proc/{me}/comm")).unwrap();
        let all = all().unwrap();
        assert!(all.contains(&(me, comm.trim_end().to_string())), "{me}");
    }
}
