//! The Markdown report: what contained the answers, as in text, then the leaderboard as a
//! table ready to paste into the challenge post.

use beast_engine::judge::leaderboard;
use beast_engine::judge::page::board;

use super::reporter::{Out, Reporter, interrupted_note};
use super::text::sandbox_lines;
use crate::cli::check::event::Event;

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
                out.print(&format!("{}\n", sandbox_lines(&names, &lines)));
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
