//! The environment an answer gets (the judge's side): the allow-list (`PATH`, `LANG`,
//! `LC_*`, `TERM`) and the names `--env` passes; `HOME` and `TMPDIR` are added per case.

use std::ffi::OsString;

/// Environment variables passed through besides `LC_*` and those of `--env`.
const ALLOWED_ENV: [&str; 3] = ["PATH", "LANG", "TERM"];

/// The variables of `vars` an answer may see: `PATH`, `LANG`, `LC_*`, `TERM` and the
/// names in `pass`.
pub fn allowed_env(
    vars: impl Iterator<Item = (OsString, OsString)>,
    pass: &[OsString],
) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vars
        .filter(|(name, _)| {
            let n = name.as_encoded_bytes();
            ALLOWED_ENV.iter().any(|a| a.as_bytes() == n)
                || n.starts_with(b"LC_")
                || pass.iter().any(|p| p == name)
        })
        .collect();
    env.sort();
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(a, b)| (OsString::from(a), OsString::from(b)))
            .collect()
    }

    #[test]
    fn only_the_allow_list_and_passed_names_reach_the_answer() {
        let vars = os(&[
            ("PATH", "/bin"),
            ("GITHUB_TOKEN", "secret"),
            ("LC_ALL", "C"),
            ("AWS_SECRET_ACCESS_KEY", "k"),
            ("BEAST", "/x"),
            ("LANGUAGE", "no"),
        ]);
        let got = allowed_env(vars.into_iter(), &[OsString::from("BEAST")]);
        assert_eq!(
            got,
            os(&[("BEAST", "/x"), ("LC_ALL", "C"), ("PATH", "/bin")])
        );
    }
}
