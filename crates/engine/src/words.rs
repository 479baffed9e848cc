//! English shared by every game's words: one place to count things, so no line says
//! "1 moves", and one to say a size in MiB.

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

#[cfg(test)]
mod tests {
    use super::{count, mib};

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
