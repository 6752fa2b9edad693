// agterm-backup: records this pane's opencode session so `agterm-backup restore` (or the terminal's pin)
// resumes it after a restart. Written by `agterm-backup installer apply`; `installer remove` deletes it.
// opencode has no command hooks: this plugin runs `agterm-backup hook opencode` with a Claude-style
// payload on stdin at the moments the other agents' hooks fire. It prints nothing and never throws
// (a throw in tool.execute.before would block the tool).
import { spawn, spawnSync } from "node:child_process";

const BINARY = "__AGTERM_BACKUP_BINARY__";

export const AgtermBackup = async ({ directory }) => {
  // Outside every captured terminal's pane the hook would do nothing: do not even start it. The
  // installer writes the terminals' own test here (each one's pane variables, from its registry row).
  if (!(__IN_A_PANE__)) return {};
  const seen = new Set();
  const dirs = new Map();
  // The session this pane's record names (the last one sent), and whether opencode is shutting down:
  // an event after `dispose` (the aborted turn's session.idle) must not undo the end.
  let current = null;
  let disposed = false;
  const payloadOf = (sessionID, event, extra) => ({
    session_id: sessionID,
    cwd: dirs.get(sessionID) || directory,
    hook_event_name: event,
    ...extra,
  });
  const send = (sessionID, event, extra) => {
    if (disposed || typeof sessionID !== "string" || !sessionID) return;
    current = sessionID;
    const payload = payloadOf(sessionID, event, extra);
    try {
      const child = spawn(BINARY, ["hook", "opencode"], { stdio: ["pipe", "ignore", "ignore"] });
      child.on("error", () => {});
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(payload));
    } catch {}
  };
  // A session this process did not create was resumed (`opencode --session <id>`): its first event
  // stands for the SessionStart opencode does not send.
  const touch = (sessionID, event, extra) => {
    if (typeof sessionID === "string" && !seen.has(sessionID)) {
      seen.add(sessionID);
      send(sessionID, "SessionStart", { source: "resume" });
    }
    send(sessionID, event, extra);
  };
  return {
    event: async ({ event }) => {
      try {
        const props = (event && event.properties) || {};
        if (event.type === "session.created" && props.info) {
          if (props.info.directory) dirs.set(props.info.id, props.info.directory);
          seen.add(props.info.id);
          send(props.info.id, "SessionStart", { source: "startup" });
        } else if (event.type === "session.idle") {
          touch(props.sessionID, "Stop");
        }
      } catch {}
    },
    "chat.message": async (input, output) => {
      try {
        const parts = (output && output.parts) || [];
        const prompt = parts
          .filter((p) => p && p.type === "text" && typeof p.text === "string")
          .map((p) => p.text)
          .join("\n");
        touch(input && input.sessionID, "UserPromptSubmit", { prompt });
      } catch {}
    },
    "tool.execute.before": async (input) => {
      try {
        touch(input && input.sessionID, "PreToolUse");
      } catch {}
    },
    // opencode 1.18.33 calls this on `/exit` and when its pty hangs up alike (no event reaches
    // `event` then): it is the SessionEnd opencode does not send, and the hook's look at opencode's
    // terminal tells the two apart. Run to its end here: the process exits right after.
    dispose: async () => {
      try {
        if (disposed) return;
        disposed = true;
        if (!current) return;
        const payload = payloadOf(current, "SessionEnd", { reason: "dispose" });
        spawnSync(BINARY, ["hook", "opencode"], {
          input: JSON.stringify(payload),
          stdio: ["pipe", "ignore", "ignore"],
          timeout: 5000,
        });
      } catch {}
    },
  };
};
