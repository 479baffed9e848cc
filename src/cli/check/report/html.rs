//! `--html-dir DIR`: each explained group's smallest case and its compare page (the replay
//! page of `cli/replay.rs`, with the group's reading beside ours), as `group-N.txt` and
//! `group-N.html`. Unlike the other parts of the report this is written as each answer
//! is concluded, not from the events: the group's report names the files, so they must
//! exist before any reporter prints it.

use anyhow::Context;
use beast_engine::judge::report::GroupReport;

use std::path::{Path, PathBuf};

use crate::cli::files::Target;

/// Where one answer's pages go: `--html-dir DIR` itself, or, when several answers run,
/// the answer's own subdirectory of it (its name made a file name), made beneath DIR
/// without following a link.
#[derive(Clone, Debug)]
pub struct PagesDir {
    /// `--html-dir`.
    pub root: PathBuf,
    /// The answer's subdirectory, when several answers run.
    pub answer: Option<String>,
}

impl PagesDir {
    /// The directory the pages land in, as it is shown.
    pub fn path(&self) -> PathBuf {
        match &self.answer {
            Some(name) => self.root.join(name),
            None => self.root.clone(),
        }
    }
}

/// Writes the pages of `groups` into `dir` through the write gate, and records in each
/// group where they are.
pub fn write_compare_pages(pages: &PagesDir, groups: &mut [GroupReport]) -> anyhow::Result<()> {
    let dir = pages.path();
    let mut target = Target::create(&pages.root)?;
    if let Some(name) = &pages.answer {
        target = target.subdir(Path::new(name))?;
    }
    for (n, g) in groups.iter_mut().enumerate() {
        let Some(compare) = &mut g.compare else {
            continue;
        };
        let puzzle_file = dir.join(format!("group-{}.txt", n + 1));
        let page_file = dir.join(format!("group-{}.html", n + 1));
        let puzzle = beast_engine::beast::Puzzle::parse(&g.shown.puzzle)
            .with_context(|| format!("the smallest case of group {} does not parse", n + 1))?;
        let name = format!("group-{}.txt", n + 1);
        let page = crate::cli::replay::page_for(
            &puzzle,
            beast_engine::beast::Rules::OURS,
            Some((&compare.flags, compare.rules)),
            &name,
        )?;
        target.replace(name.as_ref(), g.shown.puzzle.as_bytes())?;
        target.replace(format!("group-{}.html", n + 1).as_ref(), page.as_bytes())?;
        compare.written = Some((
            puzzle_file.display().to_string(),
            page_file.display().to_string(),
        ));
    }
    Ok(())
}
