//! A process table as plain data, for tests of the walk and of the hook's decisions.

use super::ProcessSource;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FakeProcess {
    pub parent: u32,
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub start_time: Option<i64>,
}

/// A fake process table keyed by pid.
#[derive(Debug, Clone, Default)]
pub struct FakeProcesses {
    pub table: HashMap<u32, FakeProcess>,
}

impl FakeProcesses {
    /// Adds `pid` with `parent` and a whitespace-split command line; returns `self` for chaining.
    pub fn with(mut self, pid: u32, parent: u32, cmdline: &str, cwd: &str) -> Self {
        self.table.insert(
            pid,
            FakeProcess {
                parent,
                argv: cmdline.split_whitespace().map(String::from).collect(),
                cwd: Some(PathBuf::from(cwd)),
                start_time: Some(1_700_000_000 + i64::from(pid)),
            },
        );
        self
    }
}

impl ProcessSource for FakeProcesses {
    fn parent(&self, pid: u32) -> Option<u32> {
        self.table.get(&pid).map(|p| p.parent)
    }
    fn argv(&self, pid: u32) -> Option<Vec<String>> {
        self.table.get(&pid).map(|p| p.argv.clone())
    }
    fn cwd(&self, pid: u32) -> Option<PathBuf> {
        self.table.get(&pid).and_then(|p| p.cwd.clone())
    }
    fn start_time(&self, pid: u32) -> Option<i64> {
        self.table.get(&pid).and_then(|p| p.start_time)
    }
}
