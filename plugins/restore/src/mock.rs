//! An in-memory [`Terminal`] for tests: panes are plain data, typed text is recorded, and a scripted
//! reaction can change a pane when text arrives (an agent coming up, a dialog appearing).

use agterm_backup_core::terminal::{
    Created, PaneRef, PaneView, ScreenRange, Terminal, TerminalError, TerminalInfo,
};
use std::collections::HashMap;

/// What the mock does when text is typed into a pane: gets the pane and screens to change.
pub type Reaction = Box<dyn FnMut(&PaneRef, &str, &mut PaneView, &mut String)>;

/// Changes the panes on the `n`-th `panes()` call (0-based).
pub type OnRead = Box<dyn FnMut(usize, &mut Vec<PaneView>)>;

/// What the mock does when asked to create a pane (its panes to change); says who created it.
pub type OnCreate = Box<dyn FnMut(&PaneRef, &str, &mut Vec<PaneView>) -> Created>;

/// A terminal held in memory.
pub struct MockTerminal {
    pub info: TerminalInfo,
    pub panes: Vec<PaneView>,
    /// Screen text per `(session, role)`.
    pub screens: HashMap<(String, String), String>,
    /// Every `type_text` call, in order.
    pub typed: Vec<(PaneRef, String)>,
    pub react: Option<Reaction>,
    /// `panes()` calls so far (tests use it to change the world between the plan and the typing).
    pub pane_reads: usize,
    /// Applied on the `n`-th `panes()` call (0-based).
    pub on_read: Option<OnRead>,
    /// Every `create` call, in order: the pane, the directory and the line.
    pub created: Vec<(PaneRef, String, String)>,
    /// Applied on `create` (without it: [`Created::Ours`], the panes unchanged).
    pub on_create: Option<OnCreate>,
}

impl MockTerminal {
    pub fn new(info: TerminalInfo, panes: Vec<PaneView>) -> MockTerminal {
        MockTerminal {
            info,
            panes,
            screens: HashMap::new(),
            typed: Vec::new(),
            react: None,
            pane_reads: 0,
            on_read: None,
            created: Vec::new(),
            on_create: None,
        }
    }

    fn screen_key(pane: &PaneRef) -> (String, String) {
        (
            pane.session_id.to_ascii_uppercase(),
            pane.role.as_str().to_string(),
        )
    }

    pub fn set_screen(&mut self, pane: &PaneRef, text: &str) {
        self.screens
            .insert(Self::screen_key(pane), text.to_string());
    }
}

impl Terminal for MockTerminal {
    fn info(&mut self) -> Result<TerminalInfo, TerminalError> {
        Ok(self.info.clone())
    }

    fn panes(&mut self) -> Result<Vec<PaneView>, TerminalError> {
        if let Some(f) = self.on_read.as_mut() {
            f(self.pane_reads, &mut self.panes);
        }
        self.pane_reads += 1;
        Ok(self.panes.clone())
    }

    fn type_text(&mut self, pane: &PaneRef, text: &str) -> Result<(), TerminalError> {
        self.typed.push((pane.clone(), text.to_string()));
        let key = Self::screen_key(pane);
        let Some(view) = self
            .panes
            .iter_mut()
            .find(|p| p.session_id.eq_ignore_ascii_case(&pane.session_id) && p.role == pane.role)
        else {
            return Err(TerminalError::Refused("session not found".into()));
        };
        let screen = self.screens.entry(key).or_default();
        if let Some(react) = self.react.as_mut() {
            react(pane, text, view, screen);
        }
        Ok(())
    }

    fn screen(&mut self, pane: &PaneRef, _range: ScreenRange) -> Result<String, TerminalError> {
        Ok(self
            .screens
            .get(&Self::screen_key(pane))
            .cloned()
            .unwrap_or_default())
    }

    fn pin(&mut self, _pane: &PaneRef, _line: &str) -> Result<Option<String>, TerminalError> {
        Err(TerminalError::Unsupported("the mock has no pins".into()))
    }

    fn create(&mut self, pane: &PaneRef, dir: &str, line: &str) -> Result<Created, TerminalError> {
        self.created
            .push((pane.clone(), dir.to_string(), line.to_string()));
        Ok(match self.on_create.as_mut() {
            Some(f) => f(pane, line, &mut self.panes),
            None => Created::Ours,
        })
    }
}
