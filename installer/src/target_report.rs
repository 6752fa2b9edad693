//! One target's line of `installer status` (and `status --json`'s `hooks`), as plain data: the report
//! [`crate::status`] builds, filled in by the editors that know their files ([`crate::shell_rc`]), which
//! so import it from below and never the status module.

use crate::gate;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize)]
pub struct TargetReport {
    pub target: &'static str,
    pub file: &'static str,
    pub path: String,
    pub state: &'static str,
    pub error: Option<String>,
    pub hooks: Vec<HookReport>,
    pub denies: Option<BTreeMap<&'static str, bool>>,
    pub route: Option<&'static str>,
    pub plugin: Option<String>,
    pub read_by: Option<String>,
    pub warnings: Vec<String>,
    /// Our hook is there but the agent will not run it: the file and key that decide it ([`gate`]).
    pub switched_off: Option<gate::Off>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HookReport {
    pub event: &'static str,
    pub state: &'static str,
    pub binary: Option<String>,
    pub trust_key: Option<String>,
    pub trusted: Option<bool>,
}
