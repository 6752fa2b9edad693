//! Session id validation. An id is interpolated into shell lines, so it is checked before it reaches one.

/// True when `id` matches `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$` (UUIDs, UUIDv7, `ses_…`, names).
pub fn is_valid_session_id(id: &str) -> bool {
    let b = id.as_bytes();
    !b.is_empty()
        && b.len() <= 128
        && b[0].is_ascii_alphanumeric()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepts_real_ids() {
        assert!(is_valid_session_id("77e8ca85-2b1c-4a8e-9d0b-0c1d2e3f4a5b"));
        assert!(is_valid_session_id("019a0b1c-2d3e-7f40-8a9b-0c1d2e3f4a5b"));
        assert!(is_valid_session_id("ses_abc.DEF_1"));
    }

    #[test]
    fn refuses_dangerous_ids() {
        for bad in [
            "", "../x", "a'b", "-rf", ".hidden", "a b", "a\nb", "a$b", "é",
        ] {
            assert!(!is_valid_session_id(bad), "{bad:?}");
        }
        assert!(!is_valid_session_id(&"a".repeat(129)));
        assert!(is_valid_session_id(&"a".repeat(128)));
        assert!(!is_valid_session_id(&"a".repeat(10_000)));
    }

    proptest! {
        #[test]
        fn valid_ids_are_inert_in_a_shell(id in "[A-Za-z0-9][A-Za-z0-9._-]{0,127}") {
            prop_assert!(is_valid_session_id(&id));
            prop_assert!(!id.starts_with('-'));
        }

        #[test]
        fn anything_with_a_shell_metachar_is_refused(pre in "[a-z]{1,5}", c in "[ '\"`$;&|<>()\\\\/\n*?]", post in "[a-z]{0,5}") {
            let id = format!("{pre}{c}{post}");
            prop_assert!(!is_valid_session_id(&id));
        }
    }
}
