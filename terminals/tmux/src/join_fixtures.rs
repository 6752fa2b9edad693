//! Plain-data builders for tests of tmux records and panes: this crate's join tests, and restore's plan
//! tests with tmux panes (the `fixtures` feature).

use crate::pane::{TmuxPane, TmuxPart};
use agterm_backup_core::fixtures::{pane, record};
use agterm_backup_core::join::CapturedPane;
use agterm_backup_core::own_pane::OwnPane;
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::record::LiveRecord;
use agterm_backup_core::terminal::PaneView;

pub fn place(session: &str, window: u32, pane: u32, id: &str, cwd: &str) -> TmuxPane {
    TmuxPane {
        socket: "/tmp/tmux-1/default".into(),
        session: session.into(),
        window,
        pane,
        pane_id: Some(id.into()),
        server_pid: Some(100),
        server_started: Some(1_700_000_000),
        cwd: Some(cwd.into()),
    }
}

pub fn tmux_record(id: &str, at: &str, t: &TmuxPane) -> LiveRecord {
    let mut r = record(id, PaneRole::Left, at);
    r.agent_cwd = t.cwd.clone().unwrap();
    r.hook_cwd = format!("{}/sub", r.agent_cwd);
    r.set_tmux(t);
    r
}

pub fn view(t: TmuxPane, cwd: &str) -> PaneView {
    let mut p = pane(PaneRole::Left);
    p.pane_id = Some("%0".into());
    p.cwd = Some(cwd.into());
    p.set_tmux(&TmuxPane {
        pane_id: Some("%0".into()),
        server_pid: Some(200),
        server_started: Some(1_800_000_000),
        ..t
    });
    p
}

pub fn captured(r: LiveRecord) -> CapturedPane {
    CapturedPane {
        key: TmuxPane::record_key(&r).unwrap(),
        record: Some(r),
        journal: vec![],
    }
}
