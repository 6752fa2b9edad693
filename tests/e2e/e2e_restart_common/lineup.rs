//! Who runs where: the agents of a test, as data, and starting them in the fake agterm's panes the way
//! a person does (typing the command line into the pane's shell, then a prompt into the agent).

use super::{World, AGENT_START, TURN};
use agterm_backup_core::pane::PaneRole;
use agterm_backup_core::quote::{quote, quote_words};
use agterm_backup_testkit::agents::{submit_until, wait_ready, Agent};
use std::path::PathBuf;

/// The project folders (under the rig's root; Claude trusts each).
pub const DIRS: [&str; 14] = [
    "main proj",
    "second proj",
    "third proj",
    "third proj/sub",
    "codex one",
    "codex two",
    "daemon a",
    "daemon b",
    "gemini proj",
    "copilot proj",
    "qwen proj",
    "opencode proj",
    "kimi proj",
    "kimi two",
];

/// One agent of a lineup.
#[derive(Debug, Clone, Copy)]
pub struct PaneSpec {
    pub name: &'static str,
    pub agent: Agent,
    /// Index of the agterm session (in [`Lineup::sessions`]) and the pane in it.
    pub session: usize,
    pub role: PaneRole,
    /// The directory the agent is started in (a `cd` first when the session opened elsewhere).
    pub dir: &'static str,
    pub flags: &'static [&'static str],
    pub prompt: &'static str,
    /// The prompt goes on the command line (else it is typed once the agent is ready).
    pub prompt_as_argument: bool,
    /// Codex in its default mode: hooks run under the shared app-server daemon, with its environment.
    pub daemon: bool,
    /// The first turn's Stop must report this payload cwd (the Bash tool `cd`ed there).
    pub stop_cwd: Option<&'static str>,
}

/// The agterm sessions to open (directory, with a split) and the agents to start in them.
pub struct Lineup {
    pub sessions: &'static [(&'static str, bool)],
    pub panes: &'static [PaneSpec],
}

/// A pane spec with every optional field empty.
pub const fn spec(name: &'static str, agent: Agent, session: usize, role: PaneRole) -> PaneSpec {
    PaneSpec {
        name,
        agent,
        session,
        role,
        dir: "",
        flags: &[],
        prompt: "",
        prompt_as_argument: false,
        daemon: false,
        stop_cwd: None,
    }
}

/// Three Claude panes (a prompt argument with an apostrophe, a split in a second directory, a Bash `cd`
/// into a subdirectory) and two `codex --no-daemon` panes, in three agterm sessions.
#[allow(dead_code)] // each test binary runs one lineup
pub const MIXED: Lineup = Lineup {
    sessions: &[
        ("main proj", true),
        ("third proj", true),
        ("codex two", false),
    ],
    panes: &[
        PaneSpec {
            dir: "main proj",
            flags: &["--model", "sonnet"],
            prompt: "it's the main pane",
            prompt_as_argument: true,
            ..spec("main", Agent::Claude, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "second proj",
            flags: &["--model", "opus"],
            prompt: "hello from the second pane",
            prompt_as_argument: true,
            ..spec("second", Agent::Claude, 0, PaneRole::Right)
        },
        PaneSpec {
            dir: "third proj",
            prompt: "please RUN:cd sub && pwd",
            stop_cwd: Some("third proj/sub"),
            ..spec("cd-sub", Agent::Claude, 1, PaneRole::Left)
        },
        PaneSpec {
            dir: "codex one",
            flags: &["--no-daemon", "-m", "mock-model"],
            prompt: "codex one USE_TOOL",
            ..spec("codex-one", Agent::Codex, 1, PaneRole::Right)
        },
        PaneSpec {
            dir: "codex two",
            flags: &["--no-daemon"],
            prompt: "codex two says hi",
            ..spec("codex-two", Agent::Codex, 2, PaneRole::Left)
        },
    ],
};

/// Two Codex TUIs in Codex's default mode (one shared app-server daemon), in the two panes of one
/// agterm session, in two directories.
#[allow(dead_code)] // each test binary runs one lineup
pub const CODEX_DAEMON: Lineup = Lineup {
    sessions: &[("daemon a", true)],
    panes: &[
        PaneSpec {
            dir: "daemon a",
            flags: &["-m", "mock-model"],
            prompt: "daemon pane a USE_TOOL",
            daemon: true,
            ..spec("daemon-a", Agent::Codex, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "daemon b",
            prompt: "daemon pane b says hi",
            daemon: true,
            ..spec("daemon-b", Agent::Codex, 0, PaneRole::Right)
        },
    ],
};

/// Gemini CLI, Copilot CLI and Qwen Code (their npm launchers, run by node), each with launch flags, in
/// two agterm sessions and three directories; Copilot's directory is not its session's.
#[allow(dead_code)] // each test binary runs one lineup
pub const MORE: Lineup = Lineup {
    sessions: &[("gemini proj", true), ("qwen proj", false)],
    panes: &[
        PaneSpec {
            dir: "gemini proj",
            flags: &["-m", "gemini-2.5-flash"],
            prompt: "gemini pane USE_TOOL",
            ..spec("gemini", Agent::Gemini, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "copilot proj",
            flags: &["--model", "gpt-4.1"],
            prompt: "copilot pane says hi",
            ..spec("copilot", Agent::Copilot, 0, PaneRole::Right)
        },
        PaneSpec {
            dir: "qwen proj",
            flags: &["-m", "stub-model"],
            prompt: "qwen pane says hi",
            ..spec("qwen", Agent::Qwen, 1, PaneRole::Left)
        },
    ],
};

/// opencode (its native binary, with agterm-backup's plugin) in the right pane of a session opened in
/// another directory.
#[allow(dead_code)] // each test binary runs one lineup
pub const OPENCODE: Lineup = Lineup {
    sessions: &[("qwen proj", true)],
    panes: &[PaneSpec {
        dir: "opencode proj",
        flags: &["-m", "stub/stub-model"],
        prompt: "opencode pane says hi",
        ..spec("opencode", Agent::Opencode, 0, PaneRole::Right)
    }],
};

/// Kimi Code (its npm launcher on Node 22) in both panes of a session, the right one `cd`ed into a
/// directory of its own, each with a launch flag (Kimi keeps it in the session; it renames its process,
/// so no flag can be read back, and none is replayed).
#[allow(dead_code)] // each test binary runs one lineup
pub const KIMI: Lineup = Lineup {
    sessions: &[("kimi proj", true)],
    panes: &[
        PaneSpec {
            dir: "kimi proj",
            flags: &["--yolo"],
            prompt: "the left kimi pane says hi",
            ..spec("kimi-left", Agent::Kimi, 0, PaneRole::Left)
        },
        PaneSpec {
            dir: "kimi two",
            flags: &["--yolo"],
            prompt: "the right kimi pane says hi",
            ..spec("kimi-right", Agent::Kimi, 0, PaneRole::Right)
        },
    ],
};

/// One agent in one pane, and what it must come back as.
#[derive(Debug, Clone)]
pub struct AgentPane {
    pub spec: PaneSpec,
    pub name: &'static str,
    pub agent: Agent,
    /// `AGTERM_SESSION_ID` of the pane's agterm session.
    pub session: String,
    pub role: PaneRole,
    /// The directory the conversation lives in (what it must resume from).
    pub dir: PathBuf,
    /// The launch flags the resumed agent must carry again (where its argv can be read).
    pub flags: Vec<String>,
    /// The first prompt; it must never be sent again.
    pub prompt: String,
    /// The conversation id, once the first turn has run.
    pub id: String,
}

impl AgentPane {
    pub fn agent_name(&self) -> &'static str {
        self.agent.name()
    }

    /// The agent's row in the agent table.
    pub fn spec(&self) -> &'static agterm_backup_core::agent::AgentSpec {
        agterm_backup_core::agent::agent(self.agent_name()).expect("a known agent")
    }
}

impl World {
    /// Opens the lineup's agterm sessions, starts every agent with its first turn, and learns each
    /// pane's conversation id from the agent's own payloads (the prompt it got names the pane).
    pub fn start_agents(&mut self, lineup: &Lineup) {
        let sessions: Vec<String> = lineup
            .sessions
            .iter()
            .map(|(dir, split)| {
                self.fake
                    .add_session(None, None, &self.rig.root.join(dir), *split)
                    .id
            })
            .collect();
        self.panes = lineup
            .panes
            .iter()
            .map(|s| AgentPane {
                spec: *s,
                name: s.name,
                agent: s.agent,
                session: sessions[s.session].clone(),
                role: s.role,
                dir: self.rig.root.join(s.dir),
                flags: s.flags.iter().map(|f| f.to_string()).collect(),
                prompt: s.prompt.to_string(),
                id: String::new(),
            })
            .collect();
        let mut past_first_turn = Vec::new();
        for i in 0..self.panes.len() {
            let p = self.panes[i].clone();
            let mut argv = vec![p.agent_name().to_string()];
            argv.extend(p.flags.iter().cloned());
            if p.spec.prompt_as_argument {
                argv.push(p.prompt.clone());
            }
            let cd = if p.spec.dir == lineup.sessions[p.spec.session].0 {
                String::new()
            } else {
                format!("cd {} && ", quote(&p.dir.display().to_string()))
            };
            let line = format!("{cd}{}\n", quote_words(&argv));
            self.fake.send_keys(&p.session, p.role, &line);
            // One TUI at a time starts or joins Codex's shared daemon; opencode TUIs sharing the HOME
            // start one at a time too (two starting together there: one never drew its screen).
            if p.spec.daemon || p.agent == Agent::Opencode {
                let tmux_pane = self.fake.pane_tmux_id(&p.session, p.role);
                wait_ready(self.fake.tmux(), &tmux_pane, p.agent, AGENT_START);
            }
            // Gemini CLI 0.61's start-up cleanup (`cleanupExpiredSessions`, on by default) deletes every
            // session file of the project with no prompt in it yet, also a running gemini's fresh one,
            // which then writes its turns to a file with no header that `--resume` cannot find (a Gemini
            // bug a user starting two at once meets too; restore skips such a conversation as gone). So
            // a gemini is past its first turn before the next agent starts.
            if p.agent == Agent::Gemini {
                self.first_turn(i);
                past_first_turn.push(i);
            }
        }
        for i in (0..self.panes.len()).filter(|i| !past_first_turn.contains(i)) {
            self.first_turn(i);
        }
    }

    /// Gives pane `i` its first prompt (unless it was an argument), waits for it and the turn's end,
    /// and keeps the conversation's id.
    fn first_turn(&mut self, i: usize) {
        let p = self.panes[i].clone();
        if !p.spec.prompt_as_argument {
            let tmux_pane = self.fake.pane_tmux_id(&p.session, p.role);
            wait_ready(self.fake.tmux(), &tmux_pane, p.agent, AGENT_START);
            self.submit_prompt(&p, &p.prompt);
        }
        let asked = self
            .log
            .wait(TURN, &format!("{}'s first prompt", p.name), |c| {
                c.event() == p.agent.prompt_event()
                    && c.prompt().as_deref() == Some(p.prompt.as_str())
            });
        let id = asked.payload["session_id"].as_str().expect("session_id");
        let stop_cwd = p.spec.stop_cwd.map(|d| self.rig.root.join(d));
        self.log
            .wait(TURN, &format!("{}'s first Stop", p.name), |c| {
                c.event() == p.agent.stop_event()
                    && c.payload["session_id"] == id
                    && stop_cwd
                        .as_ref()
                        .is_none_or(|d| c.payload["cwd"] == d.display().to_string().as_str())
            });
        self.panes[i].id = id.to_string();
    }

    /// Types `prompt` into the pane's agent, once, and presses Enter again while no prompt hook call for
    /// it arrives (a TUI that has just attached to Codex's daemon may drop the first Enter).
    pub fn submit_prompt(&self, pane: &AgentPane, prompt: &str) {
        let tmux_pane = self.fake.pane_tmux_id(&pane.session, pane.role);
        submit_until(self.fake.tmux(), &tmux_pane, prompt, TURN, || {
            self.log.calls().iter().any(|c| {
                c.event() == pane.agent.prompt_event() && c.prompt().as_deref() == Some(prompt)
            })
        });
    }
}
