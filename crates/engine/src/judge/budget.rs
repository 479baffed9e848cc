//! The engine's searches bounded by counts, never by time: one definition for every command
//! that bounds the engine (`check`, `cases`, `audit`).
//!
//! The engine asks a closure whether to go on (`keep_going`) every [`TURNS_A_STEP`] turns
//! of a game and before each candidate puzzle it looks at. Each ask is a *step*; a search's
//! budget is a number of steps, so the same binary, answer, seed and flags give the same
//! report on every machine, at any load. A search shared out over threads is made again on
//! one thread when its budget runs out ([`threaded`]), so that where it stopped does not
//! depend on the threads either. An interrupt (Ctrl-C) still ends a search at once: the
//! run then ends, saying it was interrupted.

use std::sync::atomic::{AtomicU64, Ordering};

/// The turns of a game the engine plays between two asks of its budget (the engine's
/// `BUDGET_TURNS`).
pub const TURNS_A_STEP: u64 = 4096;

/// A search's budget: how many steps (asks of `keep_going`) it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps(pub u64);

impl Steps {
    /// Judging one case (its answer under our reading, and a random case's making): about
    /// 400 million turns, more than any case of a sane size needs (`--engine-steps`).
    pub const CASE: Steps = Steps(100_000);
    /// The diagnosis of one run: every reading tried on its cases, then the answer's own
    /// mistakes located. Its games are those of cases already judged: 100 random cases take
    /// about 350 steps, so only cases of millions of turns come near it.
    pub const DIAGNOSIS: Steps = Steps(250_000);
    /// The diagnosis of an interrupted run, made briefly before the run ends.
    pub const BRIEF_DIAGNOSIS: Steps = Steps(20_000);
    /// The design of one run's confirming cases: each candidate puzzle looked at is a step.
    /// The design's own limits (a few thousand candidates a part of a label) end it first:
    /// two labels of 100 random cases take about 5,800 steps.
    pub const DESIGN: Steps = Steps(100_000);

    /// A closure that says yes `self` times, then no: for a search on one thread.
    pub fn counter(self) -> impl Fn() -> bool {
        let left = std::cell::Cell::new(self.0);
        move || match left.get() {
            0 => false,
            n => {
                left.set(n - 1);
                true
            }
        }
    }
}

/// The budgets of `beast check`, in words, for `-v`: the case's (`case`, `--engine-steps`),
/// the diagnosis's, the design's and shrinking's (`shrink_tries`, `--shrink-tries`).
pub fn check_note(case: Steps, shrink_tries: usize) -> String {
    format!(
        "note: budgets, counted (the same on every machine): judging a case {case} (--engine-steps; \
         a step is {TURNS_A_STEP} turns of a game or one puzzle looked at), the diagnosis {}, \
         the design of confirming cases {}, shrinking {shrink_tries} smaller puzzles a group \
         (--shrink-tries)",
        Steps::DIAGNOSIS,
        Steps::DESIGN
    )
}

impl std::fmt::Display for Steps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} steps", self.0)
    }
}

/// A budget being spent, by any number of threads: counts the asks.
struct Spending {
    /// The asks allowed.
    limit: u64,
    /// The asks so far (past `limit` once it ran out).
    asked: AtomicU64,
}

impl Spending {
    /// True while the budget lasts; counts the ask.
    fn ask(&self) -> bool {
        self.asked.fetch_add(1, Ordering::Relaxed) < self.limit
    }

    /// True if some ask was refused.
    fn ran_out(&self) -> bool {
        self.asked.load(Ordering::Relaxed) > self.limit
    }
}

/// Runs `search` (given the threads and its `keep_going`) on `threads` threads within
/// `steps`, unless `stop` (an interrupt) says otherwise. If the budget ran out, the search
/// is made again on one thread with the same budget: where a shared budget runs out
/// depends on how the threads ran, where it runs out on one thread does not. A search
/// that did not run out gives what it gives on any number of threads.
pub fn threaded<T>(
    steps: Steps,
    threads: usize,
    stop: &(dyn Fn() -> bool + Sync),
    search: impl Fn(usize, &(dyn Fn() -> bool + Sync)) -> T,
) -> T {
    let attempt = |threads: usize| {
        let spending = Spending {
            limit: steps.0,
            asked: AtomicU64::new(0),
        };
        let found = search(threads, &|| spending.ask() && !stop());
        (found, spending.ran_out())
    };
    match attempt(threads) {
        (_, true) if threads > 1 => attempt(1).0,
        (found, _) => found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_counter_says_yes_its_steps_and_then_no() {
        let c = Steps(3).counter();
        assert_eq!([c(), c(), c(), c(), c()], [true, true, true, false, false]);
        assert!(!Steps(0).counter()());
    }

    /// A search of 100 items on `threads` threads that asks once an item and finds the
    /// items it got to.
    fn search_items(threads: usize, keep_going: &(dyn Fn() -> bool + Sync)) -> Vec<usize> {
        let mut found: Vec<usize> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        (t..100)
                            .step_by(threads)
                            .take_while(|_| keep_going())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        });
        found.sort();
        found
    }

    #[test]
    fn a_threaded_search_that_runs_out_finds_what_one_thread_finds() {
        let one = threaded(Steps(40), 1, &|| false, search_items);
        assert_eq!(one, (0..40).collect::<Vec<_>>());
        for threads in [2, 3, 7] {
            assert_eq!(threaded(Steps(40), threads, &|| false, search_items), one);
        }
    }

    #[test]
    fn a_threaded_search_within_its_budget_runs_once_on_its_threads() {
        let runs = AtomicUsize::new(0);
        let found = threaded(Steps(100), 4, &|| false, |t, k| {
            runs.fetch_add(1, Ordering::Relaxed);
            search_items(t, k)
        });
        assert_eq!(found, (0..100).collect::<Vec<_>>());
        assert_eq!(runs.into_inner(), 1);
    }

    #[test]
    fn an_interrupt_stops_a_search_whatever_its_budget() {
        assert!(threaded(Steps(u64::MAX), 2, &|| true, search_items).is_empty());
    }
}
