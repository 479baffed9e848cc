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

use crate::beast::{GameError, Puzzle, Rules, play_out_until};
use crate::judge::generate::{GenError, Recipe};
use crate::judge::robustness::{self, TextForms};
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
    /// How its text is laid out (CRLF, moves split), taken from `input` when the case is
    /// made, so it stays true once a passing case's text is dropped.
    pub layout: TextForms,
    /// True for a case of the robustness set: input the challenge does not promise, run
    /// only with `--robustness`, reported apart and never a failure.
    pub robustness: bool,
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
    /// More random cases than [`MAX_RANDOM`].
    #[error(
        "{asked} random cases asked; at most 10,000,000 a run (split a bigger run over \
         several --seed values)"
    )]
    TooManyRandom {
        /// The count asked for, as written.
        asked: String,
    },
    /// A count of random cases that is not a whole number.
    #[error("expected a number of cases such as 1000, got {written:?}")]
    NotACount {
        /// What was written.
        written: String,
    },
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
        self.add_within(name, input, output, args, origin, &mut || true)
    }

    /// [`Loaded::add`] within the caller's budget for judging the case (see
    /// [`play_out_until`]): a case past it is skipped as too large to judge.
    pub fn add_within(
        &mut self,
        name: &str,
        input: &[u8],
        output: Option<&[u8]>,
        args: Option<&[u8]>,
        origin: Origin,
        keep_going: &mut dyn FnMut() -> bool,
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
            if let Ok(o) = play_out_until(&puzzle, rules, &mut *keep_going)
                && !verdict::matches(o.answer().as_bytes(), output)
            {
                self.disputed.push(skip(format!(
                    "{name}.out differs from the engine's answer {:?}; the case keeps {name}.out",
                    o.answer()
                )));
            }
            String::from_utf8_lossy(output).into_owned()
        } else {
            match play_out_until(&puzzle, Rules::OURS, &mut *keep_going) {
                Ok(o) => {
                    if output.is_none() {
                        self.engine_judged.push(name.to_string());
                    }
                    o.answer()
                }
                Err(e) => {
                    self.skipped.push(skip(unjudged(&e)));
                    return Ok(());
                }
            }
        };
        let layout = TextForms::of(&puzzle, input);
        // A built-in example beyond the promise is in the robustness set; a case file is
        // judged as its author gave it.
        let robustness = origin == Origin::Builtin && !layout.promised();
        self.cases.push(Case {
            name: name.to_string(),
            puzzle,
            input: input.to_vec(),
            expected,
            origin,
            layout,
            robustness,
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

/// True if `name` is a built-in example's (what a merge tells the built-in cases by).
pub fn is_builtin(name: &str) -> bool {
    EMBEDDED.iter().any(|e| e.name == name)
}

/// Why a case is skipped when the engine cannot judge it.
fn unjudged(e: &GameError) -> String {
    match e {
        GameError::OutOfBudget { .. } => format!("case too large to judge: {e}"),
        GameError::Undecided { .. } => e.to_string(),
    }
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
    pub fn case(&self, opts: &Recipe) -> Result<Case, Skipped> {
        self.case_within(opts, || true)
    }

    /// [`RandomSpec::case`] within the caller's budget for judging it (see
    /// [`play_out_until`]): a case past it is skipped as too large to judge.
    pub fn case_within(
        &self,
        opts: &Recipe,
        keep_going: impl FnMut() -> bool,
    ) -> Result<Case, Skipped> {
        let skip = |reason: String| Skipped {
            name: self.name.clone(),
            reason,
        };
        let made = opts.make(self.seed).map_err(|e| skip(e.to_string()))?;
        let outcome = play_out_until(&made.puzzle, Rules::OURS, keep_going)
            .map_err(|e| skip(unjudged(&e)))?;
        Ok(Case {
            name: self.name.clone(),
            layout: TextForms::default(),
            input: made.text.into_bytes(),
            puzzle: made.puzzle,
            expected: outcome.answer(),
            origin: Origin::Random { seed: self.seed },
            robustness: false,
        })
    }

    /// The case's robustness twin (`NAME.robust`): the same puzzle in the layout beyond the
    /// challenge's promise its seed draws (CRLF, the moves split over lines), which
    /// `--robustness` runs; `None` when the seed draws the challenge's own form (about three
    /// seeds in five), or under generator 1.
    pub fn twin_within(
        &self,
        opts: &Recipe,
        keep_going: impl FnMut() -> bool,
    ) -> Option<Result<Case, Skipped>> {
        let name = robustness::twin_name(&self.name);
        let skip = |reason: String| Skipped {
            name: name.clone(),
            reason,
        };
        let made = match opts.make(self.seed) {
            Ok(made) => made,
            Err(e) => return Some(Err(skip(e.to_string()))),
        };
        let text = made.robust?;
        Some(
            play_out_until(&made.puzzle, Rules::OURS, keep_going)
                .map_err(|e| skip(unjudged(&e)))
                .map(|outcome| Case {
                    name: name.clone(),
                    layout: TextForms::of(&made.puzzle, text.as_bytes()),
                    input: text.into_bytes(),
                    puzzle: made.puzzle,
                    expected: outcome.answer(),
                    origin: Origin::Random { seed: self.seed },
                    robustness: true,
                }),
        )
    }
}

/// The most random cases one run takes: 10 million, a day of CI at over 100 cases a
/// second. More is refused with [`CaseError::TooManyRandom`] (not a huge allocation).
pub const MAX_RANDOM: usize = 10_000_000;

/// The random cases of run seed `seed`, neither generated nor even named yet: case I, from
/// 1, is named `random-SEED-I` and its `beast gen` seed is the Ith number of the ChaCha8
/// stream seeded with `seed`. Any case can be made on its own ([`RandomSpecs::get`]), and
/// iterating makes them one at a time, so no memory grows with the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomSpecs {
    seed: u64,
    count: usize,
}

impl RandomSpecs {
    /// How many cases.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True if there is no case.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Case `index` (from 0, named `random-SEED-{index + 1}`), or `None` past the end.
    /// Seeks the ChaCha8 stream: each `u64` is two of its 32-bit words.
    pub fn get(&self, index: usize) -> Option<RandomSpec> {
        if index >= self.count {
            return None;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_word_pos(2 * index as u128);
        Some(self.spec(index, rng.next_u64()))
    }

    /// The spec of case `index` with `beast gen` seed `gen_seed`.
    fn spec(&self, index: usize, gen_seed: u64) -> RandomSpec {
        RandomSpec {
            name: format!("random-{}-{}", self.seed, index + 1),
            seed: gen_seed,
        }
    }
}

impl IntoIterator for RandomSpecs {
    type Item = RandomSpec;
    type IntoIter = RandomSpecsIter;
    fn into_iter(self) -> RandomSpecsIter {
        RandomSpecsIter {
            rng: ChaCha8Rng::seed_from_u64(self.seed),
            specs: self,
            next: 0,
        }
    }
}

/// The cases of [`RandomSpecs`] in order, made one at a time.
#[derive(Clone, Debug)]
pub struct RandomSpecsIter {
    specs: RandomSpecs,
    rng: ChaCha8Rng,
    next: usize,
}

impl Iterator for RandomSpecsIter {
    type Item = RandomSpec;

    fn next(&mut self) -> Option<RandomSpec> {
        if self.next >= self.specs.count {
            return None;
        }
        let spec = self.specs.spec(self.next, self.rng.next_u64());
        self.next += 1;
        Some(spec)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.specs.count - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for RandomSpecsIter {}

/// The `n` random cases of the run seed `seed`, not generated yet (see [`RandomSpecs`]).
/// Costs nothing whatever `n`; [`random_count`] is what refuses a count over
/// [`MAX_RANDOM`].
pub fn random_specs(seed: u64, n: usize) -> RandomSpecs {
    RandomSpecs { seed, count: n }
}

/// Reads `--random N`: a whole number up to [`MAX_RANDOM`].
pub fn random_count(s: &str) -> Result<usize, CaseError> {
    let digits = s.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CaseError::NotACount {
            written: s.to_string(),
        });
    }
    match digits.parse::<usize>() {
        Ok(n) if n <= MAX_RANDOM => Ok(n),
        _ => Err(CaseError::TooManyRandom {
            asked: digits.to_string(),
        }),
    }
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

/// A `--shard` value that is not `K/N` with 1 <= K <= N.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("expected K/N with 1 <= K <= N, such as 2/4, got {written:?}")]
pub struct ShardError {
    /// What was written.
    pub written: String,
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError {
            written: s.to_string(),
        };
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
    fn every_catalogue_reading_fails_at_least_one_default_case() {
        // The default run of `beast check` is the built-in cases: every known misreading
        // must answer otherwise on one of them, or the default run cannot tell it.
        use crate::beast::{CATALOGUE, play_out};
        let cases = builtin().cases;
        let undecided: Vec<&str> = CATALOGUE
            .iter()
            .filter(|v| {
                !cases.iter().filter(|c| !c.robustness).any(|c| {
                    play_out(&c.puzzle, v.apply(Rules::OURS)).map(|o| o.answer())
                        != Ok(c.expected.clone())
                })
            })
            .map(|v| v.name)
            .collect();
        assert_eq!(undecided, Vec::<&str>::new(), "pass every default case");
    }

    #[test]
    fn every_rule_event_that_can_happen_fires_in_a_default_case() {
        // A default run that never goes through an event cannot locate a mistake there.
        // Sixteen ties can never happen (a diagonal and an orthogonal step are never at
        // the same distance): the matrix numbers of the diagonals are 1, 4, 6 and 7.
        use crate::beast::events::{self, RuleEvent};
        let diagonal = |k: usize| [1, 4, 6, 7].contains(&k);
        let impossible: Vec<RuleEvent> = (1..=8)
            .flat_map(|a| (a + 1..=8).map(move |b| (a, b)))
            .filter(|&(a, b)| diagonal(a) != diagonal(b))
            .filter_map(|(a, b)| RuleEvent::tie(a, b))
            .collect();
        assert_eq!(impossible.len(), 16);
        let recorded: Vec<events::Events> = builtin()
            .cases
            .iter()
            .filter_map(|c| events::record(&c.puzzle, || true).ok())
            .collect();
        let never: Vec<&str> = RuleEvent::all()
            .filter(|e| !impossible.contains(e))
            .filter(|&e| !recorded.iter().any(|r| r.has(e)))
            .map(|e| e.kind().name)
            .collect();
        assert_eq!(never, Vec::<&str>::new(), "fire in no default case");
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
        let opts = Recipe::default();
        let cases = |seed| -> Vec<Case> {
            random_specs(seed, 5)
                .into_iter()
                .map(|spec| spec.case(&opts).expect("generated"))
                .collect()
        };
        let (a, b) = (cases(7), cases(7));
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
        assert_eq!(a[0].name, "random-7-1");
        let Origin::Random { seed } = a[2].origin else {
            panic!("random origin")
        };
        let made = opts.make(seed).expect("generated");
        assert_eq!(a[2].puzzle, made.puzzle);
        assert_eq!(a[2].input, made.text.into_bytes());
    }

    #[test]
    fn the_builtin_examples_are_in_the_challenges_own_form() {
        for c in builtin().cases {
            assert!(c.layout.promised() && !c.robustness, "{}", c.name);
        }
    }

    #[test]
    fn a_builtin_example_beyond_the_promise_is_a_robustness_case_and_a_file_is_not() {
        let crlf = b"5 3\r\n#####\r\n#O~H#\r\n#####\r\nR\r\n";
        let split = b"5 3\n#####\n#O~H#\n#####\nR\nW\n";
        let mut l = Loaded::default();
        for (name, input) in [("crlf", &crlf[..]), ("split", &split[..])] {
            l.add(name, input, Some(b"2\n"), None, Origin::Builtin)
                .expect("valid");
            l.add(name, input, Some(b"2\n"), None, Origin::File)
                .expect("valid");
        }
        let flags: Vec<(bool, bool, bool)> = l
            .cases
            .iter()
            .map(|c| (c.layout.crlf, c.layout.moves_split, c.robustness))
            .collect();
        assert_eq!(
            flags,
            [
                (true, false, true),
                (true, false, false),
                (false, true, true),
                (false, true, false)
            ]
        );
    }

    #[test]
    fn random_cases_are_promised_and_their_twins_have_each_form() {
        let opts = Recipe::default();
        let (mut crlf, mut split, mut twins) = (0, 0, 0);
        for spec in random_specs(5, 200) {
            let case = spec.case(&opts).expect("generated");
            assert!(case.layout.promised() && !case.robustness, "{}", case.name);
            let Some(twin) = spec.twin_within(&opts, || true) else {
                continue;
            };
            let twin = twin.expect("judged");
            twins += 1;
            assert_eq!(twin.name, format!("{}.robust", spec.name));
            assert!(twin.robustness && !twin.layout.promised());
            assert_eq!(
                (&twin.puzzle, &twin.expected),
                (&case.puzzle, &case.expected)
            );
            crlf += usize::from(twin.layout.crlf);
            split += usize::from(twin.layout.moves_split);
        }
        assert!(
            crlf >= 15 && split >= 15,
            "{crlf} CRLF, {split} split of {twins}"
        );
        assert!(
            twins < 150,
            "{twins} twins of 200: most seeds draw the promised form"
        );
    }

    /// The old eager list: the first `n` numbers of the stream, in order.
    fn eager(seed: u64, n: usize) -> Vec<u64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n).map(|_| rng.next_u64()).collect()
    }

    #[test]
    fn random_specs_are_the_stream_in_order_and_by_index() {
        let specs = random_specs(7, 300);
        let seeds: Vec<u64> = specs.into_iter().map(|s| s.seed).collect();
        assert_eq!(seeds, eager(7, 300));
        for i in [0, 1, 7, 8, 31, 32, 33, 299] {
            let spec = specs.get(i).expect("in range");
            assert_eq!(spec.seed, seeds[i], "case {i}");
            assert_eq!(spec.name, format!("random-7-{}", i + 1));
        }
        assert_eq!(specs.get(300), None);
        assert_eq!(specs.into_iter().len(), 300);
    }

    #[test]
    fn a_huge_random_count_costs_nothing_until_iterated() {
        let specs = random_specs(1, usize::MAX);
        assert_eq!(specs.len(), usize::MAX);
        let last = specs.get(usize::MAX - 1).expect("in range");
        assert_eq!(last.name, format!("random-1-{}", usize::MAX));
        assert_eq!(specs.into_iter().take(3).count(), 3);
    }

    #[test]
    fn random_counts_over_ten_million_are_refused() {
        assert_eq!(random_count("10000000"), Ok(MAX_RANDOM));
        assert_eq!(random_count(" 0 "), Ok(0));
        for big in [
            "10000001",
            "100000000",
            "18446744073709551615",
            "99999999999999999999999999999999999999999999",
        ] {
            let err = random_count(big).expect_err(big).to_string();
            assert!(err.contains("at most 10,000,000"), "{err}");
            assert!(err.starts_with(big), "{err}");
        }
        for not_a_count in ["-1", "ten", ""] {
            assert_eq!(
                random_count(not_a_count),
                Err(CaseError::NotACount {
                    written: not_a_count.to_string()
                })
            );
        }
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
