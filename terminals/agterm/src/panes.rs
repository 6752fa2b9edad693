//! Joining agterm's answers into [`PaneView`]s: `window.list` × `tree` per open window × `zmx.list`.
//! Pure, so the planner's view of agterm is tested without a socket.

use super::wire::{pane_id_from_daemon, SessionNode, Tree, WindowInfo, ZmxEntry, ZmxInventory};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::terminal::{LiveDaemon, PaneView};

/// One open window and its tree.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WindowTree {
    pub window: WindowInfo,
    pub tree: Tree,
}

/// What the join needs to know about the build: `reports_shell` — it sends `foregroundShell` (0.26+),
/// so a pane with neither `foreground` nor `foregroundShell` holds a program it cannot read.
#[derive(Debug, Clone, Copy, Default)]
pub struct JoinContext<'a> {
    pub zmx: Option<&'a ZmxInventory>,
    pub reports_shell: bool,
}

/// Every left pane, and every right pane of a session that has a split, in tree order: the sessions of
/// every workspace (the 0.44 `root: true` group of top-level sessions included), top-level sessions
/// listed beside the workspaces, and companions nested under a session. The shapes are accepted side by
/// side because which one agterm sends is unverified, so a session that shows in two of them (a
/// top-level session under `root` and beside the workspaces, a companion flat and nested) is one pane:
/// its first listing.
pub fn join_panes(windows: &[WindowTree], ctx: JoinContext<'_>) -> Vec<PaneView> {
    let mut panes = Vec::new();
    for w in windows {
        let groups = w.tree.workspaces.iter().map(|ws| &ws.sessions);
        for sessions in groups.chain(std::iter::once(&w.tree.sessions)) {
            push_sessions(&mut panes, w, sessions, ctx);
        }
    }
    let mut seen = std::collections::HashSet::new();
    panes.retain(|p| seen.insert((p.session_id.clone(), p.role)));
    panes
}

fn push_sessions(
    panes: &mut Vec<PaneView>,
    w: &WindowTree,
    sessions: &[SessionNode],
    ctx: JoinContext<'_>,
) {
    for s in sessions {
        if let Some(id) = s.id.clone() {
            panes.push(view(w, s, &id, PaneRole::Left, ctx));
            if s.has_split.unwrap_or(false) || s.split.unwrap_or(false) {
                panes.push(view(w, s, &id, PaneRole::Right, ctx));
            }
        }
        push_sessions(panes, w, &s.companions, ctx);
    }
}

fn view(
    w: &WindowTree,
    s: &SessionNode,
    id: &str,
    role: PaneRole,
    ctx: JoinContext<'_>,
) -> PaneView {
    let zmx = ctx.zmx;
    let left = role == PaneRole::Left;
    let row = zmx.and_then(|z| zmx_row(z, id, role));
    let surface_kind = role.as_str();
    let token = s
        .surfaces
        .iter()
        .find(|sf| sf.kind.as_deref() == Some(surface_kind))
        .and_then(|sf| sf.pane_id.clone())
        .or_else(|| {
            row.and_then(|r| r.daemon.as_deref())
                .and_then(pane_id_from_daemon)
        });
    let realized = match (s.realized, left) {
        (Some(r), true) => Some(r),
        // The split's liveness shows only through its font size, which is omitted while unrealized.
        (Some(_), false) => Some(s.split_font_size.is_some()),
        (None, _) => None,
    };
    PaneView {
        session_id: id.to_ascii_uppercase(),
        role,
        pane_id: token,
        window_id: w.window.id.clone(),
        session_name: s.name.clone(),
        cwd: if left {
            s.cwd.clone()
        } else {
            s.split_cwd.clone()
        },
        foreground: if left {
            s.foreground.clone()
        } else {
            s.split_foreground.clone()
        }
        .map(|a| a.into_words()),
        shell_in_front: ctx.reports_shell.then(|| {
            if left {
                s.foreground_shell.is_some()
            } else {
                s.split_foreground_shell.is_some()
            }
        }),
        remote: s.is_remote(),
        realized,
        pin: if left {
            s.restore_command.clone()
        } else {
            s.split_restore_command.clone()
        },
        live: row.and_then(|r| {
            Some(LiveDaemon {
                daemon: r.daemon.clone()?,
                running: r.observation.as_deref() == Some("running"),
                clients: r.clients,
                leader_pid: r.leader_pid,
                started_at: None,
            })
        }),
        own: Default::default(),
    }
}

fn zmx_row<'a>(z: &'a ZmxInventory, session: &str, role: PaneRole) -> Option<&'a ZmxEntry> {
    z.entries.iter().find(|e| {
        e.session_id
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case(session))
            && e.pane.as_deref() == Some(role.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(json: &str) -> Tree {
        serde_json::from_str(json).unwrap()
    }

    fn ids(panes: &[PaneView]) -> Vec<(&str, PaneRole)> {
        panes
            .iter()
            .map(|p| (p.session_id.as_str(), p.role))
            .collect()
    }

    #[test]
    fn joins_splits_pins_and_live_rows() {
        let w = WindowTree {
            window: WindowInfo {
                id: Some("W1".into()),
                open: Some(true),
                ..Default::default()
            },
            tree: tree(
                r#"{"workspaces":[{"id":"WS","sessions":[
                  {"id":"aaaa-1","name":"api","cwd":"/w/a","splitCwd":"/w/b","split":true,"hasSplit":true,
                   "realized":true,"fontSize":13,"restoreCommand":"cd '/w/a' && 'claude'","foreground":["claude"]},
                  {"id":"BBBB-2","name":"web","cwd":"/w/c","split":false,"realized":false}]}]}"#,
            ),
        };
        let zmx: ZmxInventory = serde_json::from_str(
            r#"{"entries":[{"daemon":"agterm-9a2f00000000000000000000000000ab","observation":"running",
                "clients":1,"sessionID":"AAAA-1","pane":"right"}]}"#,
        )
        .unwrap();
        let panes = join_panes(
            &[w],
            JoinContext {
                zmx: Some(&zmx),
                reports_shell: false,
            },
        );
        assert_eq!(panes.len(), 3);
        let (l, r, other) = (&panes[0], &panes[1], &panes[2]);
        assert_eq!((l.session_id.as_str(), l.role), ("AAAA-1", PaneRole::Left));
        assert_eq!(l.pin.as_deref(), Some("cd '/w/a' && 'claude'"));
        assert_eq!(l.foreground, Some(vec!["claude".to_string()]));
        assert_eq!(l.realized, Some(true));
        assert!(l.live.is_none());
        assert_eq!(r.cwd.as_deref(), Some("/w/b"));
        assert_eq!(
            r.realized,
            Some(false),
            "no splitFontSize: the split is not up"
        );
        assert_eq!(r.pin, None);
        assert_eq!(
            r.pane_id.as_deref(),
            Some("9A2F0000-0000-0000-0000-0000000000AB")
        );
        assert!(r.live.as_ref().unwrap().running);
        assert_eq!(other.role, PaneRole::Left);
        assert_eq!(other.window_id.as_deref(), Some("W1"));
        assert_eq!(other.realized, Some(false));
        assert!(panes
            .iter()
            .all(|p| p.shell_in_front.is_none() && !p.remote));
    }

    /// 0.44: top-level sessions as a `root: true` workspace node and (unverified) beside the workspaces,
    /// companions flat (with `parentID`) and (unverified) nested, remote sessions by `remote` or
    /// `remoteHost`, and the shell agterm sees — or does not see — in front.
    #[test]
    fn newest_shapes_root_companions_remote_and_unreadable_foreground() {
        let w = WindowTree {
            window: WindowInfo::default(),
            tree: tree(
                r#"{"workspaces":[
                  {"id":"R","name":"","root":true,"sessions":[
                    {"id":"A","foregroundShell":"zsh","companions":[{"id":"C","remote":true}]}]},
                  {"id":"WS","sessions":[{"id":"D","parentID":"A","remoteHost":"mini"},
                    {"id":"E","split":true,"splitForeground":["vim"],"splitForegroundShell":"zsh"}]}],
                  "sessions":[{"id":"B","scratchCwd":"/tmp/x","foregroundShell":"zsh"}]}"#,
            ),
        };
        let ctx = JoinContext {
            zmx: None,
            reports_shell: true,
        };
        let panes = join_panes(&[w], ctx);
        assert_eq!(
            ids(&panes),
            [
                ("A", PaneRole::Left),
                ("C", PaneRole::Left),
                ("D", PaneRole::Left),
                ("E", PaneRole::Left),
                ("E", PaneRole::Right),
                ("B", PaneRole::Left)
            ]
        );
        let remote: Vec<bool> = panes.iter().map(|p| p.remote).collect();
        assert_eq!(remote, [false, true, true, false, false, false]);
        assert_eq!(panes[0].shell_in_front, Some(true));
        assert_eq!(
            panes[3].shell_in_front,
            Some(false),
            "neither foreground nor foregroundShell: an unreadable program (sudo) holds the pane"
        );
        assert_eq!(panes[4].shell_in_front, Some(true));
        assert_eq!(panes[5].cwd, None, "scratchCwd is not the pane's cwd");
    }

    /// Both unverified shapes at once: a top-level session under `root` and beside the workspaces, a
    /// companion flat (with `parentID`) and nested under its parent. Each is one pane.
    #[test]
    fn a_session_listed_in_two_shapes_is_one_pane() {
        let w = WindowTree {
            window: WindowInfo::default(),
            tree: tree(
                r#"{"workspaces":[
                  {"id":"R","root":true,"sessions":[
                    {"id":"a","split":true,"companions":[{"id":"C","parentID":"A"}]}]},
                  {"id":"WS","sessions":[{"id":"C","parentID":"A"}]}],
                  "sessions":[{"id":"A","split":true}]}"#,
            ),
        };
        let panes = join_panes(&[w], JoinContext::default());
        assert_eq!(
            ids(&panes),
            [
                ("A", PaneRole::Left),
                ("A", PaneRole::Right),
                ("C", PaneRole::Left)
            ]
        );
    }
}
