//! Scheduling, and nothing else: the one pool of worker threads ([`workers`], and
//! [`map`] on it) that runs every answer's jobs ([`run_all`]: each job a case of
//! [`super::case`], the reports handed back in case order as they become available), the
//! groups' shrinking and the experiments' runs.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use beast_engine::judge::cases::Case;
use beast_engine::judge::report::CaseReport;

use super::case::{JobEnd, Judge};
use super::load::CaseList;
use super::runner::Execute;

/// What the pool tells its caller as the run goes, on the caller's thread.
pub enum Tick<'a> {
    /// A case finished, in the case list's order: the answer, its place in the list, its
    /// report.
    Case(usize, usize, &'a CaseReport),
    /// A job left the pool; this many cases have failed so far.
    JobDone(usize),
    /// A line for the user (a skipped case).
    Note(&'a str),
}

/// What became of a job.
enum Slot {
    Pending,
    Ran(Box<(Case, CaseReport)>),
    Skipped,
}

/// What one answer did over the case list.
pub struct Finished {
    /// The cases that ran, in order.
    pub ran: Vec<(Case, CaseReport)>,
    /// Why the answer could not run, if it could not: its remaining cases were not run.
    pub failure: Option<anyhow::Error>,
}

/// Runs every case of `all` with every judge (one per answer) as one pool of jobs on
/// `jobs` threads, answer by answer, so no answer waits for another to finish. Tells
/// `tick` of each finished case in order ([`Tick::Case`]), of each job as it leaves the
/// pool ([`Tick::JobDone`]) and of each note ([`Tick::Note`]), all on this thread. An answer
/// that cannot start stops only its own cases; with `fail_fast` its first failure does.
pub fn run_all<E: Execute>(
    judges: &[Judge<E>],
    all: &CaseList,
    jobs: usize,
    fail_fast: bool,
    mut tick: impl FnMut(Tick<'_>),
) -> Vec<Finished> {
    let cases = all.len().max(1);
    let total = all.len() * judges.len();
    let queue = Queue {
        judges,
        all,
        fail_fast,
        stopped: judges.iter().map(|_| AtomicBool::new(false)).collect(),
        stopped_count: AtomicUsize::new(0),
    };
    let mut slots: Vec<Slot> = (0..total).map(|_| Slot::Pending).collect();
    let mut printed = 0;
    let mut failures: Vec<Option<anyhow::Error>> = judges.iter().map(|_| None).collect();
    let mut failed = 0;
    workers(
        total,
        jobs,
        || queue.keep_going(),
        |i| queue.job(i),
        |i, (result, cut)| {
            let a = i / cases;
            slots[i] = match result {
                _ if cut => Slot::Skipped,
                Ok(JobEnd::Ran(done)) => {
                    failed += usize::from(done.1.failed());
                    Slot::Ran(done)
                }
                Ok(JobEnd::Undecided(note)) => {
                    tick(Tick::Note(&note));
                    Slot::Skipped
                }
                Ok(JobEnd::NotRun) => Slot::Skipped,
                Err(e) => {
                    failures[a].get_or_insert_with(|| {
                        e.context(format!("cannot start `{}`", judges[a].runner.display()))
                    });
                    Slot::Skipped
                }
            };
            tick(Tick::JobDone(failed));
            while printed < slots.len() && !matches!(slots[printed], Slot::Pending) {
                let a = printed / cases;
                if let (Slot::Ran(done), None) = (&slots[printed], &failures[a]) {
                    tick(Tick::Case(a, printed % cases, &done.1));
                }
                printed += 1;
            }
        },
    );
    // With --fail-fast some cases never ran; report the rest that did, in order.
    for (i, slot) in slots.iter().enumerate().skip(printed) {
        if let (Slot::Ran(done), None) = (slot, &failures[i / cases]) {
            tick(Tick::Case(i / cases, i % cases, &done.1));
        }
    }
    gather(slots, failures, cases)
}

/// What one job ended with, or the reason the answer could not start.
type JobResult = anyhow::Result<JobEnd>;

/// The jobs of a run, every answer's cases in a row, taken by the workers in turn.
struct Queue<'a, E: Execute> {
    judges: &'a [Judge<E>],
    all: &'a CaseList,
    fail_fast: bool,
    /// Answers whose remaining cases are skipped (cannot start, or failed under
    /// `--fail-fast`).
    stopped: Vec<AtomicBool>,
    stopped_count: AtomicUsize,
}

impl<E: Execute> Queue<'_, E> {
    /// True while a worker may take another job: some answer has not stopped and the check
    /// has not been interrupted.
    fn keep_going(&self) -> bool {
        self.stopped_count.load(Ordering::Relaxed) < self.judges.len() && !self.interrupted()
    }

    /// True once a signal has interrupted the check.
    fn interrupted(&self) -> bool {
        self.judges
            .first()
            .is_some_and(|j| j.runner.interrupted().is_some())
    }

    /// Runs job `i` (answer `i / cases`, case `i % cases`): its result, and whether the check
    /// had been interrupted when it ended; `None` when there is no such job.
    fn job(&self, i: usize) -> Option<(JobResult, bool)> {
        let cases = self.all.len().max(1);
        let a = i / cases;
        let (Some(judge), Some(job)) = (self.judges.get(a), self.all.get(i % cases)) else {
            return None;
        };
        let result = if self.stopped[a].load(Ordering::Relaxed) {
            Ok(JobEnd::NotRun)
        } else {
            judge.job(&job)
        };
        let failed = matches!(&result, Ok(JobEnd::Ran(done)) if done.1.failed());
        if (result.is_err() || (self.fail_fast && failed))
            && !self.stopped[a].swap(true, Ordering::Relaxed)
        {
            self.stopped_count.fetch_add(1, Ordering::Relaxed);
        }
        // A case that ends after an interrupt was cut short by it: it proves nothing.
        // (Asked here, as it ends: by the time its result is read, later cases may
        // have seen the interrupt.)
        Some((result, self.interrupted()))
    }
}

/// The pool's workers, for any kind of job: runs `job(i)` for the numbers `i` below
/// `count` on at most `threads` threads, each thread taking the next number in turn while
/// `keep_going()` holds, and stopping at the first job that gives `None`. Hands each result to
/// `done`, with its number, on this thread as it comes.
pub fn workers<R: Send>(
    count: usize,
    threads: usize,
    keep_going: impl Fn() -> bool + Sync,
    job: impl Fn(usize) -> Option<R> + Sync,
    mut done: impl FnMut(usize, R),
) {
    let next = AtomicUsize::new(0);
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..threads.min(count).max(1) {
            let tx = tx.clone();
            let (next, keep_going, job) = (&next, &keep_going, &job);
            scope.spawn(move || {
                while keep_going() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(result) = (i < count).then(|| job(i)).flatten() else {
                        break;
                    };
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, result) in rx {
            done(i, result);
        }
    });
}

/// `work` done on each of `items` by the pool's [`workers`] on at most `threads` threads:
/// the results in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], threads: usize, work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    workers(
        items.len(),
        threads,
        || true,
        |i| Some(work(&items[i])),
        |i, result| results[i] = Some(result),
    );
    results.into_iter().flatten().collect()
}

/// Each answer's finished cases, in order, with the reason it could not start if any.
fn gather(slots: Vec<Slot>, failures: Vec<Option<anyhow::Error>>, cases: usize) -> Vec<Finished> {
    let mut finished: Vec<Finished> = failures
        .into_iter()
        .map(|failure| Finished {
            ran: Vec::new(),
            failure,
        })
        .collect();
    for (i, slot) in slots.into_iter().enumerate() {
        if let Slot::Ran(done) = slot {
            finished[i / cases].ran.push(*done);
        }
    }
    finished
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use beast_engine::judge::cases;
    use beast_engine::judge::cases::Origin;
    use beast_engine::judge::diagnose;
    use beast_engine::judge::termination::Termination;
    use beast_engine::judge::verdict::Verdict;

    use super::super::case::tests::{judge, printed};
    use super::super::runner::{Exit, ProcessEnd};
    use super::*;
    use crate::cli::sandbox::step::{SetUpFailure, Told};

    /// The built-in cases, and each one's expected output by its input.
    fn samples() -> (Vec<Case>, HashMap<Vec<u8>, String>) {
        let cases = cases::builtin().cases;
        let expected = cases
            .iter()
            .map(|c| (c.input.clone(), c.expected.clone()))
            .collect();
        (cases, expected)
    }

    /// Runs every case with `judges` on `jobs` threads: the reports in the order they
    /// were given, and what each answer did.
    fn run<E: Execute>(
        judges: &[Judge<E>],
        cases: Vec<Case>,
        jobs: usize,
        fail_fast: bool,
    ) -> (Vec<(usize, usize, bool)>, Vec<Finished>) {
        let list = CaseList::of(cases);
        let mut reported = Vec::new();
        let finished = run_all(judges, &list, jobs, fail_fast, |tick| {
            if let Tick::Case(a, i, r) = tick {
                reported.push((a, i, r.passed));
            }
        });
        (reported, finished)
    }

    #[test]
    fn reports_come_in_case_order_whatever_order_the_runs_end_in() {
        let (cases, expected) = samples();
        let n = cases.len();
        assert!(n >= 4, "{n} built-in cases");
        // Later cases end first.
        let judges = [judge(
            |input: &[u8]| {
                let wait = 40u64.saturating_sub(input.len() as u64 % 7 * 6);
                thread::sleep(Duration::from_millis(wait));
                Ok(printed(&expected[input]))
            },
            None,
        )];
        let (reported, finished) = run(&judges, cases.clone(), 4, false);
        let order: Vec<usize> = reported.iter().map(|&(_, i, _)| i).collect();
        assert_eq!(order, (0..n).collect::<Vec<_>>());
        assert!(
            reported.iter().all(|&(_, _, passed)| passed),
            "{reported:?}"
        );
        let names: Vec<&str> = finished[0]
            .ran
            .iter()
            .map(|(c, _)| c.name.as_str())
            .collect();
        let want: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, want);
    }

    #[test]
    fn how_a_run_ended_is_kept_typed_in_the_cases_report() {
        let (cases, _) = samples();
        let ending = |ended: Exit, stderr: &str, peak: Option<u64>| {
            let judges = [judge(
                move |_: &[u8]| {
                    Ok(ProcessEnd {
                        ended,
                        stderr: stderr.as_bytes().to_vec(),
                        peak_memory: peak,
                        ..printed("")
                    })
                },
                None,
            )];
            let (_, finished) = run(&judges, vec![cases[0].clone()], 1, false);
            let report = &finished[0].ran[0].1;
            (report.verdict, report.detail.clone())
        };
        assert_eq!(
            ending(Exit::Exited(3), "oops\n", None),
            (
                Verdict::RuntimeError,
                Some(Termination::Exited {
                    code: 3,
                    stderr: "oops".to_string()
                })
            )
        );
        let (v, t) = ending(Exit::Signaled(11), "", None);
        assert_eq!(v, Verdict::RuntimeError);
        assert_eq!(
            t.expect("an ending").to_string(),
            "killed by signal 11 (SIGSEGV)"
        );
        assert_eq!(
            ending(Exit::TimedOut, "", None),
            (
                Verdict::TimeLimit,
                Some(Termination::TimeLimit { seconds: 5.0 })
            )
        );
        assert_eq!(
            ending(Exit::MemoryLimit, "", Some(2 << 30)),
            (
                Verdict::MemoryLimit,
                Some(Termination::MemoryLimit {
                    limit_mib: 1024,
                    peak: Some(2 << 30),
                    stderr: String::new()
                })
            )
        );
        assert_eq!(
            ending(Exit::OutputLimit, "", None).1,
            Some(Termination::OutputLimit { cap: 1 << 20 })
        );
        // An answer that exits 0 is judged by its output, and its report has no ending.
        assert_eq!(ending(Exit::Exited(0), "", None).1, None);
    }

    #[test]
    fn a_case_the_judge_could_not_set_up_is_tried_once_more_then_is_an_ie() {
        let (cases, expected) = samples();
        let failed = || ProcessEnd {
            ended: Exit::SetupFailed,
            setup_failure: Some(SetUpFailure::Told(Told::read(
                "bind a path: ENOENT: No such file or directory",
            ))),
            // What an answer's own exit could look like: it must not decide.
            stderr: b"beast sandbox: cannot bind a path".to_vec(),
            ..printed("")
        };
        let always = [judge(move |_: &[u8]| Ok(failed()), None)];
        let (_, finished) = run(&always, vec![cases[0].clone()], 1, false);
        let report = &finished[0].ran[0].1;
        assert_eq!(report.verdict, Verdict::InternalError);
        assert!(!report.passed);
        assert_eq!(
            report.detail.as_ref().map(ToString::to_string).as_deref(),
            Some(
                "internal error while setting up the jail: bind a path: ENOENT: No such file \
                 or directory"
            )
        );
        assert_eq!(
            always[0].runner.runs.load(Ordering::SeqCst),
            2,
            "tried twice"
        );
        let tries = AtomicUsize::new(0);
        let once = [judge(
            |input: &[u8]| match tries.fetch_add(1, Ordering::SeqCst) {
                0 => Ok(failed()),
                _ => Ok(printed(&expected[input])),
            },
            None,
        )];
        let (_, finished) = run(&once, vec![cases[0].clone()], 1, false);
        assert_eq!(
            finished[0].ran[0].1.verdict,
            Verdict::Accepted,
            "a passing hiccup"
        );
    }

    #[test]
    fn fail_fast_stops_an_answer_at_its_first_failure() {
        let (cases, expected) = samples();
        let second = cases[1].input.clone();
        let wrong_on_the_second = |input: &[u8]| {
            let out = if input == second.as_slice() {
                "wrong\n"
            } else {
                &expected[input]
            };
            Ok(printed(out))
        };
        let judges = [judge(wrong_on_the_second, None)];
        let (reported, finished) = run(&judges, cases.clone(), 1, true);
        assert_eq!(reported, vec![(0, 0, true), (0, 1, false)]);
        assert_eq!(finished[0].ran.len(), 2);
        assert_eq!(judges[0].runner.runs.load(Ordering::SeqCst), 2);
        // Without it every case runs.
        let judges = [judge(wrong_on_the_second, None)];
        let (reported, _) = run(&judges, cases.clone(), 1, false);
        assert_eq!(reported.len(), cases.len());
    }

    #[test]
    fn an_answer_that_cannot_start_stops_only_its_own_cases() {
        type Answer = Box<dyn Fn(&[u8]) -> std::io::Result<ProcessEnd> + Send + Sync>;
        let (cases, expected) = samples();
        let honest: Answer = Box::new(move |input: &[u8]| {
            Ok(printed(expected.get(input).map_or("", String::as_str)))
        });
        let missing: Answer = Box::new(|_: &[u8]| {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no program ./missing",
            ))
        });
        let judges = [judge(honest, None), judge(missing, None)];
        let (reported, finished) = run(&judges, cases.clone(), 2, false);
        assert_eq!(finished[0].ran.len(), cases.len());
        assert!(finished[0].failure.is_none());
        assert!(finished[1].ran.is_empty());
        let why = format!("{:#}", finished[1].failure.as_ref().expect("a failure"));
        assert!(why.contains("cannot start `scripted`"), "{why}");
        assert!(why.contains("no program ./missing"), "{why}");
        assert!(reported.iter().all(|&(a, _, _)| a == 0), "{reported:?}");
    }

    #[test]
    fn a_case_that_ends_after_an_interrupt_proves_nothing_and_no_case_starts_after_it() {
        let (cases, expected) = samples();
        let judges = [judge(|input: &[u8]| Ok(printed(&expected[input])), Some(2))];
        let (reported, finished) = run(&judges, cases, 1, false);
        // Cases 0 and 1 ran before it; case 2 was running when it came.
        assert_eq!(reported, vec![(0, 0, true), (0, 1, true)]);
        assert_eq!(finished[0].ran.len(), 2);
        assert_eq!(judges[0].runner.runs.load(Ordering::SeqCst), 3);
    }

    /// Issue 30: a passing case's text is dropped, but the layout taken from it stays, so
    /// the diagnosis counts the passing cases with CRLF line ends truly.
    #[test]
    fn input_traits_are_counted_on_passing_cases_whose_text_was_dropped() {
        let (builtin, _) = samples();
        let mut loaded = cases::Loaded::default();
        for c in &builtin {
            let crlf = String::from_utf8_lossy(&c.input).replace('\n', "\r\n");
            for (name, input) in [
                (c.name.clone(), c.input.clone()),
                (format!("{}-crlf", c.name), crlf.into_bytes()),
            ] {
                loaded
                    .add(
                        &name,
                        &input,
                        Some(c.expected.as_bytes()),
                        None,
                        Origin::File,
                    )
                    .expect("a valid case");
            }
        }
        let expected: HashMap<Vec<u8>, String> = loaded
            .cases
            .iter()
            .map(|c| (c.input.clone(), c.expected.clone()))
            .collect();
        // Crashes on every other CRLF input: the other half of them pass.
        let crlf_inputs: Vec<&Vec<u8>> = loaded
            .cases
            .iter()
            .map(|c| &c.input)
            .filter(|i| i.contains(&b'\r'))
            .collect();
        let failing: Vec<Vec<u8>> = crlf_inputs
            .iter()
            .step_by(2)
            .map(|i| (*i).clone())
            .collect();
        let judges = [judge(
            |input: &[u8]| match failing.iter().any(|f| f == input) {
                true => Ok(ProcessEnd {
                    ended: Exit::Exited(1),
                    ..printed("")
                }),
                false => Ok(printed(&expected[input])),
            },
            None,
        )];
        let (_, finished) = run(&judges, loaded.cases.clone(), 2, false);
        let ran = &finished[0].ran;
        let passing_crlf = ran
            .iter()
            .filter(|(c, r)| r.passed && c.layout.crlf)
            .inspect(|(c, _)| assert!(c.input.is_empty(), "{}: the text is dropped", c.name))
            .count();
        assert_eq!(passing_crlf, crlf_inputs.len() - failing.len());
        assert!(passing_crlf > 0);
        let observed: Vec<diagnose::Observed> = ran
            .iter()
            .map(|(c, r)| diagnose::Observed {
                name: &c.name,
                puzzle: &c.puzzle,
                layout: c.layout,
                expected: &r.expected,
                got: r.got.as_bytes(),
                verdict: r.verdict,
                passed: r.passed,
            })
            .collect();
        let d = diagnose::diagnose(&observed, 2, || true);
        let suspect = d.groups[0].cause.suspect().expect("a clue");
        assert_eq!(suspect.clue.name(), "crlf");
        assert_eq!(
            (suspect.failing, suspect.of_failing),
            (failing.len(), failing.len())
        );
        assert_eq!(
            (suspect.passing, suspect.of_passing),
            (passing_crlf, ran.len() - failing.len())
        );
    }

    #[test]
    fn mapped_work_comes_back_in_the_items_order_whatever_order_it_ends_in() {
        let items: Vec<u64> = (0..8).collect();
        // Later items end first.
        let out = map(&items, 4, |&i| {
            thread::sleep(Duration::from_millis(40 - i * 5));
            i * 10
        });
        assert_eq!(out, (0..8).map(|i| i * 10).collect::<Vec<_>>());
        assert!(map(&[] as &[u64], 4, |&i| i).is_empty());
    }
}
