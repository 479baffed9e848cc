//! Replays every `examples/beast/NAME.txt` through the binary and compares stdout byte for
//! byte with `NAME.out`. An optional `NAME.args` holds extra arguments, one per line.
//! Adding a case means adding files, with no code.

use std::fs;

use crate::util::{beast, repo};

#[test]
fn every_beast_example_prints_its_expected_output() {
    let dir = repo("examples/beast");
    let mut inputs: Vec<_> = fs::read_dir(&dir)
        .expect("examples/beast exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 5, "the five sample cases at least");
    let mut failures = Vec::new();
    for input in &inputs {
        let expected = fs::read(input.with_extension("out"))
            .unwrap_or_else(|_| panic!("{} has no .out file", input.display()));
        let args: Vec<String> = fs::read_to_string(input.with_extension("args"))
            .map(|s| {
                s.lines()
                    .map(str::to_string)
                    .filter(|l| !l.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let out = beast().args(&args).arg(input).output().expect("beast runs");
        if out.stdout != expected || !out.status.success() {
            failures.push(format!(
                "{} {:?}: expected {:?}, got {:?} (exit {:?}, stderr {:?})",
                input.display(),
                args,
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&out.stdout),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} examples differ:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}
