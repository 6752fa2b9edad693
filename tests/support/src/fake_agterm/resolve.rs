//! Target resolution exactly as agterm's `ControlResolve`: windows by id, prefix or `active`; sessions by
//! exact UUID (case-insensitive), then unique lowercase prefix, or `active`, across all open windows
//! unless `args.window` narrows it.

use super::model::{FakeState, Window};

/// Resolves `args.window`: `None`/`active` = the frontmost open window.
pub fn resolve_window<'a>(state: &'a FakeState, arg: Option<&str>) -> Result<&'a Window, String> {
    match arg {
        None | Some("active") => frontmost(state).ok_or_else(|| "no open window".to_string()),
        Some(t) => {
            let lower = t.to_lowercase();
            let exact = state.windows.iter().find(|w| w.id.eq_ignore_ascii_case(t));
            let window = match exact {
                Some(w) => w,
                None => {
                    let hits: Vec<&Window> = if lower.is_empty() {
                        Vec::new()
                    } else {
                        state
                            .windows
                            .iter()
                            .filter(|w| w.id.to_lowercase().starts_with(&lower))
                            .collect()
                    };
                    match hits.as_slice() {
                        [one] => *one,
                        [] => return Err(format!("no such window: {t}")),
                        many => {
                            return Err(format!(
                                "ambiguous window prefix '{t}' → {}",
                                short_ids(many.iter().map(|w| w.id.as_str()))
                            ))
                        }
                    }
                }
            };
            if !window.open {
                return Err("window not open — window.select it first".into());
            }
            Ok(window)
        }
    }
}

fn frontmost(state: &FakeState) -> Option<&Window> {
    let front = state.frontmost.as_deref();
    state
        .windows
        .iter()
        .find(|w| w.open && Some(w.id.as_str()) == front)
        .or_else(|| state.windows.iter().find(|w| w.open))
}

fn short_ids<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    ids.map(|id| id.chars().take(8).collect::<String>())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Resolves a session target to its id. A missing target is treated as `active` (what `agtermctl`
/// sends by default); an empty one matches nothing.
pub fn resolve_session(
    state: &FakeState,
    target: Option<&str>,
    window: Option<&str>,
) -> Result<String, String> {
    let target = target.unwrap_or("active");
    let windows: Vec<&Window> = match window {
        Some(_) => vec![resolve_window(state, window)?],
        None => state.windows.iter().filter(|w| w.open).collect(),
    };
    if target == "active" {
        let w = match window {
            Some(_) => windows[0],
            None => frontmost(state).ok_or_else(|| "no open window".to_string())?,
        };
        return w
            .selected
            .clone()
            .ok_or_else(|| format!("no such session: {target}"));
    }
    let ids: Vec<&str> = windows
        .iter()
        .flat_map(|w| w.workspaces.iter())
        .flat_map(|ws| ws.sessions.iter())
        .map(|s| s.id.as_str())
        .collect();
    if let Some(id) = ids.iter().find(|id| id.eq_ignore_ascii_case(target)) {
        return Ok(id.to_string());
    }
    let lower = target.to_lowercase();
    let hits: Vec<&str> = if lower.is_empty() {
        Vec::new()
    } else {
        ids.into_iter()
            .filter(|id| id.to_lowercase().starts_with(&lower))
            .collect()
    };
    match hits.as_slice() {
        [one] => Ok(one.to_string()),
        [] => Err(format!("no such session: {target}")),
        many => Err(format!(
            "ambiguous session prefix '{target}' → {}",
            short_ids(many.iter().copied())
        )),
    }
}
