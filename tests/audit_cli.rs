//! `beast audit`: the readings the challenge's five samples leave open, the puzzles that
//! separate them and the cases that decide them, each checked from outside with `beast` and
//! `beast FLAGS` themselves.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;

use crate::util::{assert_exact_keys, beast, example, json};

/// The challenge's five samples (`examples/beast/INDEX.md`).
const SAMPLES: [&str; 5] = [
    "preference-death",
    "preference-win",
    "simple-crush",
    "waiting-for-the-reaper",
    "wikipedia",
];

/// What `beast ARGS FILE` prints.
fn judged(args: &[&str], file: &Path) -> String {
    let out = beast().args(args).arg(file).output().expect("runs");
    assert!(out.status.success(), "beast {args:?} {}", file.display());
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// `flags` as arguments.
fn words(flags: &str) -> Vec<&str> {
    flags.split_whitespace().collect()
}

/// `beast audit ARGS --format json`.
fn audit_json(args: &[&str]) -> Value {
    let out = beast()
        .arg("audit")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out.stdout)
}

/// The audit of the five samples, made once.
fn samples_audit() -> &'static Value {
    static AUDIT: OnceLock<Value> = OnceLock::new();
    AUDIT.get_or_init(|| audit_json(&[]))
}

/// Every known reading's flags, from `beast` itself: the catalogue (`beast variants
/// --json`), then every combination of two or more of the four switches.
fn known_readings() -> Vec<String> {
    let out = beast().args(["variants", "--json"]).output().expect("runs");
    let catalogue: Vec<String> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| {
            json(l.as_bytes())["flags"]
                .as_str()
                .expect("flags")
                .to_string()
        })
        .collect();
    let switches: Vec<&String> = catalogue
        .iter()
        .filter(|f| !f.starts_with("--variant"))
        .collect();
    assert_eq!(switches.len(), 4);
    let mut all = catalogue.clone();
    for bits in 0u32..16 {
        if bits.count_ones() >= 2 {
            let on: Vec<&str> = (0..4)
                .filter(|i| bits & (1 << i) != 0)
                .map(|i| switches[i].as_str())
                .collect();
            all.push(on.join(" "));
        }
    }
    all
}

/// The flags of the audit's entries in `list` (`undecided` or `decided`).
fn flags_of(audit: &Value, list: &str) -> BTreeSet<String> {
    audit[list]
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["flags"].as_str().expect("flags").to_string())
        .collect()
}

/// Writes `text` to a file in `dir` and returns its path.
fn file_with(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path
}

#[test]
fn the_open_readings_are_those_that_pass_all_five_samples() {
    let audit = samples_audit();
    let names: Vec<&str> = audit["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(names, SAMPLES);
    let ours: Vec<String> = SAMPLES
        .iter()
        .map(|s| judged(&[], &example(&format!("{s}.txt"))))
        .collect();
    let catalogue_len = 25;
    let mut pass = BTreeSet::new();
    let mut refuted = BTreeSet::new();
    let mut catalogue_passing = 0;
    for (i, flags) in known_readings().iter().enumerate() {
        let passes = SAMPLES
            .iter()
            .zip(&ours)
            .all(|(s, o)| judged(&words(flags), &example(&format!("{s}.txt"))) == *o);
        if passes {
            pass.insert(flags.clone());
            catalogue_passing += usize::from(i < catalogue_len);
        } else {
            refuted.insert(flags.clone());
        }
    }
    assert_eq!(flags_of(audit, "undecided"), pass);
    assert_eq!(flags_of(audit, "decided"), refuted);
    // The issue's fact, computed above with `beast FLAGS`: 13 of the 25 catalogue readings.
    assert_eq!(catalogue_passing, 13);
}

#[test]
fn a_refuting_example_really_refutes() {
    for d in samples_audit()["decided"].as_array().expect("decided") {
        let flags = d["flags"].as_str().expect("flags");
        let file = example(&format!(
            "{}.txt",
            d["refuted_by"].as_str().expect("a name")
        ));
        assert_ne!(judged(&words(flags), &file), judged(&[], &file), "{flags}");
    }
}

#[test]
fn every_separating_puzzle_separates_and_is_in_the_challenges_form() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut separated = 0;
    for (i, u) in samples_audit()["undecided"]
        .as_array()
        .expect("undecided")
        .iter()
        .enumerate()
    {
        let flags = u["flags"].as_str().expect("flags");
        let sep = &u["separating"];
        if sep.is_null() {
            assert!(u["equivalent"].as_str().is_some(), "{flags} says why not");
            continue;
        }
        assert!(u["equivalent"].is_null(), "{flags}");
        let text = sep["puzzle"].as_str().expect("a puzzle");
        let file = file_with(dir.path(), &format!("sep-{i}.txt"), text);
        let ours = judged(&[], &file);
        let theirs = judged(&words(flags), &file);
        assert_eq!(ours, sep["ours"].as_str().expect("ours"), "{flags}");
        assert_eq!(theirs, sep["theirs"].as_str().expect("theirs"), "{flags}");
        assert_ne!(ours, theirs, "{flags}");
        // LF, full rows, the moves on one line, at most 8x8 with at most 10 moves, unless
        // the search had to go past the 8x8 puzzles and says so.
        assert!(!text.contains('\r'), "{flags}");
        let lines: Vec<&str> = text.lines().collect();
        let size: Vec<usize> = lines[0]
            .split(' ')
            .map(|n| n.parse().expect("a number"))
            .collect();
        let (cols, rows) = (size[0], size[1]);
        match sep["found"].as_str() {
            Some("small") => assert!(cols <= 8 && rows <= 8, "{flags}: {cols}x{rows}"),
            _ => assert!(
                cols > 8 || rows > 8,
                "{flags}: said past 8x8 at {cols}x{rows}"
            ),
        }
        assert_eq!(lines.len(), rows + 2, "{flags}: one line of moves");
        assert!(lines[1..=rows].iter().all(|r| r.len() == cols), "{flags}");
        assert!(lines[rows + 1].len() <= 10, "{flags}");
        assert!(text.ends_with('\n'));
        separated += 1;
    }
    assert!(separated > 0);
}

#[test]
fn the_added_cases_refute_every_separable_open_reading() {
    let audit = samples_audit();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let added: Vec<(std::path::PathBuf, String)> = audit["add"]
        .as_array()
        .expect("add")
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let file = file_with(
                dir.path(),
                &format!("add-{i}.txt"),
                a["puzzle"].as_str().expect("a puzzle"),
            );
            let output = a["output"].as_str().expect("output").to_string();
            assert_eq!(judged(&[], &file), output, "case {i} gives our output");
            (file, output)
        })
        .collect();
    assert!(!added.is_empty());
    for u in audit["undecided"].as_array().expect("undecided") {
        if u["separating"].is_null() {
            continue;
        }
        let flags = u["flags"].as_str().expect("flags");
        assert!(
            added.iter().any(|(f, o)| judged(&words(flags), f) != *o),
            "no added case refutes {flags}"
        );
    }
    assert!(added.len() < flags_of(audit, "undecided").len());
}

#[test]
fn an_authors_examples_that_decide_everything_get_nothing_to_add() {
    let audit = samples_audit();
    let dir = tempfile::tempdir().expect("a temporary directory");
    for s in SAMPLES {
        for ext in ["txt", "out"] {
            std::fs::copy(
                example(&format!("{s}.{ext}")),
                dir.path().join(format!("{s}.{ext}")),
            )
            .expect("copied");
        }
    }
    for (i, a) in audit["add"].as_array().expect("add").iter().enumerate() {
        file_with(
            dir.path(),
            &format!("added-{i}.in"),
            a["puzzle"].as_str().expect("puzzle"),
        );
        file_with(
            dir.path(),
            &format!("added-{i}.out"),
            a["output"].as_str().expect("output"),
        );
    }
    assert!(
        audit["undecided"]
            .as_array()
            .expect("undecided")
            .iter()
            .all(|u| !u["separating"].is_null()),
        "every open reading is separable, so the cases decide them all"
    );
    let dir_arg = dir.path().to_str().expect("a path");
    let own = audit_json(&["--no-builtin", "--cases", dir_arg]);
    assert_eq!(own["undecided"], serde_json::json!([]));
    assert_eq!(own["add"], serde_json::json!([]));
    assert_eq!(
        flags_of(&own, "decided").len(),
        flags_of(audit, "decided").len() + flags_of(audit, "undecided").len()
    );
    let text = beast()
        .args(["audit", "--no-builtin", "--cases", dir_arg])
        .output()
        .expect("runs");
    let text = String::from_utf8(text.stdout).expect("UTF-8");
    assert!(
        text.contains("Undecided: none. Your examples decide every known reading; nothing to add."),
        "{text}"
    );
    assert!(!text.contains("Add "), "{text}");
    let md = beast()
        .args([
            "audit",
            "--no-builtin",
            "--format",
            "markdown",
            "--cases",
            dir_arg,
        ])
        .output()
        .expect("runs");
    let md = String::from_utf8(md.stdout).expect("UTF-8");
    assert!(md.starts_with("Your examples decide every reading"), "{md}");
    assert!(!md.contains("```"), "{md}");
}

#[test]
fn the_json_has_the_issues_shape() {
    let audit = samples_audit();
    assert_exact_keys(
        audit,
        &[
            "examples",
            "disputed",
            "refuted_against",
            "undecided",
            "decided",
            "add",
            "search",
        ],
    );
    for u in audit["undecided"].as_array().expect("undecided") {
        assert_exact_keys(u, &["flags", "words", "separating", "equivalent"]);
        if !u["separating"].is_null() {
            assert_exact_keys(
                &u["separating"],
                &["puzzle", "ours", "theirs", "parts_at", "found", "designed"],
            );
        }
    }
    for d in audit["decided"].as_array().expect("decided") {
        assert_exact_keys(d, &["flags", "refuted_by"]);
    }
    for a in audit["add"].as_array().expect("add") {
        assert_exact_keys(a, &["puzzle", "output", "refutes", "checks", "after_moves"]);
    }
    assert_exact_keys(
        &audit["search"],
        &[
            "seed",
            "puzzles",
            "drawn",
            "stopped",
            "max_side",
            "max_moves",
            "wide_cols",
        ],
    );
    assert_eq!(audit["search"]["seed"], 1);
}

#[test]
fn the_markdown_block_names_the_open_readings_and_holds_the_cases() {
    let audit = samples_audit();
    let out = beast()
        .args(["audit", "--format", "markdown"])
        .output()
        .expect("runs");
    let md = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(md.starts_with("Your examples do not decide:\n"), "{md}");
    for flags in flags_of(audit, "undecided") {
        assert!(md.contains(&format!("- `{flags}`: ")), "{flags} in {md}");
    }
    let add = audit["add"].as_array().expect("add");
    assert!(
        md.contains(&format!("These {} test cases do:", add.len())),
        "{md}"
    );
    for a in add {
        let puzzle = a["puzzle"].as_str().expect("puzzle");
        let output = a["output"].as_str().expect("output");
        assert!(
            md.contains(&format!(
                "```\n{puzzle}```\n\nOutput:\n\n```\n{output}```\n"
            )),
            "{md}"
        );
    }
}

#[test]
fn each_proposed_case_says_the_rules_it_checks_and_when_it_is_decided_after_the_moves() {
    let audit = samples_audit();
    let out = beast()
        .args(["audit", "--format", "markdown"])
        .output()
        .expect("runs");
    let md = String::from_utf8(out.stdout).expect("UTF-8");
    let add = audit["add"].as_array().expect("add");
    let mut after = 0;
    for (i, a) in add.iter().enumerate() {
        // The case's own part of the block: from its heading to the next one.
        let start = md
            .find(&format!("Test case {}:", i + 1))
            .expect("a heading");
        let end = md[start..]
            .find(&format!("Test case {}:", i + 2))
            .map_or(md.len(), |e| start + e);
        let part = &md[start..end];
        let checks: Vec<&str> = a["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .map(|c| c.as_str().expect("a sentence"))
            .collect();
        assert!(!checks.is_empty(), "{a}");
        assert!(part.contains("It checks that"), "{part}");
        for c in &checks {
            assert!(part.contains(c), "{c} in {part}");
        }
        let said_after = part.contains("It is decided only after the moves run out");
        assert_eq!(said_after, a["after_moves"] == true, "{part}");
        after += usize::from(said_after);
        // Decided after the moves: under `--exhaust stop` the case's game ends where the
        // moves do, and `--exhaust stop` gives another output than ours on it.
        if a["after_moves"] == true {
            let puzzle = a["puzzle"].as_str().expect("puzzle");
            let stop = beast()
                .args(["--exhaust", "stop"])
                .write_stdin(puzzle)
                .output()
                .expect("runs");
            assert_ne!(
                String::from_utf8_lossy(&stop.stdout),
                a["output"].as_str().expect("output"),
                "{puzzle}"
            );
        }
    }
    assert!(after >= 1, "{md}");
}

#[test]
fn the_same_seed_gives_the_same_audit_and_the_seed_is_said() {
    let again = audit_json(&["--seed", "1"]);
    assert_eq!(&again, samples_audit());
    let other = audit_json(&["--seed", "2"]);
    assert_eq!(other["search"]["seed"], 2);
    assert_eq!(
        flags_of(&other, "undecided"),
        flags_of(samples_audit(), "undecided")
    );
}

#[test]
fn a_search_with_no_budget_says_equivalent_as_far_as_searched() {
    let audit = audit_json(&["--budget", "0"]);
    for u in audit["undecided"].as_array().expect("undecided") {
        assert!(u["separating"].is_null());
        let why = u["equivalent"].as_str().expect("a reason");
        assert!(
            why.starts_with("equivalent as far as searched (0 random puzzles"),
            "{why}"
        );
    }
    assert_eq!(audit["add"], serde_json::json!([]));
}

#[test]
fn no_examples_at_all_is_a_usage_error() {
    beast()
        .args(["audit", "--no-builtin"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no example to audit"));
}

#[test]
fn an_example_whose_output_is_not_the_rules_is_said_first_with_the_readings_it_agrees_with() {
    // Sample 4 with the `.out` all three posted answers print: `0`, as under
    // --exhaust stop. The rules give `aHHHH!` then `0`.
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::copy(
        example("waiting-for-the-reaper.txt"),
        dir.path().join("s4_reaper.in"),
    )
    .expect("copied");
    std::fs::write(dir.path().join("s4_reaper.out"), "0\n").expect("written");
    let run = |format: &str| {
        let out = beast()
            .args(["audit", "--no-builtin", "--format", format, "--cases"])
            .arg(dir.path())
            .output()
            .expect("beast audit runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let text = run("text");
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(
            "Your example s4_reaper.out says `0`; the rules give `aHHHH!` then `0`; it agrees \
             with: `--exhaust stop`"
        ),
        "{text}"
    );
    assert!(text.contains("compare each reading with your examples' outputs"));
    // Against the author's output, --exhaust stop is not refuted by it: it is open.
    assert!(!text.contains("--exhaust stop  "), "{text}");
    assert!(text.contains("\n  --exhaust stop: "), "{text}");
    let md = run("markdown");
    assert!(
        md.starts_with("Your example s4\\_reaper.out says `0`; the rules give `aHHHH!` then `0`"),
        "{md}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    let d = &json["disputed"][0];
    assert_eq!(d["example"], "s4_reaper");
    assert_eq!(d["theirs"], "0\n");
    assert_eq!(d["ours"], "aHHHH!\n0\n");
    assert_eq!(d["agrees_with"][0], "--exhaust stop");
    assert_eq!(json["refuted_against"], "the examples' outputs");
    let open: Vec<&str> = json["undecided"]
        .as_array()
        .expect("undecided")
        .iter()
        .filter_map(|u| u["flags"].as_str())
        .collect();
    assert!(open.contains(&"--exhaust stop"), "{open:?}");
}
