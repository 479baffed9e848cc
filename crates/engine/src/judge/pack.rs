//! Test-case packs for challenge authors (`beast cases`): which cases separate which readings
//! from ours, the greedy set cover that keeps a small discriminating set, each case's answer
//! under the 16 switch combinations, and the texts of a pack: a Markdown "Test cases" block
//! and a Kattis problem package; and the manifest a pack leaves in its directory, so that
//! `--force` replaces the previous pack (its files, and nothing else) instead of piling up.
//!
//! Everything here is pure: the binary writes the files.

use serde::Serialize;

use crate::beast::Rules;
use crate::beast::variant;
use crate::judge::cases::Case;
use crate::judge::generate::GenOptions;
use crate::judge::separate::apart;
pub use crate::judge::separate::{answer, separated, switch_combinations};

/// The five samples of the challenge (see `examples/beast/INDEX.md`): the built-in cases a
/// Kattis package puts in `data/sample`.
pub const SAMPLES: [&str; 5] = [
    "simple-crush",
    "preference-death",
    "preference-win",
    "waiting-for-the-reaper",
    "wikipedia",
];

/// True if `name` is one of the challenge's [`SAMPLES`].
pub fn is_sample(name: &str) -> bool {
    SAMPLES.contains(&name)
}

/// The result of [`greedy_cover`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cover {
    /// The positions of the sets kept, in the order they were chosen.
    pub chosen: Vec<usize>,
    /// The elements of the universe no set holds.
    pub uncovered: Vec<usize>,
}

/// The greedy minimum set cover: repeatedly keeps the set that holds the most elements of
/// `0..universe` not covered yet, the smaller `cost` first among equals, then the earlier;
/// stops when no set adds anything. Elements no set holds are left `uncovered`.
pub fn greedy_cover(sets: &[Vec<usize>], universe: usize, cost: &[usize]) -> Cover {
    let mut covered = vec![false; universe];
    let mut chosen = Vec::new();
    loop {
        let gain = |s: &Vec<usize>| s.iter().filter(|&&e| e < universe && !covered[e]).count();
        let best = sets
            .iter()
            .enumerate()
            .map(|(i, s)| (gain(s), i))
            .filter(|&(g, _)| g > 0)
            .min_by_key(|&(g, i)| (std::cmp::Reverse(g), cost.get(i).copied().unwrap_or(0), i));
        let Some((_, i)) = best else { break };
        for &e in &sets[i] {
            if e < universe {
                covered[e] = true;
            }
        }
        chosen.push(i);
    }
    let uncovered = (0..universe).filter(|&e| !covered[e]).collect();
    Cover { chosen, uncovered }
}

/// One case's answer under one switch combination, as `NAME.readings.json` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadingAnswer {
    /// The `beast` flags that select the combination; empty for ours.
    pub flags: String,
    /// The combination in plain words.
    pub words: String,
    /// The engine's answer, or `null` if it could not be judged.
    pub answer: Option<String>,
    /// True if the answer differs from ours.
    pub differs: bool,
}

/// The contents of `NAME.readings.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseReadings {
    /// The case's name.
    pub name: String,
    /// The expected answer (ours).
    pub expected: String,
    /// The answer under each of the 16 switch combinations, ours first.
    pub readings: Vec<ReadingAnswer>,
}

/// The answers of `case` under every switch combination (see [`switch_combinations`]).
pub fn case_readings(case: &Case, keep_going: &mut dyn FnMut() -> bool) -> CaseReadings {
    let ours = answer(&case.puzzle, Rules::OURS, keep_going);
    let readings = switch_combinations()
        .into_iter()
        .map(|rules| {
            let a = answer(&case.puzzle, rules, keep_going);
            ReadingAnswer {
                flags: variant::flags(rules),
                words: variant::words(rules),
                differs: apart(a.as_ref(), ours.as_ref()),
                answer: a,
            }
        })
        .collect();
    CaseReadings {
        name: case.name.clone(),
        expected: case.expected.clone(),
        readings,
    }
}

/// [`case_readings`] as pretty JSON text with a final newline.
pub fn readings_json(readings: &CaseReadings) -> String {
    // Serializing plain strings, booleans and options cannot fail.
    let mut text = serde_json::to_string_pretty(readings).unwrap_or_default();
    text.push('\n');
    text
}

/// The cases of a Markdown block: those whose input is at most `max_size` bytes, shortest
/// first (then by name), as positions in `cases`.
pub fn markdown_order(cases: &[Case], max_size: Option<usize>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cases.len())
        .filter(|&i| max_size.is_none_or(|m| cases[i].input.len() <= m))
        .collect();
    order.sort_by(|&a, &b| {
        (cases[a].input.len(), &cases[a].name).cmp(&(cases[b].input.len(), &cases[b].name))
    });
    order
}

/// A "Test cases" block ready to paste into a Code Golf post: each puzzle in a code block,
/// then its expected output in another, in the order of `order` (see [`markdown_order`]).
pub fn markdown(cases: &[Case], order: &[usize]) -> String {
    let mut s = String::from("## Test cases\n");
    for &i in order {
        let Some(c) = cases.get(i) else { continue };
        let input = String::from_utf8_lossy(&c.input);
        let fence = fence_for(&input, &c.expected);
        s += &format!("\n`{}`\n\n{fence}\n{}", c.name, ensure_newline(&input));
        s += &format!(
            "{fence}\n\nOutput:\n\n{fence}\n{}{fence}\n",
            ensure_newline(&c.expected)
        );
    }
    s
}

/// A code fence longer than any run of backticks in the texts.
fn fence_for(a: &str, b: &str) -> String {
    let longest = |t: &str| t.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(3.max(longest(a).max(longest(b)) + 1))
}

/// `text` ending in a newline.
fn ensure_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

/// Where a case goes in a Kattis package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KattisGroup {
    /// `data/sample`: the challenge's samples.
    Sample,
    /// `data/secret`: every other case.
    Secret,
}

impl KattisGroup {
    /// The directory under the package: `data/sample` or `data/secret`.
    pub fn dir(self) -> &'static str {
        match self {
            KattisGroup::Sample => "data/sample",
            KattisGroup::Secret => "data/secret",
        }
    }

    /// The group of the case named `name`.
    pub fn of(name: &str) -> KattisGroup {
        if is_sample(name) {
            KattisGroup::Sample
        } else {
            KattisGroup::Secret
        }
    }
}

/// The kind of pack `beast cases` writes into a directory, each with its own manifest and
/// the file names it owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackKind {
    /// `NAME.in`, `NAME.out` and `NAME.readings.json` (`--format files`).
    Files,
    /// A Kattis problem package (`--format kattis`).
    Kattis,
}

impl PackKind {
    /// The manifest's name in the pack's directory: the list of the files the pack wrote.
    /// A Kattis package's is no dot file: `verifyproblem` refuses a name that starts with a
    /// dot.
    pub fn manifest(self) -> &'static str {
        match self {
            PackKind::Files => ".beast-cases-files",
            PackKind::Kattis => "beast-cases-kattis.txt",
        }
    }

    /// The `--format` value of this kind.
    fn format(self) -> &'static str {
        match self {
            PackKind::Files => "files",
            PackKind::Kattis => "kattis",
        }
    }

    /// True if `path` (relative, `/` between its parts) is a name a pack of this kind
    /// writes: a plain pack's `NAME.in`, `NAME.out`, `NAME.readings.json` at the top or in `robustness/`; a
    /// Kattis package's `problem.yaml`, `problem_statement/*.tex`,
    /// `input_validators/*.py`, `submissions/{accepted,wrong_answer}/*.py` and
    /// `data/{sample,secret}/*.{in,ans}`. A part that is empty, starts with a dot or holds
    /// a backslash never is: no manifest can name a file outside the pack.
    pub fn owns(self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        let plain = |part: &str| !part.is_empty() && !part.starts_with('.') && !part.contains('\\');
        if !parts.iter().all(|p| plain(p)) {
            return false;
        }
        let named = |file: &str, exts: &[&str]| {
            exts.iter()
                .any(|e| file.strip_suffix(e).is_some_and(|stem| !stem.is_empty()))
        };
        match (self, parts.as_slice()) {
            (PackKind::Files, [file] | ["robustness", file]) => {
                named(file, &[".in", ".out", ".readings.json"])
            }
            (PackKind::Kattis, ["problem.yaml"]) => true,
            (PackKind::Kattis, ["problem_statement", file]) => named(file, &[".tex"]),
            (PackKind::Kattis, ["input_validators", file]) => named(file, &[".py"]),
            (PackKind::Kattis, ["submissions", "accepted" | "wrong_answer", file]) => {
                named(file, &[".py"])
            }
            (PackKind::Kattis, ["data", "sample" | "secret", file]) => {
                named(file, &[".in", ".ans"])
            }
            _ => false,
        }
    }

    /// The manifest of a pack of `paths`: a comment line, then one path a line.
    pub fn manifest_text(self, paths: &[String]) -> String {
        let mut s = format!(
            "# The files `beast cases --format {}` wrote here; with --force it removes them \
             before it writes a new pack.\n",
            self.format()
        );
        for p in paths {
            s += p;
            s.push('\n');
        }
        s
    }

    /// The files a manifest names that a pack of this kind owns ([`PackKind::owns`]);
    /// comment lines, blank lines and any other name are passed over.
    pub fn manifest_paths(self, text: &str) -> Vec<String> {
        text.lines()
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.starts_with('#') && self.owns(l))
            .map(str::to_string)
            .collect()
    }
}

/// The length in bytes of the text of every puzzle generated with `opts`: the size line,
/// the rows with their newlines, and the moves on one line.
pub fn generated_len(opts: &GenOptions) -> usize {
    format!("{} {}\n", opts.cols, opts.rows).len() + opts.rows * (opts.cols + 1) + opts.moves + 1
}

/// `opts` made small enough that every puzzle generated with it is at most `max` bytes
/// long (see [`generated_len`]): unchanged when they fit; otherwise the map and the moves
/// shrink together, keeping the map's shape, to the largest that fits (the moves alone
/// shrink once the map is 3 wide), with fewer beasts if they no longer fit. `None` when
/// not even a 3x3 map without moves fits.
pub fn fitting(opts: &GenOptions, max: usize) -> Option<GenOptions> {
    if generated_len(opts) <= max {
        return Some(*opts);
    }
    let scaled = |cols: usize| {
        let rows = (opts.rows * cols / opts.cols.max(1)).max(3);
        let moves = opts.moves * cols / opts.cols.max(1);
        let free = (cols - 2) * (rows - 2);
        GenOptions {
            cols,
            rows,
            beasts: opts.beasts.min(free.saturating_sub(1)),
            moves,
            ..*opts
        }
    };
    let mut fit = (3..opts.cols)
        .rev()
        .map(scaled)
        .find(|o| generated_len(o) <= max)
        .unwrap_or_else(|| scaled(3));
    let over = generated_len(&fit).saturating_sub(max);
    if over > fit.moves {
        return None;
    }
    fit.moves -= over;
    Some(fit)
}

#[cfg(test)]
mod manifest_tests {
    use super::PackKind;

    #[test]
    fn a_pack_owns_only_the_names_it_writes() {
        for p in ["random-1-2.in", "wikipedia.out", "a.readings.json"] {
            assert!(PackKind::Files.owns(p), "{p}");
        }
        for p in [
            "notes.txt",
            ".in",
            "sub/a.in",
            "../a.in",
            "/etc/a.in",
            "a\\..\\b.in",
            "problem.yaml",
        ] {
            assert!(!PackKind::Files.owns(p), "{p}");
        }
        for p in [
            "problem.yaml",
            "data/secret/random-1-2.ans",
            "data/sample/wikipedia.in",
            "submissions/wrong_answer/ties-reversed.py",
            "problem_statement/problem.en.tex",
        ] {
            assert!(PackKind::Kattis.owns(p), "{p}");
        }
        for p in [
            "data/secret/../../x.in",
            "data/secret/.hidden.in",
            "data/extra/a.in",
            "README.md",
            "a.in",
        ] {
            assert!(!PackKind::Kattis.owns(p), "{p}");
        }
    }

    #[test]
    fn a_manifest_reads_back_its_paths_and_drops_what_the_pack_does_not_own() {
        let paths = vec!["a.in".to_string(), "a.out".to_string()];
        let text = PackKind::Files.manifest_text(&paths);
        assert!(text.starts_with("# The files `beast cases --format files`"));
        assert_eq!(PackKind::Files.manifest_paths(&text), paths);
        let hostile = "a.in\r\n../../etc/passwd\nnotes.txt\n\n/abs.in\n";
        assert_eq!(PackKind::Files.manifest_paths(hostile), vec!["a.in"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::Puzzle;
    use crate::judge::cases::builtin;
    use crate::judge::separate::readings;

    fn case(name: &str, input: &str) -> Case {
        let puzzle = Puzzle::parse_bytes(input.as_bytes()).expect("a valid puzzle");
        let expected = answer(&puzzle, Rules::OURS, &mut || true).expect("judged");
        Case {
            name: name.to_string(),
            puzzle,
            input: input.as_bytes().to_vec(),
            expected,
            origin: crate::judge::cases::Origin::Builtin,
            layout: Default::default(),
            robustness: false,
        }
    }

    #[test]
    fn the_samples_are_builtin_cases() {
        let b = builtin();
        for s in SAMPLES {
            assert!(b.cases.iter().any(|c| c.name == s), "{s} is not built in");
        }
    }

    #[test]
    fn switch_combinations_are_sixteen_distinct_readings_ours_first() {
        let all = switch_combinations();
        assert_eq!(all.len(), 16);
        assert_eq!(all[0], Rules::OURS);
        for (i, a) in all.iter().enumerate() {
            assert_eq!(
                variant::held_by(*a).count(),
                (i as u32).count_ones() as usize
            );
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn separated_lists_exactly_the_readings_that_answer_differently() {
        let all = readings();
        for c in builtin().cases.iter().take(8) {
            let ours = answer(&c.puzzle, Rules::OURS, &mut || true);
            let sep = separated(&c.puzzle, &all, &mut || true);
            for (i, r) in all.iter().enumerate() {
                let differs = answer(&c.puzzle, *r, &mut || true) != ours;
                assert_eq!(
                    sep.contains(&i),
                    differs,
                    "{} under {}",
                    c.name,
                    variant::flags(*r)
                );
            }
        }
    }

    #[test]
    fn greedy_cover_covers_every_coverable_element_and_prefers_big_then_cheap_sets() {
        let sets = vec![vec![0, 1], vec![2], vec![0, 1, 2], vec![3], vec![3]];
        let cover = greedy_cover(&sets, 5, &[1, 1, 9, 5, 2]);
        assert_eq!(cover.chosen, vec![2, 4]);
        assert_eq!(cover.uncovered, vec![4]);
        let held: Vec<usize> = cover.chosen.iter().flat_map(|&i| sets[i].clone()).collect();
        for e in 0..4 {
            assert!(held.contains(&e));
        }
    }

    #[test]
    fn greedy_cover_of_nothing_chooses_nothing() {
        let cover = greedy_cover(&[vec![], vec![]], 3, &[]);
        assert!(cover.chosen.is_empty());
        assert_eq!(cover.uncovered, vec![0, 1, 2]);
    }

    #[test]
    fn case_readings_give_ours_first_and_mark_differences() {
        for c in builtin().cases {
            let r = case_readings(&c, &mut || true);
            assert_eq!(r.readings.len(), 16);
            assert_eq!(r.readings[0].flags, "");
            assert!(!r.readings[0].differs);
            for (rules, ra) in switch_combinations().into_iter().zip(&r.readings) {
                let a = answer(&c.puzzle, rules, &mut || true);
                assert_eq!(ra.answer, a);
                assert_eq!(
                    ra.differs,
                    a.as_deref() != Some(r.readings[0].answer.as_deref().unwrap_or(""))
                );
            }
            let json: serde_json::Value =
                serde_json::from_str(&readings_json(&r)).expect("valid JSON");
            assert_eq!(json["readings"].as_array().map(Vec::len), Some(16));
        }
    }

    #[test]
    fn markdown_puts_short_cases_first_and_leaves_out_big_ones() {
        let cases = vec![
            case("big", "5 3\n#####\n#O~H#\n#####\nRR\n"),
            case("small", "5 3\n#####\n#O~H#\n#####\nR\n"),
        ];
        let order = markdown_order(&cases, None);
        assert_eq!(order, vec![1, 0]);
        let text = markdown(&cases, &order);
        assert!(text.starts_with("## Test cases\n"));
        let small = text.find("`small`").expect("small listed");
        let big = text.find("`big`").expect("big listed");
        assert!(small < big);
        assert!(text.contains(&format!("```\n{}```", cases[0].expected)));
        let limit = cases[1].input.len();
        assert_eq!(markdown_order(&cases, Some(limit)), vec![1]);
    }

    #[test]
    fn fitting_options_make_puzzles_no_longer_than_asked() {
        let default = GenOptions::default();
        assert_eq!(generated_len(&default), 207);
        assert_eq!(fitting(&default, 207), Some(default));
        for max in [17, 18, 40, 100, 150, 200, 206] {
            let fit = fitting(&default, max).expect("fits");
            assert!(generated_len(&fit) <= max, "{max}: {fit:?}");
            assert!(fit.validate().is_ok(), "{max}: {fit:?}");
            for seed in 0..20 {
                let text = crate::judge::generate::generate(seed, &fit).expect("generated");
                assert_eq!(
                    text.to_string().len(),
                    generated_len(&fit),
                    "{max}: {fit:?}"
                );
            }
        }
        let fit = fitting(&default, 200).expect("fits");
        assert_eq!((fit.cols, fit.rows, fit.moves, fit.beasts), (15, 9, 28, 3));
        assert_eq!(fitting(&default, 16), None);
    }

    #[test]
    fn kattis_groups_put_the_samples_apart() {
        for c in builtin().cases {
            let g = KattisGroup::of(&c.name);
            assert_eq!(g == KattisGroup::Sample, SAMPLES.contains(&c.name.as_str()));
        }
    }
}
