//! Command-line values that clap has no parser for: seconds and byte sizes. Each parser
//! returns a typed error whose message says what was expected.

use std::time::Duration;

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
