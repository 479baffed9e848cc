//! The binary's side of the diagnosis's experiments: the answer run again on the pool's
//! threads, through [`Judge::attempt`] like every run of it, for the engine's pipeline
//! (`judge::pipeline`), which decides what to run and what the runs mean.

use beast_engine::beast::Puzzle;
use beast_engine::judge::cases::Case;
use beast_engine::judge::design::Ran;
use beast_engine::judge::pipeline::Rerunner;
use beast_engine::judge::report::CaseReport;
use beast_engine::judge::verdict::Verdict;

use super::case::Judge;
use super::pool;
use super::runner::{Execute, Exit};

/// The answer of one run, ready to run again: its judge, the cases it ran, and the threads.
pub struct Experiments<'a, E: Execute> {
    /// Runs the answer.
    pub judge: &'a Judge<E>,
    /// The cases of the run with their reports, in the order the diagnosis observed them.
    pub ran: &'a [(Case, CaseReport)],
    /// Threads.
    pub jobs: usize,
}

impl<E: Execute> Rerunner for Experiments<'_, E> {
    type Error = std::io::Error;

    /// Each case run again on its own input (a text case's text, else the puzzle) and
    /// judged against its expected output; `None` once the check is interrupted, or where
    /// the judge could not set the case up (twice).
    fn again(&self, cases: &[usize]) -> std::io::Result<Vec<Option<(Verdict, String)>>> {
        let (judge, ran) = (self.judge, self.ran);
        pool::map(cases, self.jobs, |&i| {
            if judge.runner.interrupted().is_some() {
                return Ok(None);
            }
            let (case, report) = &ran[i];
            let input = match case.input.is_empty() {
                true => case.puzzle.to_string().into_bytes(),
                false => case.input.to_vec(),
            };
            let run = judge.attempt(&input)?;
            let (verdict, _) = judge.verdict(&run, &report.expected);
            Ok(verdict
                .judged()
                .then(|| (verdict, String::from_utf8_lossy(&run.stdout).into_owned())))
        })
        .into_iter()
        .collect()
    }

    /// Each designed puzzle run once: its output where the answer exited normally; no
    /// output where it did not (or once the check is interrupted); an IE where the judge
    /// could not set the case up, twice.
    fn designed(&self, puzzles: &[&Puzzle]) -> std::io::Result<Vec<Ran>> {
        let judge = self.judge;
        pool::map(puzzles, self.jobs, |puzzle| {
            if judge.runner.interrupted().is_some() {
                return Ok(Ran::NoOutput);
            }
            let run = judge.attempt(puzzle.to_string().as_bytes())?;
            Ok(match run.ended {
                Exit::Exited(0) => Ran::Output(run.stdout),
                Exit::SetupFailed => Ran::InternalError,
                _ => Ran::NoOutput,
            })
        })
        .into_iter()
        .collect()
    }

    fn interrupted(&self) -> bool {
        self.judge.runner.interrupted().is_some()
    }
}
