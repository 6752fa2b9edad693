use super::{classify, Verdict};
use proptest::prelude::*;

/// Replies real terminals send (tmux 3.3a, xterm, kitty, foot, WezTerm, iTerm2 forms), among them every
/// one ble.sh b99cadb's start-up asks for (DA2, CPR, DECRQM) and fish 4's (DA1, XTVERSION, kitty keys,
/// XTGETTCAP, colours).
const REPLIES: &[&[u8]] = &[
    b"\x1b[?62;22c",
    b"\x1b[?1;2c",
    b"\x1b[?64;1;2;6;9;15;18;21;22c",
    b"\x1b[>84;0;0c",
    b"\x1b[>0;276;0c",
    b"\x1b[>41;390;0c",
    b"\x1b[=01020304c",
    b"\x1b[12;1R",
    b"\x1b[1;1R",
    b"\x1b[?12;40;1R",
    b"\x1b[0n",
    b"\x1b[3n",
    b"\x1b[?997;1n",
    b"\x1b[?2026;2$y",
    b"\x1b[?2004;1$y",
    b"\x1b[4;0$y",
    b"\x1b[8;24;80t",
    b"\x1b[4;768;1024t",
    b"\x1b[6;16;8t",
    b"\x1b[3;10;20t",
    b"\x1b[1t",
    b"\x1b[48;24;80;768;1024t",
    b"\x1b[2;1;1;112;112;1;0x",
    b"\x1b[?0u",
    b"\x1b[?31u",
    b"\x1b[?1;0;256S",
    b"\x1b[>4;2m",
    b"\x1b[I",
    b"\x1b[O",
    b"\x1bP>|tmux 3.3a\x1b\\",
    b"\x1bP>|kitty(0.31.0)\x1b\\",
    b"\x1bP!|00000000\x1b\\",
    b"\x1bP1$r0;1m\x1b\\",
    b"\x1bP0$r\x1b\\",
    b"\x1bP1+r544e=787465726d2d6b69747479\x1b\\",
    b"\x1bP0+r\x1b\\",
    b"\x1bP1!~A5B3\x1b\\",
    b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\",
    b"\x1b]11;rgb:0000/0000/0000\x07",
    b"\x1b]4;1;rgb:cdcd/0000/0000\x1b\\",
    b"\x1b]52;c;aGVsbG8=\x07",
    b"\x1b]lmy title\x1b\\",
    b"\x1b]Licon\x1b\\",
    b"\x1b_Gi=31;OK\x1b\\",
    b"\x9b?62;22c",
    b"\x9d11;rgb:0/0/0\x9c",
    b"\x90>|xterm(390)\x9c",
];

/// What a person (or a terminal typing a pin) puts on the terminal: text, keys, sequences keys send.
const TYPED: &[&[u8]] = &[
    b"e",
    b"echo one\r",
    b"\r",
    b"\n",
    b"\x03",
    b"\x7f",
    b"\t",
    b"\x1b[A",
    b"\x1b[1;5C",
    b"\x1b[3~",
    b"\x1b[200~pasted\x1b[201~",
    b"\x1bOP",
    b"\x1bOA",
    b"\x1b[1;2P",
    b"\x1b[1;2S",
    b"\x1b[15~",
    b"\x1b[97;5u",
    b"\x1b[27;5;13~",
    b"\x1bx",
    b"\x1b\x7f",
    b"\x1b\x1b[A",
    b"\x1b[<0;10;5M",
    b"\x1b[M !!",
    b"\x1b]1\x07",
    b"\x1bPq\x1b\\",
    b"\x1b]hello\x1b\\",
    b"\xc3\xa9t\xc3\xa9",
    b"\xe2\x9b\x84",
];

#[test]
fn nothing_waiting_is_empty() {
    assert_eq!(classify(b""), Verdict::Empty);
}

#[test]
fn every_known_reply_is_a_reply() {
    for r in REPLIES {
        assert_eq!(
            classify(r),
            Verdict::Replies { replies: 1 },
            "{}",
            String::from_utf8_lossy(r).escape_debug()
        );
    }
}

#[test]
fn every_typed_key_is_typed() {
    for t in TYPED {
        assert!(
            classify(t).typed(),
            "{}: {:?}",
            String::from_utf8_lossy(t).escape_debug(),
            classify(t)
        );
    }
}

#[test]
fn ble_sh_start_up_replies_in_a_tmux_pane_are_replies() {
    // The 130 bytes waiting at the first prompt of a tmux 3.3a pane after ble.sh b99cadb attached: DA2,
    // the DECSTBM test's two cursor positions, then one per character width measured (`CSI 1;4R`,
    // `CSI 1;5R`, `CSI 1;3R` are also xterm's F3 with modifiers: taken as the replies they are here).
    let bytes = b"\x1b[>84;0;0c\x1b[2;1R\x1b[3;1R\x1b[1;4R\x1b[1;4R\x1b[1;5R\x1b[1;5R\x1b[1;5R\x1b[1;3R\x1b[1;3R\x1b[1;5R\x1b[1;4R\x1b[1;5R\x1b[1;5R\x1b[1;5R\x1b[1;5R\x1b[1;5R\x1b[1;5R\x1b[1;3R\x1b[1;3R\x1b[1;3R";
    assert_eq!(bytes.len(), 130);
    assert_eq!(classify(bytes), Verdict::Replies { replies: 21 });
}

#[test]
fn a_reply_cut_short_is_unfinished_where_it_starts() {
    // The Esc key, or Alt-]: only what follows (or nothing following) tells; `io::take` waits for it.
    assert_eq!(classify(b"\x1b"), Verdict::Unfinished { replies: 0, at: 0 });
    assert_eq!(
        classify(b"\x1b]"),
        Verdict::Unfinished { replies: 0, at: 0 }
    );
    assert_eq!(
        classify(b"\x1b[>84;0;0c\x1b[2;"),
        Verdict::Unfinished { replies: 1, at: 10 }
    );
    assert_eq!(
        classify(b"\x1b]11;rgb:0/0/0\x1b"),
        Verdict::Unfinished { replies: 0, at: 0 }
    );
}

#[test]
fn typed_input_is_found_where_it_starts() {
    assert_eq!(classify(b"\x1b[>84;0;0cecho"), Verdict::Typed { at: 10 });
    assert_eq!(classify(b"ls\x1b[>84;0;0c"), Verdict::Typed { at: 0 });
}

fn reply() -> impl Strategy<Value = Vec<u8>> {
    prop::sample::select(REPLIES).prop_map(<[u8]>::to_vec)
}

fn typed() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::sample::select(TYPED).prop_map(<[u8]>::to_vec),
        "[ -~]{1,12}".prop_map(String::into_bytes),
        "\\PC{1,6}".prop_map(String::into_bytes),
    ]
}

proptest! {
    #[test]
    fn replies_one_after_another_are_replies(rs in prop::collection::vec(reply(), 1..8)) {
        prop_assert_eq!(classify(&rs.concat()), Verdict::Replies { replies: rs.len() });
    }

    #[test]
    fn anything_typed_among_replies_is_typed_where_it_starts(
        before in prop::collection::vec(reply(), 0..5),
        key in typed(),
        after in prop::collection::vec(reply(), 0..5),
    ) {
        let at = before.concat().len();
        let bytes = [before.concat(), key, after.concat()].concat();
        prop_assert_eq!(classify(&bytes), Verdict::Typed { at });
    }

    #[test]
    fn replies_cut_anywhere_inside_one_are_unfinished(
        rs in prop::collection::vec(reply(), 1..5),
        cut in any::<prop::sample::Index>(),
    ) {
        let bytes = rs.concat();
        let ends: Vec<usize> = rs.iter().scan(0, |n, r| { *n += r.len(); Some(*n) }).collect();
        let cut = cut.index(bytes.len());
        let whole = ends.iter().filter(|e| **e <= cut).count();
        let verdict = classify(&bytes[..cut]);
        if cut == 0 {
            prop_assert_eq!(verdict, Verdict::Empty);
        } else if ends.contains(&cut) {
            prop_assert_eq!(verdict, Verdict::Replies { replies: whole });
        } else {
            let at = if whole == 0 { 0 } else { ends[whole - 1] };
            prop_assert_eq!(verdict, Verdict::Unfinished { replies: whole, at });
        }
    }

    #[test]
    fn any_bytes_are_classified(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        match classify(&bytes) {
            Verdict::Empty => prop_assert!(bytes.is_empty()),
            Verdict::Typed { at } | Verdict::Unfinished { at, .. } => prop_assert!(at < bytes.len()),
            Verdict::Replies { replies } => prop_assert!(replies >= 1),
        }
    }
}
