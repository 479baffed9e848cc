//! `--html-dir DIR`: each explained group's smallest case and its compare page (the replay
//! page of `cli/replay.rs`, with the group's reading beside ours), as `group-N.txt` and
//! `group-N.html`. Unlike the other parts of the report this is written as each answer
//! is concluded, not from the events: the group's report names the files, so they must
//! exist before any reporter prints it.

use anyhow::Context;
use beast_engine::judge::report::GroupReport;

use super::reporter::write_report_file;

/// Writes the pages of `groups` into `dir`, and records in each group where they are.
pub fn write_compare_pages(
    dir: &std::path::Path,
    groups: &mut [GroupReport],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
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
        write_report_file(&puzzle_file, g.shown.puzzle.as_bytes())?;
        write_report_file(&page_file, page.as_bytes())?;
        compare.written = Some((
            puzzle_file.display().to_string(),
            page_file.display().to_string(),
        ));
    }
    Ok(())
}
