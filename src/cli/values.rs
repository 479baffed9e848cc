//! Command-line values that clap has no parser for: seconds and byte sizes. Each parser
//! returns a typed error whose message says what was expected. And clap's error for a
//! bad value that came from the environment (`BEAST_TIMEOUT=abc`), made to name the
//! variable, where clap names only the flag.

use std::ffi::OsString;
use std::time::Duration;

use clap::error::{ContextKind, ContextValue, ErrorKind};

use thiserror::Error;

/// A value on the command line that does not read as what it stands for.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ValueError {
    /// Not a decimal number of seconds.
    #[error("expected seconds such as 5 or 0.5, got {0:?}")]
    NotSeconds(String),
    /// Seconds outside (0, one day].
    #[error("the time must be above 0 and at most a day, got {0}")]
    SecondsOutOfRange(String),
    /// Not a byte count with an optional binary unit.
    #[error("expected a size such as 1M or 65536, got {0:?}")]
    NotBytes(String),
}

/// The longest time any option takes: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// Seconds as a positive, finite decimal number of at most a day.
pub fn seconds(s: &str) -> Result<Duration, ValueError> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| ValueError::NotSeconds(s.to_string()))?;
    if !(secs.is_finite() && secs > 0.0 && secs <= MAX_SECONDS) {
        return Err(ValueError::SecondsOutOfRange(s.to_string()));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A byte count such as `1048576`, `64K` or `1M` (binary units).
pub fn bytes(s: &str) -> Result<usize, ValueError> {
    let bad = || ValueError::NotBytes(s.to_string());
    let t = s.trim();
    let (num, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let factor: usize = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        _ => return Err(bad()),
    };
    num.parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(factor))
        .ok_or_else(bad)
}

/// `err` naming the environment variable its bad value came from (`invalid value 'abc'
/// in BEAST_TIMEOUT, the default of '--timeout <SECONDS>': ...`), when the flag was not
/// typed in `args` and the variable holds that value; any other error as it is.
pub fn from_environment(
    err: clap::Error,
    command: &clap::Command,
    args: &[OsString],
) -> clap::Error {
    if !matches!(
        err.kind(),
        ErrorKind::ValueValidation | ErrorKind::InvalidValue
    ) {
        return err;
    }
    let (Some(ContextValue::String(flag)), Some(ContextValue::String(value))) = (
        err.get(ContextKind::InvalidArg),
        err.get(ContextKind::InvalidValue),
    ) else {
        return err;
    };
    let long = flag.trim_start_matches('-');
    let long = long.split([' ', '=']).next().unwrap_or(long);
    let Some(arg) = with_env(command, long) else {
        return err;
    };
    let Some(variable) = arg.get_env().map(|v| v.to_string_lossy().into_owned()) else {
        return err;
    };
    let typed = args
        .iter()
        .take_while(|a| *a != "--")
        .filter_map(|a| a.to_str())
        .any(|a| {
            a == format!("--{long}")
                || a.starts_with(&format!("--{long}="))
                || arg
                    .get_short()
                    .is_some_and(|c| a.starts_with(&format!("-{c}")))
        });
    if typed || std::env::var_os(&variable).is_none_or(|v| v.to_string_lossy() != *value) {
        return err;
    }
    let reason = match (
        std::error::Error::source(&err),
        err.get(ContextKind::ValidValue),
    ) {
        (Some(cause), _) => cause.to_string(),
        (None, Some(ContextValue::Strings(valid))) => {
            format!("expected one of {}", valid.join(", "))
        }
        _ => "not a value of the flag".to_string(),
    };
    let message = format!(
        "invalid value '{value}' in the environment variable {variable}, the default of \
         '{flag}': {reason}\n\n  tip: give {flag} on the command line, or unset {variable}\n"
    );
    clap::Error::raw(err.kind(), message).with_cmd(command)
}

/// The argument `--long` of `command` or of any of its subcommands that takes its default
/// from a variable.
fn with_env<'a>(command: &'a clap::Command, long: &str) -> Option<&'a clap::Arg> {
    command
        .get_arguments()
        .find(|a| a.get_long() == Some(long) && a.get_env().is_some())
        .or_else(|| {
            command
                .get_subcommands()
                .find_map(|sub| with_env(sub, long))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_positive_decimals_up_to_a_day() {
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(seconds(" 5 "), Ok(Duration::from_secs(5)));
        assert_eq!(seconds("five"), Err(ValueError::NotSeconds("five".into())));
        for out in ["0", "-1", "86401", "inf", "NaN"] {
            assert_eq!(seconds(out), Err(ValueError::SecondsOutOfRange(out.into())));
        }
    }

    #[test]
    fn byte_sizes_take_binary_units() {
        assert_eq!(bytes("65536"), Ok(65536));
        assert_eq!(bytes("64K"), Ok(64 << 10));
        assert_eq!(bytes("1m"), Ok(1 << 20));
        assert_eq!(bytes("2GiB"), Ok(2 << 30));
        for bad in ["1T", "M", "", "99999999999999999999G"] {
            assert_eq!(bytes(bad), Err(ValueError::NotBytes(bad.into())));
        }
    }
}
