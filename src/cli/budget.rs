//! Time budgets for the engine's searches, which ask a closure whether time is left: one
//! definition for every command that bounds the engine (`check`, `cases`).

use std::time::{Duration, Instant};

/// A budget closure for the engine: true until `limit` has passed since it was made.
pub fn in_time(limit: Duration) -> impl FnMut() -> bool {
    let start = Instant::now();
    move || start.elapsed() < limit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_lasts_its_time_and_no_longer() {
        assert!(!in_time(Duration::ZERO)());
        assert!(in_time(Duration::from_secs(3600))());
        // A budget too long for a deadline on the clock is no overflow.
        assert!(in_time(Duration::MAX)());
    }
}
