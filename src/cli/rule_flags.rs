//! The rule-reading flags every command that plays beast puzzles shares (`--order`,
//! `--bump`, `--target`, `--exhaust`, `--variant NAME`), made from the engine's catalogue
//! ([`variant`]), and the same flags read back from one string (`--compare FLAGS`, the
//! flags of a group's compare page).

use beast_engine::beast::{Rules, variant};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches};

/// The rule readings, shared by every command that plays beast puzzles: the four switches
/// (`--order`, `--bump`, `--target`, `--exhaust`) and `--variant NAME`, all made from the
/// engine's catalogue ([`variant`]), so a new reading needs no change here.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleArgs(Rules);

/// The `--variant` argument's id.
const VARIANT: &str = "variant";

impl RuleArgs {
    /// The engine's rules.
    pub fn rules(self) -> Rules {
        self.0
    }
}

impl clap::Args for RuleArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for s in variant::SWITCHES {
            cmd = cmd.arg(
                Arg::new(s.flag)
                    .long(s.flag)
                    .value_name("READING")
                    .help(s.help)
                    .value_parser(PossibleValuesParser::new([s.ours_value, s.other_value]))
                    .default_value(s.ours_value)
                    .help_heading("Rule readings"),
            );
        }
        cmd.arg(
            Arg::new(VARIANT)
                .long(VARIANT)
                .value_name("NAME")
                .help(
                    "Judge under a known misreading of the rules (repeatable; `beast variants` \
                     lists them)",
                )
                .action(ArgAction::Append)
                .value_parser(PossibleValuesParser::new(
                    variant::CATALOGUE.iter().map(|v| v.name),
                ))
                .hide_possible_values(true)
                .help_heading("Rule readings"),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for RuleArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let unknown = |what: &str| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("unknown rule reading {what:?}\n"),
            )
        };
        Ok(RuleArgs(
            apply_matches(Rules::OURS, m, false).map_err(|what| unknown(&what))?,
        ))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// `base` with the readings of `m` made; with `explicit_only`, only those typed, not the
/// switches' defaults. The error is the unknown value.
fn apply_matches(base: Rules, m: &ArgMatches, explicit_only: bool) -> Result<Rules, String> {
    let mut rules = base;
    for s in variant::SWITCHES {
        let typed = m.value_source(s.flag) == Some(clap::parser::ValueSource::CommandLine);
        if explicit_only && !typed {
            continue;
        }
        if let Some(value) = m.get_one::<String>(s.flag) {
            rules = s.change(value).ok_or_else(|| value.clone())?.apply(rules);
        }
    }
    for name in m.get_many::<String>(VARIANT).into_iter().flatten() {
        rules = variant::find(name)
            .ok_or_else(|| name.clone())?
            .apply(rules);
    }
    Ok(rules)
}

/// `base` with the reading flags of `flags` (as `beast` takes them, such as
/// `--target after --variant ties-reversed`) made on top.
pub fn rules_with_flags(base: Rules, flags: &str) -> anyhow::Result<Rules> {
    let cmd = <RuleArgs as clap::Args>::augment_args(
        clap::Command::new("--compare").no_binary_name(true),
    );
    let m = cmd
        .try_get_matches_from(flags.split_whitespace())
        .map_err(|e| {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            anyhow::anyhow!("--compare {flags:?}: {first}")
        })?;
    apply_matches(base, &m, true).map_err(|what| anyhow::anyhow!("unknown rule reading {what:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_readings_flags_read_back_as_that_reading() {
        for name in ["exhaust-stop", "ties-reversed", "beast-may-stay"] {
            let rules = variant::find(name)
                .map(|v| v.apply(Rules::OURS))
                .expect("in the catalogue");
            let flags = variant::flags(rules);
            assert_eq!(
                rules_with_flags(Rules::OURS, &flags).ok(),
                Some(rules),
                "{flags}"
            );
        }
        let e = rules_with_flags(Rules::OURS, "--exhaust never").expect_err("no such reading");
        assert!(
            e.to_string().starts_with("--compare \"--exhaust never\": "),
            "{e}"
        );
    }
}
