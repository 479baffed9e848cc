//! English shared by every game's words: one place to count things, so no line says
//! "1 moves", one to say a size in MiB, and one to quote a stranger's token (bounded, every
//! control character escaped).

/// `n` and `noun`, with an `s` unless `n` is 1: `1 pen`, `3 pens`, `0 walls`.
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Bytes in MiB with one decimal, as reports say them: `12.5 MiB`.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
}

/// A size as limits are stated: whole bytes, KiB, MiB or GiB, the largest unit that
/// gives at least 1 (one decimal unless whole): `900 bytes`, `64 KiB`, `400 MiB`, `1.5 GiB`.
pub fn size(bytes: u64) -> String {
    const UNITS: [(u32, &str); 3] = [(30, "GiB"), (20, "MiB"), (10, "KiB")];
    for (shift, unit) in UNITS {
        let one = 1u64 << shift;
        if bytes >= one {
            return match bytes % one {
                0 => format!("{} {unit}", bytes >> shift),
                _ => format!("{:.1} {unit}", bytes as f64 / one as f64),
            };
        }
    }
    count(bytes, "byte")
}

/// The most characters of a token [`quoted`] shows.
pub const QUOTED_CHARS: usize = 32;

/// `token` as an error quotes it: in double quotes with every control character escaped
/// (Rust's `{:?}`), and cut after [`QUOTED_CHARS`] characters with how long it was, so
/// that a stranger's file can neither drive the terminal nor fill the screen through an
/// error: `"--fast"`, `"aaaa…" (400 MiB)`.
pub fn quoted(token: &str) -> String {
    match token.char_indices().nth(QUOTED_CHARS) {
        None => format!("{token:?}"),
        Some((end, _)) => format!(
            "{:?} ({} in all)",
            format!("{}…", &token[..end]),
            size(token.len() as u64)
        ),
    }
}

/// `token` unquoted (a run of digits, say), cut as [`quoted`] cuts it: `123…456` never
/// runs past [`QUOTED_CHARS`] characters and the size in all.
pub fn shortened(token: &str) -> String {
    cut(token, QUOTED_CHARS)
}

/// `text` itself when it has at most `chars` characters, else its first `chars` and the
/// size in all: a library's message that may quote a stranger's token (`serde_json`'s
/// `invalid type: string "..."`), bounded.
pub fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        None => text.to_string(),
        Some((end, _)) => format!("{}… ({} in all)", &text[..end], size(text.len() as u64)),
    }
}

#[cfg(test)]
mod tests {
    use super::{QUOTED_CHARS, count, mib, quoted, size};

    #[test]
    fn a_quoted_token_is_escaped_and_bounded() {
        assert_eq!(quoted("--fast"), "\"--fast\"");
        assert_eq!(quoted("a\u{1b}[2Jb\n"), "\"a\\u{1b}[2Jb\\n\"");
        let long = "\0".repeat(3 << 20);
        let q = quoted(&long);
        assert!(q.len() < 8 * QUOTED_CHARS, "{q}");
        assert!(q.ends_with("(3 MiB in all)"), "{q}");
        assert!(!q.contains('\0'), "{q}");
    }

    #[test]
    fn sizes_are_stated_in_the_largest_whole_unit() {
        assert_eq!(size(900), "900 bytes");
        assert_eq!(size(1), "1 byte");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(400 << 20), "400 MiB");
        assert_eq!(size(3 << 29), "1.5 GiB");
    }

    #[test]
    fn bytes_are_told_in_mib_with_one_decimal() {
        assert_eq!(mib(0), "0.0 MiB");
        assert_eq!(mib(3 << 19), "1.5 MiB");
    }

    #[test]
    fn one_is_singular_and_every_other_count_is_plural() {
        assert_eq!(count(1u32, "move"), "1 move");
        assert_eq!(count(0u32, "pen"), "0 pens");
        assert_eq!(count(2u64, "wall"), "2 walls");
    }
}
