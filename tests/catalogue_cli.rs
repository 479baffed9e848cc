//! The catalogue's misreadings met in answers: for each entry the golfers made, the
//! tests' own answer with that one misreading (`tests/fixtures/catalogue/beasts.py`) is named
//! exactly by `beast check` on its default cases, and `beast audit` lists the entry.

use crate::util::{beast, fixture};

/// Each mistake of the fixture and the catalogue entry it is.
const MISTAKES: [(&str, &str); 8] = [
    ("reverse", "order-reverse"),
    ("c30", "distance-30-sqrt"),
    ("crushbeast", "crush-against-beast"),
    ("loose", "loose-beast-pushed"),
    ("push2", "train-of-two"),
    ("push1", "train-of-one"),
    ("nextdoor", "kill-next-door"),
    ("noturn", "blocked-no-turn"),
];

/// The summary object of `beast check --format json` (the default cases) of the fixture
/// answer with `mistake`.
fn checked(mistake: &str) -> serde_json::Value {
    let script = fixture("catalogue/beasts.py");
    let out = beast()
        .args(["check", "--format", "json", "--sandbox", "none"])
        .args(["--", crate::util::python3()])
        .arg(script)
        .arg(mistake)
        .output()
        .expect("beast runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let last = text.lines().last().expect("a summary line");
    serde_json::from_str(last).expect("JSON")
}

#[test]
fn the_fixture_without_a_mistake_passes_every_default_case() {
    let s = checked("");
    assert_eq!(s["failed"], 0, "{s}");
}

#[test]
fn each_new_misreading_is_named_exactly_by_the_default_check() {
    for (mistake, name) in MISTAKES {
        let s = checked(mistake);
        let d = &s["diagnosis"];
        let flags = format!("--variant {name}");
        let named: Vec<&str> = d["explained_by"]
            .as_array()
            .map(|all| all.iter().filter_map(|e| e["flags"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(named, [flags.as_str()], "{mistake}: {d}");
    }
}

#[test]
fn the_audit_lists_every_new_entry_as_decided_or_open() {
    let out = beast()
        .args(["audit", "--format", "json"])
        .output()
        .expect("beast runs");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the audit's JSON");
    for (_, name) in MISTAKES {
        let flags = format!("--variant {name}");
        let listed = ["decided", "undecided"].iter().any(|k| {
            doc[k]
                .as_array()
                .is_some_and(|all| all.iter().any(|e| e["flags"] == flags.as_str()))
        });
        assert!(listed, "{name} not listed");
    }
}
