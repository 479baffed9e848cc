//! English shared by every game's words: one place to count things, so no line says
//! "1 moves".

/// `n` and `noun`, with an `s` unless `n` is 1: `1 pen`, `3 pens`, `0 walls`.
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_every_other_count_is_plural() {
        assert_eq!(count(1u32, "move"), "1 move");
        assert_eq!(count(0u32, "pen"), "0 pens");
        assert_eq!(count(2u64, "wall"), "2 walls");
    }
}
