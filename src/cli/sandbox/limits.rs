//! The limits in force (the judge's side): what a case may use (its processes, its CPU
//! time, how its memory is limited) and how long the judge spends laying out one answer's
//! jail.

use std::time::Duration;

/// How an answer's memory is limited (`--memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// A memory cgroup per case: what the case holds, measured and capped by the kernel.
    Cgroup,
    /// `RLIMIT_AS` where no memory cgroup can be made: the address space of each process.
    AddressSpace,
}

impl MemoryLimit {
    /// Its name in the reports (`memory_limit` of the JSON summary): `cgroup` or `rlimit`.
    pub fn name(self) -> &'static str {
        match self {
            MemoryLimit::Cgroup => "cgroup",
            MemoryLimit::AddressSpace => "rlimit",
        }
    }
}

/// The longest the judge spends deciding what one answer's jail shows (reading the paths
/// its command names, asking a version manager): past it the check stops, saying so.
pub const LAYOUT_TIME: Duration = Duration::from_secs(10);

/// The most processes a case may have at once.
pub const PROCESSES: u64 = 256;

/// The CPU-time limit: twice the timeout, rounded up to whole seconds.
pub fn cpu_seconds(timeout: Duration) -> u64 {
    (timeout.as_secs_f64() * 2.0).ceil().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_limits_kind_keeps_its_name_in_the_json_summary() {
        assert_eq!(MemoryLimit::Cgroup.name(), "cgroup");
        assert_eq!(MemoryLimit::AddressSpace.name(), "rlimit");
    }

    #[test]
    fn cpu_time_is_twice_the_timeout_rounded_up() {
        assert_eq!(cpu_seconds(Duration::from_millis(300)), 1);
        assert_eq!(cpu_seconds(Duration::from_secs(5)), 10);
        assert_eq!(cpu_seconds(Duration::from_millis(2600)), 6);
    }
}
