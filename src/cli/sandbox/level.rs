//! `--sandbox` and what it leads to (the judge's side): the [`Level`] asked for and the
//! [`Mechanism`] in force, whose name the reports carry. Which mechanism a level gets on
//! this machine is [`host`](super::host)'s to find.

/// `--sandbox`: how strongly the answer is contained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// The strongest level this machine allows: the jail where user namespaces work, else
    /// `basic`; cgroups where they can be made, else rlimits. The first line says which.
    #[default]
    Auto,
    /// The jail with a cgroup per case for memory and processes; exit 2 naming what is
    /// missing otherwise.
    Strict,
    /// No namespaces: Landlock over the same allow-list, seccomp, limits, a cleared
    /// environment, a private directory, and a kill of every descendant after each case.
    Basic,
    /// Nothing: the command runs as it is, at full speed. For your own, trusted answer.
    None,
}

/// The mechanism chosen for a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mechanism {
    /// The jail: a `beast __contain` outer process and its zygote, pid 1 of fresh user,
    /// mount, pid, network, IPC, UTS and cgroup namespaces, in a minimal root, which starts
    /// each case in namespaces of its own (see [`zygote`](super::zygote)).
    #[cfg_attr(not(jail), allow(dead_code))]
    Jail,
    /// A `beast __contain keep` helper confined by Landlock that starts the answer and
    /// kills its whole tree.
    Basic,
    /// The answer runs directly, in its own process group.
    None,
}

impl Mechanism {
    /// Its name in the reports: `jail`, `basic` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Jail => "jail",
            Mechanism::Basic => "basic",
            Mechanism::None => "none",
        }
    }
}
