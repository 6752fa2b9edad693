//! Whether a process still runs: below the scratch folders, the sandbox and the agent rigs, which all
//! wait on processes ending.

/// Whether `pid` still runs (a zombie counts as gone).
pub fn is_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(") ")
                .map(|(_, rest)| !rest.starts_with('Z'))
        })
        .unwrap_or(false)
}
