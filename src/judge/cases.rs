//! The cases `beast check` runs: the built-in examples embedded at build time, cases from
//! files, and seeded random puzzles; and `--shard K/N` selection.
//!
//! A case pairs the text fed to the candidate with the expected answer. File cases use
//! `NAME.txt` (or `NAME.in`) and `NAME.out`. A `NAME.args` file next to them holds the `beast`
//! rule flags its `.out` was made with (a rule example such as `--exhaust stop`). Candidates
//! are judged under our readings, so such a case expects the engine's answer under our
//! readings, not the `.out`; when its flags are our readings anyway, the `.out` is used.
//! Inputs the engine refuses are skipped: golf answers need not handle invalid input.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use thiserror::Error;

use crate::beast::{Puzzle, Rules, judge};
use crate::judge::generate::{GenError, GenOptions, generate};
use crate::judge::verdict;

/// One embedded example: a `NAME.txt`/`NAME.out` pair from `examples/beast/`.
#[derive(Clone, Copy, Debug)]
pub struct Embedded {
    /// The file stem.
    pub name: &'static str,
    /// The puzzle file.
    pub input: &'static [u8],
    /// The answer file.
    pub output: &'static [u8],
    /// The `NAME.args` file, if any.
    pub args: Option<&'static [u8]>,
}

include!(concat!(env!("OUT_DIR"), "/embedded_cases.rs"));

/// Where a case came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Embedded from `examples/beast/`.
    Builtin,
    /// Read from a `--cases` directory.
    File,
    /// Generated: `beast gen --seed SEED` with the run's generation options.
    Random {
        /// The seed given to `beast gen`.
        seed: u64,
    },
}

/// One case to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The file stem, or `random-SEED-I`.
    pub name: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The exact bytes fed to the candidate.
    pub input: Vec<u8>,
    /// The expected output under our readings.
    pub expected: String,
    /// Where it came from.
    pub origin: Origin,
}

/// A case that was not loaded, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The case's name.
    pub name: String,
    /// Why it was skipped.
    pub reason: String,
}

/// Why cases cannot be made at all.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CaseError {
    /// A `NAME.args` file holds something other than rule flags.
    #[error("{name}.args: {reason}")]
    BadArgs {
        /// The case's name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The generation options are invalid.
    #[error(transparent)]
    Gen(#[from] GenError),
}

/// Reads rule flags as `beast` takes them: `--order turn`, `--exhaust=stop`,
/// `--variant NAME`, ...
pub fn parse_rule_flags(text: &str) -> Result<Rules, String> {
    crate::beast::variant::parse_flags(text)
}

/// Cases loaded from files, and the ones skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// The cases, in name order.
    pub cases: Vec<Case>,
    /// The pairs that are not cases for candidates.
    pub skipped: Vec<Skipped>,
    /// Cases whose `.out` differs from the engine's answer under our readings: the case
    /// keeps its `.out`, and the reason says what the engine answers.
    pub disputed: Vec<Skipped>,
    /// Cases with no expected-output file: the engine's answer is expected.
    pub engine_judged: Vec<String>,
}

impl Loaded {
    /// Adds the case made from one `NAME` file pair, or records why it was skipped. With no
    /// `output` the engine's answer under our readings is expected.
    pub fn add(
        &mut self,
        name: &str,
        input: &[u8],
        output: Option<&[u8]>,
        args: Option<&[u8]>,
        origin: Origin,
    ) -> Result<(), CaseError> {
        let rules = match args {
            None => Rules::default(),
            Some(a) => parse_rule_flags(&String::from_utf8_lossy(a)).map_err(|reason| {
                CaseError::BadArgs {
                    name: name.to_string(),
                    reason,
                }
            })?,
        };
        let skip = |reason: String| Skipped {
            name: name.to_string(),
            reason,
        };
        let puzzle = match Puzzle::parse_bytes(input) {
            Ok(p) => p,
            Err(e) => {
                self.skipped
                    .push(skip(format!("the engine refuses the input: {e}")));
                return Ok(());
            }
        };
        let expected = if let (Some(output), true) = (output, rules == Rules::default()) {
            if let Ok(o) = judge(&puzzle, rules)
                && !verdict::matches(o.answer().as_bytes(), output)
            {
                self.disputed.push(skip(format!(
                    "{name}.out differs from the engine's answer {:?}; the case keeps {name}.out",
                    o.answer()
                )));
            }
            String::from_utf8_lossy(output).into_owned()
        } else {
            match judge(&puzzle, Rules::default()) {
                Ok(o) => {
                    if output.is_none() {
                        self.engine_judged.push(name.to_string());
                    }
                    o.answer()
                }
                Err(e) => {
                    self.skipped.push(skip(e.to_string()));
                    return Ok(());
                }
            }
        };
        self.cases.push(Case {
            name: name.to_string(),
            puzzle,
            input: input.to_vec(),
            expected,
            origin,
        });
        Ok(())
    }
}

/// The built-in cases: every embedded example pair, in name order.
pub fn builtin() -> Loaded {
    let mut loaded = Loaded::default();
    for e in EMBEDDED {
        if let Err(err) = loaded.add(e.name, e.input, Some(e.output), e.args, Origin::Builtin) {
            loaded.skipped.push(Skipped {
                name: e.name.to_string(),
                reason: err.to_string(),
            });
        }
    }
    loaded
}

/// A random case before it is generated: its name and its `beast gen` seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomSpec {
    /// `random-SEED-I`, I from 1.
    pub name: String,
    /// The `beast gen --seed` of the puzzle.
    pub seed: u64,
}

impl RandomSpec {
    /// Generates the case; the expected answer comes from the engine. A puzzle the engine
    /// cannot decide is skipped.
    pub fn case(&self, opts: &GenOptions) -> Result<Case, Skipped> {
        let skip = |reason: String| Skipped {
            name: self.name.clone(),
            reason,
        };
        let puzzle = generate(self.seed, opts).map_err(|e| skip(e.to_string()))?;
        let outcome = judge(&puzzle, Rules::default()).map_err(|e| skip(e.to_string()))?;
        Ok(Case {
            name: self.name.clone(),
            input: puzzle.to_string().into_bytes(),
            puzzle,
            expected: outcome.answer(),
            origin: Origin::Random { seed: self.seed },
        })
    }
}

/// The `n` random cases of the run seed `seed`, not generated yet. Case I (from 1) is named
/// `random-SEED-I` and its `beast gen` seed is the Ith number of the ChaCha8 stream seeded
/// with `seed`.
pub fn random_specs(seed: u64, n: usize) -> Vec<RandomSpec> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (1..=n)
        .map(|i| RandomSpec {
            name: format!("random-{seed}-{i}"),
            seed: rng.next_u64(),
        })
        .collect()
}

/// `n` random cases, generated now (see [`random_specs`] and [`RandomSpec::case`]).
pub fn random(seed: u64, n: usize, opts: &GenOptions) -> Result<Loaded, CaseError> {
    opts.validate()?;
    let mut loaded = Loaded::default();
    for spec in random_specs(seed, n) {
        match spec.case(opts) {
            Ok(c) => loaded.cases.push(c),
            Err(s) => loaded.skipped.push(s),
        }
    }
    Ok(loaded)
}

/// Shard `K/N` of a case list: every Nth case, starting with the Kth (K from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1 to N.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

impl Shard {
    /// True if the case at `position` (from 0) in the list belongs to this shard.
    pub fn contains(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// The cases of this shard, in order.
    pub fn select<T>(self, items: Vec<T>) -> Vec<T> {
        items
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.contains(*i))
            .map(|(_, t)| t)
            .collect()
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 <= K <= N, such as 2/4, got {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_pair_is_embedded() {
        let names: Vec<&str> = EMBEDDED.iter().map(|e| e.name).collect();
        for sample in [
            "preference-death",
            "preference-win",
            "simple-crush",
            "waiting-for-the-reaper",
            "wikipedia",
        ] {
            assert!(names.contains(&sample), "{sample} missing from {names:?}");
        }
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
    }

    #[test]
    fn builtin_cases_expect_the_out_files() {
        let loaded = builtin();
        let wiki = loaded
            .cases
            .iter()
            .find(|c| c.name == "wikipedia")
            .expect("wikipedia is built in");
        assert_eq!(wiki.expected, "8\n");
        assert_eq!(wiki.origin, Origin::Builtin);
    }

    #[test]
    fn a_pair_with_default_args_expects_its_out() {
        let mut l = Loaded::default();
        let input = b"5 3\n#####\n#O~H#\n#####\nR\n";
        l.add(
            "x",
            input,
            Some(b"2\n"),
            Some(b"--exhaust wait\n"),
            Origin::File,
        )
        .expect("valid args");
        assert_eq!(l.cases[0].expected, "2\n");
    }

    #[test]
    fn a_pair_made_under_another_reading_expects_our_answer() {
        let mut l = Loaded::default();
        let input = b"5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";
        l.add(
            "stop",
            input,
            Some(b"0\n"),
            Some(b"--exhaust=stop"),
            Origin::File,
        )
        .expect("valid args");
        assert_eq!(l.cases[0].expected, "aHHHH!\n0\n");
    }

    #[test]
    fn refused_inputs_are_skipped_and_bad_args_are_errors() {
        let mut l = Loaded::default();
        l.add(
            "bad",
            b"5 3\n#####\n#O~X#\n#####\n",
            Some(b""),
            None,
            Origin::File,
        )
        .expect("skipped, not an error");
        assert!(l.cases.is_empty());
        assert_eq!(l.skipped[0].name, "bad");
        let err = l.add("args", b"", Some(b""), Some(b"--speed 3"), Origin::File);
        assert!(matches!(err, Err(CaseError::BadArgs { .. })));
    }

    #[test]
    fn a_case_without_an_expected_output_is_judged_by_the_engine() {
        let mut l = Loaded::default();
        let input = b"5 5\n#####\n#O  #\n# ~ #\n#  H#\n#####\nWWW\n";
        l.add("bare", input, None, None, Origin::File)
            .expect("valid");
        assert_eq!(l.cases[0].expected, "aHHHH!\n0\n");
        assert_eq!(l.engine_judged, ["bare"]);
    }

    #[test]
    fn random_cases_are_named_and_seeded_reproducibly() {
        let opts = GenOptions::default();
        let a = random(7, 5, &opts).expect("valid");
        let b = random(7, 5, &opts).expect("valid");
        assert_eq!(a, b);
        assert_eq!(a.cases.len(), 5);
        assert_eq!(a.cases[0].name, "random-7-1");
        let Origin::Random { seed } = a.cases[2].origin else {
            panic!("random origin")
        };
        assert_eq!(Ok(a.cases[2].puzzle.clone()), generate(seed, &opts));
    }

    #[test]
    fn shards_partition_the_list() {
        let items: Vec<usize> = (0..10).collect();
        let mut all: Vec<usize> = (1..=3)
            .flat_map(|k| Shard { index: k, count: 3 }.select(items.clone()))
            .collect();
        all.sort_unstable();
        assert_eq!(all, items);
        assert_eq!(
            "2/3".parse::<Shard>().map(|s| s.select(items.clone())),
            Ok(vec![1, 4, 7])
        );
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
