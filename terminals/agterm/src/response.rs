//! agterm's answers, decoded leniently: every field is optional, unknown fields are ignored, and a field
//! of an unexpected type reads as absent instead of failing the whole answer — a newer agterm must never
//! break an older client.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Decodes an optional field, reading a value of the wrong type as absent.
fn lenient<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let v = Value::deserialize(d)?;
    Ok(serde_json::from_value(v).ok())
}

/// Decodes a list field, dropping it whole when it is not a list and skipping items that do not decode.
fn lenient_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let v = Value::deserialize(d)?;
    Ok(match v {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|i| serde_json::from_value(i).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// `{"ok":…,"result":{…}?,"error":"…"?}`
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Response {
    #[serde(default)]
    pub ok: bool,
    #[serde(default, deserialize_with = "lenient")]
    pub result: Option<ControlResult>,
    #[serde(default, deserialize_with = "lenient")]
    pub error: Option<String>,
}

/// The fields of `result` this suite reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ControlResult {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub text: Option<String>,
    /// The pane `session.restore` wrote (0.26+).
    #[serde(default, deserialize_with = "lenient")]
    pub pane: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub tree: Option<Tree>,
    #[serde(default, deserialize_with = "lenient")]
    pub windows: Option<Vec<WindowInfo>>,
    #[serde(default, deserialize_with = "lenient")]
    pub app: Option<AppIdentity>,
    #[serde(default, deserialize_with = "lenient")]
    pub restore: Option<RestoreStatus>,
    #[serde(default, deserialize_with = "lenient")]
    pub zmx: Option<ZmxInventory>,
    /// `session.restart`'s receipt (after 0.34).
    #[serde(default, deserialize_with = "lenient")]
    pub restart: Option<RestartReceipt>,
}

/// `result.restart` of `session.restart`: `{paneID, oldPid, newPid}`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestartReceipt {
    #[serde(default, rename = "paneID", deserialize_with = "lenient")]
    pub pane_id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub old_pid: Option<u32>,
    #[serde(default, deserialize_with = "lenient")]
    pub new_pid: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct AppIdentity {
    #[serde(default, deserialize_with = "lenient")]
    pub version: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub commit: Option<String>,
}

/// One row of `window.list`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct WindowInfo {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub open: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub active: Option<bool>,
}

/// `result.tree`: one window.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Tree {
    #[serde(default, deserialize_with = "lenient_vec")]
    pub workspaces: Vec<WorkspaceNode>,
    #[serde(default, deserialize_with = "lenient")]
    pub app: Option<AppIdentity>,
    /// Top-level sessions (0.44) listed beside the workspaces instead of as a `root: true` workspace
    /// node — an unverified shape, read as well.
    #[serde(default, deserialize_with = "lenient_vec")]
    pub sessions: Vec<SessionNode>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct WorkspaceNode {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub name: Option<String>,
    /// The group of top-level sessions outside any workspace (0.44: `root: true`).
    #[serde(default, deserialize_with = "lenient")]
    pub root: Option<bool>,
    #[serde(default, deserialize_with = "lenient_vec")]
    pub sessions: Vec<SessionNode>,
}

/// A session node of `tree`. Pins are tri-state: absent = none, `""` = plain shell, else the line.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionNode {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub cwd: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub split_cwd: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub split: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub has_split: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub foreground: Option<Argv>,
    #[serde(default, deserialize_with = "lenient")]
    pub split_foreground: Option<Argv>,
    #[serde(default, deserialize_with = "lenient")]
    pub restore_command: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub split_restore_command: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub realized: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub font_size: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub split_font_size: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub backed_by_zmx: Option<bool>,
    /// 0.26+: the shell holding the foreground when `foreground` is absent (omitted when a program
    /// agterm cannot read, such as a setuid `sudo`, holds it).
    #[serde(default, deserialize_with = "lenient")]
    pub foreground_shell: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub split_foreground_shell: Option<String>,
    /// A session on another machine: `remote: true` (0.38+ wording) or `remoteHost` (0.26+); either
    /// marks it remote.
    #[serde(default, deserialize_with = "lenient")]
    pub remote: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub remote_host: Option<String>,
    /// Companions nested under their lead session (an unverified shape; a flat sibling with a
    /// `parentID` reads as an ordinary session).
    #[serde(default, deserialize_with = "lenient_vec")]
    pub companions: Vec<SessionNode>,
    #[serde(default, deserialize_with = "lenient_vec")]
    pub surfaces: Vec<Surface>,
}

impl SessionNode {
    /// The session lives on another machine.
    pub fn is_remote(&self) -> bool {
        self.remote == Some(true) || self.remote_host.as_deref().is_some_and(|h| !h.is_empty())
    }
}

/// A foreground process: agterm sends an argv array; a plain string is read as one word.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Argv {
    Words(Vec<String>),
    Line(String),
}

impl Argv {
    pub fn into_words(self) -> Vec<String> {
        match self {
            Argv::Words(w) => w,
            Argv::Line(l) => vec![l],
        }
    }
}

/// `surfaces[]` of a session node; `paneID` appears after 0.34.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Surface {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub kind: Option<String>,
    #[serde(default, rename = "paneID", deserialize_with = "lenient")]
    pub pane_id: Option<String>,
}

/// `result.restore` of `restore.mode` (and `result.zmx.restore`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestoreStatus {
    #[serde(default, deserialize_with = "lenient")]
    pub configured: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub requested_at_launch: Option<String>,
    /// The mode this agterm process actually runs.
    #[serde(default, deserialize_with = "lenient")]
    pub active: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub restart_required: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub unavailable_reason: Option<String>,
}

/// `result.zmx` of `zmx.list`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ZmxInventory {
    #[serde(default, deserialize_with = "lenient")]
    pub restore: Option<RestoreStatus>,
    #[serde(default, deserialize_with = "lenient")]
    pub inventory_complete: Option<bool>,
    #[serde(default, deserialize_with = "lenient_vec")]
    pub entries: Vec<ZmxEntry>,
}

/// One `zmx.list` row: a daemon, a claim, or both.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ZmxEntry {
    #[serde(default, deserialize_with = "lenient")]
    pub daemon: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub state: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub observation: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub clients: Option<u32>,
    #[serde(default, rename = "leaderPID", deserialize_with = "lenient")]
    pub leader_pid: Option<u32>,
    #[serde(default, rename = "windowID", deserialize_with = "lenient")]
    pub window_id: Option<String>,
    #[serde(default, rename = "sessionID", deserialize_with = "lenient")]
    pub session_id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub pane: Option<String>,
}

/// The pane identity behind a Live daemon name: `agterm-<32 lowercase hex>` → the upper-case UUID that
/// agterm exports as `AGTERM_PANE_ID`.
pub fn pane_id_from_daemon(daemon: &str) -> Option<String> {
    let hex = daemon.strip_prefix("agterm-")?;
    if hex.len() != 32 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let u = hex.to_ascii_uppercase();
    Some(format!(
        "{}-{}-{}-{}-{}",
        &u[0..8],
        &u[8..12],
        &u[12..16],
        &u[16..20],
        &u[20..32]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_are_lenient() {
        let r: Response = serde_json::from_str(
            r#"{"ok":true,"result":{"id":7,"text":"a\/b","future":{"x":1},"tree":{"workspaces":[{"id":"W","sessions":[{"id":"S","foreground":["claude","--model","x"],"restoreCommand":"","split":"yes"}, 5]}]}}}"#,
        )
        .unwrap();
        let res = r.result.unwrap();
        assert_eq!(
            res.id, None,
            "a number where a string belongs reads as absent"
        );
        assert_eq!(res.text.as_deref(), Some("a/b"));
        let s = &res.tree.unwrap().workspaces[0].sessions;
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].restore_command.as_deref(), Some(""));
        assert_eq!(s[0].split, None);
        assert_eq!(
            s[0].foreground.clone().unwrap().into_words(),
            ["claude", "--model", "x"]
        );
    }

    #[test]
    fn daemon_names_map_back_to_pane_ids() {
        assert_eq!(
            pane_id_from_daemon("agterm-9a2f00000000000000000000000000ab").as_deref(),
            Some("9A2F0000-0000-0000-0000-0000000000AB")
        );
        assert_eq!(pane_id_from_daemon("agterm-9A2F"), None);
        assert_eq!(
            pane_id_from_daemon("other-9a2f00000000000000000000000000ab"),
            None
        );
    }
}
