//! `--merge`: the shards' records read through the read gate and told as the events of one
//! run of them all, to the same reporters and through the same conclusion, so the report is
//! the one that run prints.

use std::path::{Path, PathBuf};

use anyhow::Context;
use beast_engine::judge::budget::Steps;
use beast_engine::judge::merge;

use super::ending::{Concluding, conclude, finish, html_dir};
use super::event::{Event, Judged, Start};
use super::plan::Plan;
use super::report::Reporters;
use crate::cli::error::Ended;
use crate::cli::files;
use crate::cli::paint::ColorChoice;

/// `--merge`: the shards' records told as the events of one run of them all, to the same
/// reporters, so the report is the one that run prints.
pub(super) fn run(plan: &Plan, files: &[PathBuf]) -> Ended {
    let (output, conclusion) = (&plan.output, &plan.conclusion);
    let files = files
        .iter()
        .map(|path| read_shard(path))
        .collect::<anyhow::Result<Vec<merge::ShardFile>>>()?;
    let m = merge::merge(&files)?;
    let many = m.header.leaderboard;
    let mut reporters = Reporters::new(output, many, false, ColorChoice::Never);
    let names: Vec<String> = m.answers.iter().map(|a| a.name.clone()).collect();
    let start = Start {
        answers: names.iter().map(String::as_str).collect(),
        sandbox_lines: vec![m.header.sandbox.as_str(); names.len().max(1)],
        shard: None,
        jobs: m.answers.iter().map(|a| a.ran.len()).sum(),
    };
    reporters.emit(Event::RunStarted(&start))?;
    // Without the answer, no case can be designed: no label is confirmed, and none says so.
    reporters.emit(Event::Note(MERGED_UNTESTED))?;
    let mut judged = Vec::new();
    for answer in m.answers {
        for (ordinal, (_, report)) in answer.ran.iter().enumerate() {
            reporters.emit(Event::CaseFinished {
                answer: many.then_some(answer.name.as_str()),
                ordinal,
                report,
            })?;
        }
        let outcome = match answer.cannot_start {
            Some(reason) => Err(reason),
            None => {
                let concluding = Concluding {
                    judge: None,
                    conclusion,
                    jobs: plan.jobs,
                    html_dir: html_dir(conclusion, many, &answer.name),
                    budget: Steps::DIAGNOSIS,
                    seed: m.header.seed.unwrap_or(0),
                };
                Ok(conclude(&concluding, answer.ran, answer.source.clone())?)
            }
        };
        judged.push(Judged {
            name: answer.name,
            outcome,
            source: answer.source,
            sandbox: m.header.sandbox_summary.clone(),
        });
    }
    finish(&mut reporters, &judged, m.header.seed, None, &|| false)
}

/// The note of a merged run: its labels rest on the shards' cases alone.
pub(super) const MERGED_UNTESTED: &str = "note: a merged run designs no cases (it cannot run the answer): \
     no label below is confirmed, a rule event it names is only the closest clue, and no \
     case ran again to find the answer flaky; check the answer unsharded to test them";

/// A shard output, each line read as a record.
pub(super) fn read_shard(path: &Path) -> anyhow::Result<merge::ShardFile> {
    let text = files::read::read_named_text(path, files::Limit::SHARD)
        .with_context(|| format!("cannot read the shard output {}", path.display()))?;
    Ok(merge::ShardFile::parse(&path.display().to_string(), &text)?)
}
