//! The words of the reports about the sandbox (the judge's side): [`Sandbox::summary`], what
//! is in force and what is missing, as the JSON summary's `sandbox` object and the report's
//! first line.

use beast_engine::judge::record::SandboxRecord;

use super::Sandbox;
use super::cgroup::Cgroups;
use super::level::Mechanism;
use super::limits::{MemoryLimit, PROCESSES};
use crate::cli::platform;

/// The namespaces of the jail, as the report names them.
pub const NAMESPACES: [&str; 7] = ["user", "mount", "pid", "net", "ipc", "uts", "cgroup"];

impl Sandbox {
    /// What is in force and what is missing, as the reports carry it (the JSON summary's
    /// `sandbox` object, with the report's first line in `line`).
    pub fn summary(&self) -> SandboxRecord {
        let (mut protections, mut missing) = self.mechanism_words();
        let host = &self.host;
        let contained = self.mechanism != Mechanism::None;
        if contained {
            protections.push(match (&host.uids, host.root) {
                (Some(pool), true) => format!("own uid per case from {}", pool.first()),
                (Some(pool), false) => format!(
                    "own subordinate uid per case from {} (/etc/subuid, newuidmap)",
                    pool.first()
                ),
                (None, _) => match (&host.no_subordinate, self.mechanism) {
                    (Some(why), Mechanism::Jail) => {
                        format!("the judge's uid, never root (no subordinate uid: {why})")
                    }
                    _ => "the judge's uid, never root".to_string(),
                },
            });
            protections.push("no capabilities".to_string());
            protections.push("seccomp".to_string());
        }
        let memory_limit = self.memory_limit();
        let m = self.memory_mib;
        match memory_limit {
            Some(MemoryLimit::Cgroup) => protections.push(format!("memory cgroup {m} MiB")),
            Some(MemoryLimit::AddressSpace) => {
                let why = host.no_memory_cgroup.as_deref().unwrap_or("no cgroup");
                missing.push(format!(
                    "memory cgroup ({why}): memory is RLIMIT_AS {m} MiB, so a JVM needs --memory 0"
                ));
            }
            None => {}
        }
        let pids_cgroup = self.cgroups().is_some_and(Cgroups::has_pids);
        if contained {
            if pids_cgroup {
                protections.push(format!("pids cgroup {PROCESSES}"));
            } else {
                let why = host.no_pids_cgroup.as_deref().unwrap_or("no cgroup");
                missing.push(format!(
                    "pids cgroup ({why}): processes are RLIMIT_NPROC {}",
                    2 * PROCESSES
                ));
            }
            protections.push("env cleared".to_string());
            protections.push("inherited fds closed".to_string());
        }
        SandboxRecord {
            mechanism: self.mechanism.name().to_string(),
            namespaces: match self.mechanism {
                Mechanism::Jail => NAMESPACES.map(str::to_string).to_vec(),
                _ => Vec::new(),
            },
            memory_mib: memory_limit.map(|_| self.memory_mib),
            memory_limit: memory_limit.map(|kind| kind.name().to_string()),
            processes: contained.then_some(self.nproc().unwrap_or(PROCESSES)),
            env_cleared: contained,
            run_as_uid: host.uids.as_ref().filter(|_| contained).map(|p| p.first()),
            line: summary_line(self.mechanism, self.origin(), &protections, &missing),
            protections,
            missing,
        }
    }

    /// Whether the mechanism in force is the one asked for or a fallback from the jail.
    fn origin(&self) -> Origin {
        match self.host.no_jail {
            None => Origin::Asked,
            Some(_) => Origin::FellBack,
        }
    }

    /// What the mechanism itself holds, and what it leaves missing, in words.
    fn mechanism_words(&self) -> (Vec<String>, Vec<String>) {
        let no_jail = self.host.no_jail.as_ref();
        match self.mechanism {
            Mechanism::Jail => (
                vec![
                    format!("{} namespaces", NAMESPACES.join("+")),
                    "minimal root".to_string(),
                    "mounts locked".to_string(),
                ],
                Vec::new(),
            ),
            Mechanism::Basic => (
                vec!["Landlock file access".to_string()],
                vec![match no_jail {
                    Some(why) => format!("namespaces ({why})"),
                    None => "namespaces (--sandbox basic)".to_string(),
                }],
            ),
            Mechanism::None => (
                vec![platform::CONTAINMENT.to_string()],
                vec![match no_jail {
                    Some(why) => format!("the jail ({why})"),
                    None => "everything else (--sandbox none)".to_string(),
                }],
            ),
        }
    }
}

/// Whether the mechanism in force is the one `--sandbox` asked for, or the one the judge
/// fell back to because the jail could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// The mechanism asked for.
    Asked,
    /// A fallback: the jail could not be had.
    FellBack,
}

/// The report's first line (`line` of [`Sandbox::summary`]), e.g. `sandbox: jail:
/// user+mount+... namespaces, ...`: the mechanism, what is in force, and what is missing.
/// `--sandbox none` asked for says only that the command runs unconfined.
fn summary_line(
    mechanism: Mechanism,
    origin: Origin,
    protections: &[String],
    missing: &[String],
) -> String {
    let name = match mechanism {
        Mechanism::None => "none (the command runs unconfined)",
        m => m.name(),
    };
    let mut line = format!("sandbox: {name}");
    if mechanism == Mechanism::None && origin == Origin::Asked {
        return line;
    }
    if !protections.is_empty() {
        line.push_str(": ");
        line.push_str(&protections.join(", "));
    }
    if !missing.is_empty() {
        line.push_str("; missing: ");
        line.push_str(&missing.join("; "));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_line_names_what_is_in_force_and_what_is_missing() {
        let words = |v: &[&str]| v.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            summary_line(
                Mechanism::Jail,
                Origin::Asked,
                &words(&["minimal root", "seccomp"]),
                &words(&["memory cgroup (no)"])
            ),
            "sandbox: jail: minimal root, seccomp; missing: memory cgroup (no)"
        );
        let group = words(&["a process group"]);
        assert_eq!(
            summary_line(
                Mechanism::None,
                Origin::Asked,
                &group,
                &words(&["everything else (--sandbox none)"])
            ),
            "sandbox: none (the command runs unconfined)"
        );
        assert_eq!(
            summary_line(
                Mechanism::None,
                Origin::FellBack,
                &group,
                &words(&["the jail (no jail in this build)"])
            ),
            "sandbox: none (the command runs unconfined): a process group; missing: the jail \
             (no jail in this build)"
        );
    }
}
