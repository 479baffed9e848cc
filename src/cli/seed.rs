//! The seed of a run the user gave none: the only place one is ever picked.

/// A seed for a run given none: the clock mixed with the process's own randomness, so two
/// runs in the same instant differ. Every command prints the seed it picked, so the run can
/// be repeated; only the binary ever picks one.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(nanos);
    hasher.finish()
}
