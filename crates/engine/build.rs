//! Embeds every `cases/NAME.txt` (or `NAME.in`; `cases` links to the repository's
//! `examples/beast`) that has a `NAME.out` next to it,
//! with an optional `NAME.args`, as the built-in cases of `beast check`. New pairs are picked
//! up without a code change.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("cases");
    println!("cargo::rerun-if-changed=cases");
    let mut names: Vec<(String, String)> = Vec::new();
    if let Ok(entries) = fs::read_dir(&dir) {
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            for ext in [".txt", ".in"] {
                let Some(stem) = file.strip_suffix(ext) else {
                    continue;
                };
                if dir.join(format!("{stem}.out")).is_file() {
                    names.push((stem.to_string(), file.clone()));
                }
            }
        }
    }
    names.sort();
    names.dedup_by(|a, b| a.0 == b.0);
    let mut code = String::from("/// The embedded example cases, sorted by name.\n");
    code += "pub const EMBEDDED: &[Embedded] = &[\n";
    for (stem, input) in &names {
        let path = |f: &str| format!("{:?}", dir.join(f).display().to_string());
        let args = format!("{stem}.args");
        let args = if dir.join(&args).is_file() {
            format!("Some(include_bytes!({}))", path(&args))
        } else {
            "None".to_string()
        };
        let _ = writeln!(
            code,
            "    Embedded {{ name: {stem:?}, input: include_bytes!({}), output: include_bytes!({}), args: {args} }},",
            path(input),
            path(&format!("{stem}.out")),
        );
    }
    code += "];\n";
    let out =
        Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded_cases.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
