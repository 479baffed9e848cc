//! The Markdown report: what contained the answers, as in text, then the leaderboard as a
//! table ready to paste into the challenge post; every name and line in it Markdown text
//! rendered as written (`judge::report::markdown_text`).

use beast_engine::judge::leaderboard;
use beast_engine::judge::page::board;

use super::reporter::{Out, Reporter, interrupted_note};
use super::text::sandbox_lines_with;
use crate::cli::check::event::Event;
use beast_engine::judge::report::markdown_text;

/// The Markdown reporter.
pub struct Markdown;

impl Reporter for Markdown {
    fn on(&mut self, event: &Event<'_>, out: &mut Out) -> anyhow::Result<()> {
        match event {
            Event::RunFinished(finish) => {
                let names: Vec<&str> = finish.judged.iter().map(|j| j.name.as_str()).collect();
                let lines: Vec<&str> = finish
                    .judged
                    .iter()
                    .map(|j| j.sandbox.line.as_str())
                    .collect();
                let sandbox = sandbox_lines_with(&names, &lines, markdown_text);
                out.print(&format!("{sandbox}\n"));
                match finish.page {
                    Some(entries) => out.print(&board::markdown(entries)),
                    None => out.print(&leaderboard::markdown(finish.rows)),
                }
            }
            Event::Interrupted { signal, ran, of } => {
                out.note(&interrupted_note(*signal, *ran, *of));
            }
            _ => {}
        }
        Ok(())
    }
}
