//! The progress bar on a terminal, as a reporter: a job's end moves it, the diagnosis
//! names itself on it, and it is gone before the report's ending prints.

use indicatif::{ProgressBar, ProgressStyle};

use super::reporter::{Out, Reporter};
use crate::cli::check::event::Event;

/// The bar's template: the cases done of all, their rate, the time left at that rate,
/// the time taken, and the message (failures, the diagnosis).
const TEMPLATE: &str = "{bar:40.cyan/blue} {pos}/{len} {per_sec:1} eta {eta} [{elapsed}] {msg}";

/// The bar, with no length until the run starts; its colours only when `color`.
pub fn bar(color: bool) -> ProgressBar {
    let bar = ProgressBar::new(0);
    let template = match color {
        true => TEMPLATE.to_string(),
        false => TEMPLATE.replace(".cyan/blue", ""),
    };
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// The progress bar's reporter.
pub struct Progress(ProgressBar);

impl Progress {
    /// Moves `bar`.
    pub fn new(bar: ProgressBar) -> Progress {
        Progress(bar)
    }
}

impl Reporter for Progress {
    fn on(&mut self, event: &Event<'_>, _out: &mut Out) -> anyhow::Result<()> {
        let bar = &self.0;
        match event {
            Event::RunStarted(start) => bar.set_length(start.jobs as u64),
            Event::JobDone { failed } => {
                bar.inc(1);
                if *failed > 0 {
                    bar.set_message(format!("{failed} failed"));
                }
            }
            Event::Diagnosing => bar.set_message("diagnosing"),
            Event::AnswerFinished(_) | Event::CannotStart { .. } | Event::RunFinished(_) => {
                bar.finish_and_clear();
            }
            Event::CaseFinished { .. } | Event::Note(_) | Event::Interrupted { .. } => {}
        }
        Ok(())
    }
}
