//! What waits unread on a shell's terminal when it reaches its prompt: input someone typed (the user typing
//! ahead, a pin or command the terminal typed), or only the terminal's own replies to queries a line editor or
//! framework sent at start-up (ble.sh's DA2 and cursor-position requests, fish 4's, a prompt theme's
//! colour queries). Only typed input holds a resume back: a reply is never a command.
//!
//! [`classify`] is the pure rule over the bytes; [`io`] asks the tty what waits and takes it.
//!
//! A reply is a complete control sequence of a kind a terminal sends in answer to a query and a key never
//! produces (the [`csi_reply`] and [`dcs_reply`] tables, OSC and APC replies). Anything else is typed:
//! text, Enter, control keys, arrow and function keys (`CSI A`, `CSI 3~`, `SS3 P`, kitty's `CSI 97;5u`),
//! Alt-keys (`ESC x`), a paste. One overlap is taken as a reply: xterm sends Shift/Ctrl-F3 as
//! `CSI 1;<mod>R`, the same bytes as a cursor-position report on row 1.

pub mod io;

/// What the pending bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing waits.
    Empty,
    /// Only complete terminal replies (`replies` of them).
    Replies { replies: usize },
    /// Complete replies, then the start of one still arriving (or a lone ESC, which may be the Esc key:
    /// only more bytes, or none arriving, tell), starting at `at`.
    Unfinished { replies: usize, at: usize },
    /// Input someone typed, its first byte at `at`.
    Typed { at: usize },
}

impl Verdict {
    /// Whether someone typed something (the only verdict that holds a resume back).
    pub fn typed(self) -> bool {
        matches!(self, Verdict::Typed { .. })
    }
}

const ESC: u8 = 0x1b;
const BEL: u8 = 0x07;
/// The 8-bit forms of CSI, DCS, OSC, APC and ST (a terminal in S8C1T mode replies with them).
const C1_CSI: u8 = 0x9b;
const C1_DCS: u8 = 0x90;
const C1_OSC: u8 = 0x9d;
const C1_APC: u8 = 0x9f;
const C1_ST: u8 = 0x9c;

/// The pending bytes, read as terminal replies one after another until one is not.
pub fn classify(bytes: &[u8]) -> Verdict {
    if bytes.is_empty() {
        return Verdict::Empty;
    }
    let mut at = 0;
    let mut replies = 0;
    while at < bytes.len() {
        match reply_at(&bytes[at..]) {
            Step::Reply(len) => {
                at += len;
                replies += 1;
            }
            Step::Unfinished => return Verdict::Unfinished { replies, at },
            Step::NotReply => return Verdict::Typed { at },
        }
    }
    Verdict::Replies { replies }
}

/// One step of [`classify`]: the bytes start with a whole reply of this length, the start of one, or no
/// reply.
enum Step {
    Reply(usize),
    Unfinished,
    NotReply,
}

/// Which control sequence `bytes` starts with, and whether it is a reply.
fn reply_at(bytes: &[u8]) -> Step {
    let (kind, body) = match bytes {
        [ESC] => return Step::Unfinished,
        [ESC, b'[', ..] => (Kind::Csi, 2),
        [C1_CSI, ..] => (Kind::Csi, 1),
        [ESC, b'P', ..] => (Kind::Dcs, 2),
        [C1_DCS, ..] => (Kind::Dcs, 1),
        [ESC, b']', ..] => (Kind::Osc, 2),
        [C1_OSC, ..] => (Kind::Osc, 1),
        [ESC, b'_', ..] => (Kind::Apc, 2),
        [C1_APC, ..] => (Kind::Apc, 1),
        _ => return Step::NotReply,
    };
    match kind {
        Kind::Csi => csi(bytes, body),
        _ => string(bytes, body, kind),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Csi,
    Dcs,
    Osc,
    Apc,
}

/// A control function's header: parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F), the final
/// byte (0x40–0x7E), as ECMA-48 lays out CSI and DCS. `Err(true)`: the bytes end inside it.
struct Header<'a> {
    params: &'a [u8],
    inter: &'a [u8],
    fin: u8,
    len: usize,
}

fn header(bytes: &[u8], start: usize) -> Result<Header<'_>, bool> {
    let mut i = start;
    while bytes.get(i).is_some_and(|b| (0x30..=0x3f).contains(b)) {
        i += 1;
    }
    let params = &bytes[start..i];
    let mid = i;
    while bytes.get(i).is_some_and(|b| (0x20..=0x2f).contains(b)) {
        i += 1;
    }
    let inter = &bytes[mid..i];
    match bytes.get(i) {
        None => Err(true),
        Some(&fin) if (0x40..=0x7e).contains(&fin) => Ok(Header {
            params,
            inter,
            fin,
            len: i + 1,
        }),
        Some(_) => Err(false),
    }
}

fn csi(bytes: &[u8], start: usize) -> Step {
    match header(bytes, start) {
        Err(true) => Step::Unfinished,
        Err(false) => Step::NotReply,
        Ok(h) if csi_reply(h.params, h.inter, h.fin) => Step::Reply(h.len),
        Ok(_) => Step::NotReply,
    }
}

/// The CSI replies, by private marker (`?`, `>`, `=` before the numbers), intermediates and final byte:
/// - `c` with `?`, `>` or `=`: primary, secondary, tertiary device attributes (DA1, DA2, DA3);
/// - `R`: cursor position (CPR, two numbers; with `?` DECXCPR);
/// - `n`: device status (`0n`, `?997;1n` colour scheme, …);
/// - `$y`: a mode's state (DECRPM, plain or `?`);
/// - `t`: window reports (size in cells or pixels, position, state);
/// - `x`: terminal parameters (DECREPTPARM);
/// - `u` with `?`: kitty's keyboard flags; `S` with `?`: XTSMGRAPHICS; `m` with `>`: XTQMODKEYS;
/// - `I` / `O` alone: focus in and out (sent when focus reporting is on, never typed).
fn csi_reply(params: &[u8], inter: &[u8], fin: u8) -> bool {
    let (private, numbers) = match params.first() {
        Some(p @ (b'<' | b'=' | b'>' | b'?')) => (Some(*p), &params[1..]),
        _ => (None, params),
    };
    if !numbers
        .iter()
        .all(|b| b.is_ascii_digit() || *b == b';' || *b == b':')
    {
        return false;
    }
    let count = numbers.split(|b| *b == b';').count();
    match (private, inter, fin) {
        (Some(b'?' | b'>' | b'='), [], b'c') => true,
        (None, [], b'R') => count == 2 && !numbers.contains(&b':'),
        (Some(b'?'), [], b'R') => (2..=3).contains(&count),
        (None | Some(b'?'), [], b'n') => !numbers.is_empty(),
        (None | Some(b'?'), [b'$'], b'y') => count == 2,
        (None, [], b't') => !numbers.is_empty(),
        (None, [], b'x') => !numbers.is_empty(),
        (Some(b'?'), [], b'u') => count == 1,
        (Some(b'?'), [], b'S') => !numbers.is_empty(),
        (Some(b'>'), [], b'm') => !numbers.is_empty(),
        (None, [], b'I' | b'O') => numbers.is_empty(),
        _ => false,
    }
}

/// The DCS replies, by header: `>|` XTVERSION, `!|` DA3 (DECRPTUI), `$r` DECRQSS, `+r` XTGETTCAP,
/// `!~` DECRQCRA's checksum, `$u` / `$s` presentation and terminal state reports.
fn dcs_reply(params: &[u8], inter: &[u8], fin: u8) -> bool {
    match (inter, fin) {
        ([], b'|') => params == b">",
        ([b'!'], b'|') => params.is_empty(),
        ([b'$' | b'+'], b'r') => params.iter().all(u8::is_ascii_digit),
        ([b'!'], b'~') => params.iter().all(u8::is_ascii_digit),
        ([b'$'], b'u' | b's') => params.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// An OSC, DCS or APC string: whether it is complete (ended by ST, or BEL for OSC) and a reply. A C0
/// control inside (other than the ending) is not part of any reply.
fn string(bytes: &[u8], start: usize, kind: Kind) -> Step {
    let eight_bit = bytes[0] != ESC;
    let mut i = start;
    let end = loop {
        match bytes.get(i) {
            None => return Step::Unfinished,
            Some(&BEL) if kind == Kind::Osc => break i + 1,
            Some(&ESC) => match bytes.get(i + 1) {
                None => return Step::Unfinished,
                Some(b'\\') => break i + 2,
                Some(_) => return Step::NotReply,
            },
            Some(&C1_ST) if eight_bit => break i + 1,
            Some(&b) if b < 0x20 || b == 0x7f => return Step::NotReply,
            Some(_) => i += 1,
        }
    };
    let text = &bytes[start..i];
    let reply = match kind {
        Kind::Osc => osc_reply(text),
        Kind::Apc => text.first() == Some(&b'G'),
        _ => match header(text, 0) {
            Ok(h) => dcs_reply(h.params, h.inter, h.fin),
            Err(_) => false,
        },
    };
    if reply {
        Step::Reply(end)
    } else {
        Step::NotReply
    }
}

/// An OSC reply: `<number>;…` (colours `10;rgb:…`, `4;1;rgb:…`, the clipboard `52;c;…`) or a window
/// label or title (`L…`, `l…`, the answer to `CSI 20t` / `CSI 21t`).
fn osc_reply(text: &[u8]) -> bool {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    (digits > 0 && text.get(digits) == Some(&b';')) || matches!(text.first(), Some(b'L' | b'l'))
}

#[cfg(test)]
mod tests;
