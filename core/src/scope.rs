//! One running instance of a terminal, as plain data: the terminal's name and, for a terminal that runs
//! as many instances, the place that tells one apart (a server's socket, a socket directory). Which
//! terminals run as one instance, and how a record, `--socket` or the environment names an instance, are
//! each terminal's rules, asked through the registry's rows; here the instance is only carried.

use crate::pane::TerminalName;
use crate::terminal::Terminal;

/// Which captured panes one terminal instance holds. `place` is `None` exactly for a terminal that runs
/// as one instance (its row says so); it crosses command lines as `--terminal <name> [--socket <place>]`
/// and names the once-per-launch markers' folder, so its text is kept as the terminal wrote it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Scope {
    pub terminal: TerminalName,
    pub place: Option<String>,
}

impl Scope {
    pub fn new(terminal: TerminalName, place: Option<String>) -> Scope {
        Scope { terminal, place }
    }

    /// The terminal this is an instance of.
    pub fn kind(&self) -> TerminalName {
        self.terminal
    }

    /// The place that tells this instance apart from others of its terminal (`None` for a terminal of
    /// which one runs).
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    /// For people: the terminal's name, with its place in parentheses when it has one.
    pub fn label(&self) -> String {
        match self.place() {
            None => self.kind().to_string(),
            Some(place) => format!("{} ({place})", self.kind()),
        }
    }
}

/// A lookup of environment variables (empty values are the caller's to filter).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// A terminal instance opened, or why not (where we looked).
pub type Opened = Result<Box<dyn Terminal>, String>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_shows_the_place_when_there_is_one() {
        let one = TerminalName::new("one");
        let many = TerminalName::new("many");
        assert_eq!(Scope::new(one, None).label(), "one");
        assert_eq!(
            Scope::new(many, Some("/run/x".into())).label(),
            "many (/run/x)"
        );
    }
}
