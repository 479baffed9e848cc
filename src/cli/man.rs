//! `beast man`: the manual pages, made by `clap_mangen` from the same command tree as
//! `--help`, so the two cannot drift apart.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context;

/// Arguments of `beast man`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  beast man | man -l -                 # read it now
  beast man --out man                  # man/beast.1, man/beast-check.1, ...")]
pub struct Args {
    /// Write `beast.1` and one page a subcommand (`beast-check.1`, ...) into DIR
    /// (created if missing) instead of printing `beast.1`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Prints `beast.1` of the command tree `tree`, or writes every page into `--out`.
pub fn run(args: Args, tree: clap::Command) -> super::error::Ended {
    let pages = pages(tree)?;
    match args.out {
        None => {
            let (_, page) = pages.first().context("no manual page was made")?;
            let mut out = io::stdout().lock();
            out.write_all(page)
                .and_then(|()| out.flush())
                .context("cannot write the manual page to standard output")?;
        }
        Some(dir) => {
            let target = super::files::Target::create(&dir)?;
            for (name, page) in &pages {
                target.replace(name.as_ref(), page)?;
            }
            eprintln!("wrote {} manual pages to {}", pages.len(), dir.display());
        }
    }
    Ok(())
}

/// Every page of `command`, its own first (`beast.1`), then one a visible subcommand,
/// depth first (`beast-check.1`), each with its file name.
fn pages(command: clap::Command) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    add_pages(&command, &mut pages)?;
    Ok(pages)
}

/// Adds the page of `command`, then those of its visible subcommands.
fn add_pages(command: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> anyhow::Result<()> {
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render(&mut page)
        .context("cannot render the manual page")?;
    pages.push((man.get_filename(), page));
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        add_pages(sub, pages)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The page's text with roff's escaped hyphens made plain (`\-\-seed` is `--seed`).
    fn plain(page: &[u8]) -> String {
        String::from_utf8_lossy(page).replace("\\-", "-")
    }

    /// What the pages leave out of `command` and the visible subcommands under it: a
    /// missing page, a visible flag (long or short) its page does not name, a subcommand
    /// its parent's page does not list (as `beast-check(1)`). Counts every name it checks in `checked`.
    fn missing(
        command: &clap::Command,
        pages: &[(String, Vec<u8>)],
        checked: &mut usize,
    ) -> Vec<String> {
        let file = format!(
            "{}.1",
            command.get_display_name().unwrap_or(command.get_name())
        );
        let Some((_, page)) = pages.iter().find(|(name, _)| *name == file) else {
            return vec![format!("the page {file}")];
        };
        let text = plain(page);
        let mut names = Vec::new();
        for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
            names.extend(arg.get_long().map(|l| format!("--{l}")));
            names.extend(arg.get_short().map(|s| format!("-{s}")));
        }
        let subs: Vec<&clap::Command> = command
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .collect();
        names.extend(
            subs.iter()
                .map(|s| format!("{}(1)", s.get_display_name().unwrap_or(s.get_name()))),
        );
        *checked += names.len();
        let mut gaps: Vec<String> = names
            .into_iter()
            .filter(|n| !text.contains(n.as_str()))
            .map(|n| format!("{n} in {file}"))
            .collect();
        for sub in subs {
            gaps.extend(missing(sub, pages, checked));
        }
        gaps
    }

    /// The command tree as the pages are made from it.
    fn tree(command: clap::Command) -> clap::Command {
        let mut command = command.disable_help_subcommand(true);
        command.build();
        command
    }

    #[test]
    fn the_pages_name_every_subcommand_and_flag_of_the_command_tree() {
        let command = tree(super::super::Cli::command());
        let pages = pages(super::super::Cli::command()).expect("pages");
        assert_eq!(pages[0].0, "beast.1");
        let mut checked = 0;
        assert_eq!(
            missing(&command, &pages, &mut checked),
            Vec::<String>::new()
        );
        // The tree is walked, not a list: it holds every subcommand and their flags.
        assert!(checked > 100, "only {checked} names checked");
        fn count(c: &clap::Command) -> usize {
            1 + c
                .get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(count)
                .sum::<usize>()
        }
        assert_eq!(pages.len(), count(&command));
        assert!(
            !pages
                .iter()
                .any(|(name, _)| name.contains(crate::cli::sandbox::spec::SUBCOMMAND))
        );
    }

    #[test]
    fn a_flag_or_subcommand_missing_from_the_pages_is_caught() {
        let pages = pages(super::super::Cli::command()).expect("pages");
        let extra = tree(
            super::super::Cli::command()
                .arg(
                    clap::Arg::new("not-on-any-page")
                        .long("not-on-any-page")
                        .action(clap::ArgAction::SetTrue),
                )
                .subcommand(clap::Command::new("unpaged")),
        );
        let gaps = missing(&extra, &pages, &mut 0);
        assert_eq!(
            gaps,
            vec![
                "--not-on-any-page in beast.1".to_string(),
                "beast-unpaged(1) in beast.1".to_string(),
                "the page beast-unpaged.1".to_string(),
            ]
        );
    }
}
