//! The kernel's `#!` rules (the judge's side): a script's `#!` line is read only where the
//! kernel reads it, split as the kernel splits it, followed as deep as the kernel follows
//! it, and the interpreter it names (or the program `env` runs) is shown only when it is a
//! regular executable file the case's user could run, in a system directory or the one
//! the judge's `PATH` finds; the layout's notes say why one is not.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::shown::{View, in_system};
use crate::cli::platform;
use crate::cli::sandbox::untrusted::{self, HostProgram};

/// The most bytes of a file read for its `#!` line (the kernel's own limit).
const SHEBANG_BYTES: u64 = 256;

/// How deep `#!` lines are followed (interpreters that are scripts), as the kernel does.
const SHEBANG_DEPTH: usize = 4;

impl View<'_> {
    /// The interpreter of the `#!` line of `script`, which the kernel reads because the
    /// script is the program it runs: shown when it is a regular executable file the
    /// case's user could run, in a system directory or the one the judge's `PATH` finds;
    /// with `env`, the program it names, found through the judge's `PATH`.
    pub(super) fn kernel_interpreter(&mut self, script: &Path, depth: usize) {
        if depth >= SHEBANG_DEPTH {
            return;
        }
        let Ok(head) = untrusted::read_head(script, SHEBANG_BYTES) else {
            return;
        };
        let Some((interpreter, argument)) = shebang(&head) else {
            return;
        };
        let interpreter = PathBuf::from(interpreter);
        let shown = match self.interpreter(&interpreter) {
            Ok(shown) => shown,
            Err(why) => {
                self.refuse(&interpreter, &why);
                return;
            }
        };
        if let Some(real) = &shown {
            self.kernel_interpreter(real, depth + 1);
        }
        if interpreter.file_name().is_none_or(|n| n != "env") {
            return;
        }
        let Some(name) = argument.as_deref().and_then(env_program) else {
            return;
        };
        let named = PathBuf::from(&name);
        match self.interpreter(&named) {
            Ok(Some(real)) => self.kernel_interpreter(&real, depth + 1),
            Ok(None) => {}
            Err(why) => self.refuse(&named, &why),
        }
    }

    /// Notes that `interpreter` is not shown, and why.
    fn refuse(&mut self, interpreter: &Path, why: &str) {
        let text = interpreter.to_string_lossy();
        let text: String = text.chars().take(120).collect();
        self.notes.push(format!(
            "note: the `#!` interpreter {} is not shown to the answer: {why}",
            beast_engine::judge::report::visible(&text)
        ));
    }

    /// Whether an interpreter a `#!` line names is shown: `Ok(Some(file))` when it is and
    /// its installation is bound (the file, to follow its own `#!`), `Ok(None)` when the
    /// system directories show it already, `Err(why)` when it is not shown. A name
    /// without `/` (after `env`) is looked up in the judge's `PATH`, as `env` does in the
    /// jail: the first that may be shown is.
    fn interpreter(&mut self, named: &Path) -> Result<Option<PathBuf>, String> {
        if named.as_os_str().as_encoded_bytes().contains(&b'/') {
            return self.shown_file(named, false);
        }
        let mut first_why = None;
        for found in untrusted::on_path(named.as_os_str(), self.path()) {
            if self.named.holds(&found) {
                // The answer's own, shown with the place the command names.
                return Ok(None);
            }
            let file = self.behind_shim(&found);
            match self.shown_file(&file, true) {
                Ok(shown) => return Ok(shown),
                Err(why) => {
                    first_why.get_or_insert(why);
                }
            }
        }
        Err(first_why.unwrap_or_else(|| "the judge's PATH has no such program".to_string()))
    }

    /// Whether the file `file` (`on_path`: found through the judge's `PATH`) is shown as
    /// an interpreter, as [`View::interpreter`] says.
    fn shown_file(&mut self, file: &Path, on_path: bool) -> Result<Option<PathBuf>, String> {
        if !file.is_absolute() {
            return Err("it is not an absolute path".to_string());
        }
        let meta =
            std::fs::metadata(file).map_err(|_| "it does not exist on the host".to_string())?;
        let real = file
            .canonicalize()
            .map_err(|e| format!("it cannot be resolved: {e}"))?;
        let system = in_system(file) && in_system(&real);
        if !system && !on_path && !self.judges_own(file, &real) {
            return Err(
                "it is neither in a system directory nor the one the judge's PATH finds"
                    .to_string(),
            );
        }
        if !meta.is_file() {
            return Err("it is not a regular file".to_string());
        }
        if !platform::is_executable(&meta) {
            return Err("it is not executable".to_string());
        }
        let runs = match self.req.case_uid.is_some() {
            true => platform::others_may_run(&real),
            false => platform::may_run(&real),
        };
        if !runs {
            return Err("the case's user could not run it on the host".to_string());
        }
        if system {
            return Ok(None);
        }
        self.installation(file, false);
        Ok(Some(real))
    }

    /// The real program behind `found` (a file of the judge's `PATH`) when it is a shim
    /// of a version manager that lies outside every named place; else `found`.
    pub(super) fn behind_shim(&self, found: &Path) -> PathBuf {
        HostProgram::trusted(found, self.path(), self.named)
            .and_then(|p| p.through_shim(self.path(), self.named, self.interrupted))
            .unwrap_or_else(|| found.to_path_buf())
    }

    /// True when the judge's `PATH` finds, for the file name of `file`, the same file.
    fn judges_own(&self, file: &Path, real: &Path) -> bool {
        let Some(name) = file.file_name() else {
            return false;
        };
        let Some(found) = HostProgram::find(name, self.path(), self.named) else {
            return false;
        };
        let resolved = found
            .through_shim(self.path(), self.named, self.interrupted)
            .unwrap_or_else(|| found.path().to_path_buf());
        [found.path(), resolved.as_path()]
            .iter()
            .any(|p| p.canonicalize().is_ok_and(|c| c == real))
    }
}

/// The interpreter and the optional argument of a `#!` line at the start of `head`, split
/// as the kernel splits it (the interpreter up to the first blank, the rest trimmed).
fn shebang(head: &[u8]) -> Option<(OsString, Option<String>)> {
    let line = head.strip_prefix(b"#!")?;
    let end = line.iter().position(|&b| b == b'\n').unwrap_or(line.len());
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let line = &line[..end];
    let start = line.iter().position(|b| !blank(b))?;
    let line = &line[start..];
    let split = line.iter().position(blank).unwrap_or(line.len());
    let (interpreter, rest) = line.split_at(split);
    let rest = String::from_utf8_lossy(rest).trim().to_string();
    Some((
        platform::os_string(interpreter.to_vec()),
        (!rest.is_empty()).then_some(rest),
    ))
}

/// The program `env` runs, from the argument of a `#!/usr/bin/env` line (`-S` split): its
/// first word that is neither an option nor an assignment.
fn env_program(argument: &str) -> Option<String> {
    argument
        .split_whitespace()
        .find(|w| !w.starts_with('-') && !w.contains('='))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn kernel_splits_a_shebang_into_interpreter_and_one_argument() {
        let (i, a) = shebang(b"#! /usr/bin/env -S python3 -u\nx").expect("a line");
        assert_eq!(
            (i.as_os_str(), a.as_deref()),
            (OsStr::new("/usr/bin/env"), Some("-S python3 -u"))
        );
        assert_eq!(env_program("-S python3 -u").as_deref(), Some("python3"));
        assert_eq!(env_program("A=1 perl").as_deref(), Some("perl"));
        assert!(shebang(b"print(2)").is_none());
        assert!(shebang(b"#!   \n").is_none());
    }
}
