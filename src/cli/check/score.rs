//! The golf score's source: the file `--source` names, or the script the answer's command
//! runs, read through the read gate (a link out of its directory is never read) and
//! counted as golfers count.

use std::path::{Path, PathBuf};

use beast_engine::judge::report::Source;

use super::answers::Answer;
use crate::cli::files;
use crate::cli::sandbox;
use crate::cli::sandbox::untrusted::AnswerCommand;

/// The golf score's source: `--source FILE` (or the answer's `source`), or the script the
/// command names; counted as golfers count unless `count_all`.
pub(super) fn source(answer: &Answer, count_all: bool) -> anyhow::Result<Option<Source>> {
    let (path, named) = match &answer.source {
        Some(p) if p.as_os_str() == "none" => return Ok(None),
        Some(p) => (p.clone(), true),
        None => match script(&answer.command) {
            Some(p) => (p, false),
            None => return Ok(None),
        },
    };
    // Through the read gate: a script that is a link out of its directory (to a key, say)
    // is never read, so never counted nor posted; named with --source, that is an error.
    let bytes = match files::read::read_named(&path, files::Limit::SOURCE) {
        Ok(bytes) => bytes,
        Err(_) if !named => return Ok(None),
        Err(e) => return Err(e.context(format!("cannot read the source {}", path.display()))),
    };
    Ok(Some(Source::measure(
        path.display().to_string(),
        &bytes,
        count_all,
    )))
}

/// The script a command runs: the first word that names an existing file that is not a
/// compiled program (`python3 a.py`, `./a.pl`).
pub(super) fn script(command: &AnswerCommand) -> Option<PathBuf> {
    command.words().iter().map(PathBuf::from).find(|p| {
        let named = p.components().count() > 1 || p.extension().is_some();
        named && p.is_file() && !is_binary(p)
    })
}

/// True if the file starts like a compiled program: ELF, a Windows executable (`MZ`) or
/// Mach-O (either byte order, or a universal binary).
pub(super) fn is_binary(path: &Path) -> bool {
    let mach_o = [0xfeed_face_u32, 0xfeed_facf, 0xcafe_babe];
    sandbox::untrusted::read_head(path, 4)
        .ok()
        .and_then(|h| <[u8; 4]>::try_from(h).ok())
        .is_some_and(|head| {
            &head == b"\x7fELF"
                || head.starts_with(b"MZ")
                || mach_o
                    .iter()
                    .any(|m| head == m.to_be_bytes() || head == m.to_le_bytes())
        })
}
