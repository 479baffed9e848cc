//! What the answer may see: the read-only paths of its minimal root (or of its Landlock
//! allow-list), found once per answer on the judge's side from trusted inputs only: the
//! system directories; the judge's own `PATH` and the installations found through it
//! (version-manager shims resolved by the manager, when it lies outside every place the
//! command names); the paths the command line names, with the answer's own directory;
//! `--bind` paths (`--env` passes a value, never a path). The answer's words are an
//! [`AnswerCommand`] whose paths are looked at only through
//! [`AnswerCommand::paths`], and its files are data: a `#!` line is read (with
//! [`read_head`](super::untrusted::read_head)) only where the kernel reads it (the command's program is the script), and what it
//! names is shown only when it is a regular executable file the case's user could run on
//! the host, in a system directory or the one the judge's `PATH` finds; otherwise the
//! layout's notes say why. Nothing under a home the command line did not name is shown.
//! Inside all that, whatever must stay hidden is masked: the `--cases` directories, the
//! `examples/` and `target/` of a checkout of this project, and any file identical to the
//! running judge. The whole is made under a deadline ([`Layout::within`]). Every path shown
//! must be one the case's user could read on the host ([`reach`](super::reach)): each is
//! resolved once to its real path, and a path the command line names (or `--bind`) must
//! also be reachable, every directory on the way crossable; one that is not is refused
//! before the first case, saying which directory and why.
//!
//! This file holds what a layout is ([`Layout`], made from a [`Request`], or
//! [`Unfinished`]) and the system directories ([`SYSTEM`]), which the helpers show too; the
//! paths are gathered in [`shown`], the kernel's `#!` rules are [`shebang`]'s, what stays
//! hidden is [`masks`]'s, and the thread that makes a layout under its deadline is
//! [`deadline`]'s.

mod deadline;
pub mod masks;
mod shebang;
mod shown;

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::spec::Bound;
pub use super::spec::SYSTEM;
use super::untrusted::AnswerCommand;

/// What the answer's root is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The command, its program resolved through a version manager's shim when it is one.
    pub command: AnswerCommand,
    /// Paths bound read-only at the same place, beyond [`SYSTEM`]; parents before children.
    pub ro: Vec<PathBuf>,
    /// How each of `ro` is made: from its real path, checked as the case's user.
    pub bound: Vec<Bound>,
    /// Paths inside those that are hidden.
    pub masks: Vec<PathBuf>,
    /// Why an interpreter a `#!` line names is not shown, one line each.
    pub notes: Vec<String>,
}

/// What the layout is made from.
#[derive(Clone, Debug)]
pub struct Request {
    /// The answer's command (relative paths already made absolute).
    pub command: AnswerCommand,
    /// `PATH` as the judge has it (and the answer gets it).
    pub path: Option<OsString>,
    /// `--bind` paths.
    pub binds: Vec<PathBuf>,
    /// The values of the variables passed with `--env`: passed, never bound (a copy of the
    /// judge one names is not masked where something else shows it).
    pub env_values: Vec<OsString>,
    /// `--cases` directories.
    pub cases: Vec<PathBuf>,
    /// The running judge.
    pub exe: PathBuf,
    /// The judge's home directory, never bound whole.
    pub home: Option<PathBuf>,
    /// True when the command names the judge itself: it is not masked then.
    pub judge_named: bool,
    /// The user id cases run as when they have one of their own (the first of the judge's
    /// range): an interpreter is shown only if any user could run it on the host, and every
    /// path only if that user could read it. `None`: cases run as the judge.
    pub case_uid: Option<u32>,
}

/// Why no layout was made.
#[derive(Debug, thiserror::Error)]
pub enum Unfinished {
    /// The judge was interrupted while making it.
    #[error("interrupted while the jail was being prepared")]
    Interrupted,
    /// It took longer than its deadline.
    #[error(
        "preparing the jail took more than {} s (a path the command names, or a file in it, \
         is slow to read); no case ran",
        .0.as_secs()
    )]
    TooSlow(Duration),
    /// The thread making it ended without one.
    #[error("preparing the jail failed: the layout's thread ended without a layout")]
    Lost,
    /// A path the jail would show is one the case's user could not read on the host.
    #[error("{0}")]
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Closed(String),
}

impl Layout {
    /// What an answer run under `--sandbox none` is given: its command as it is, nothing
    /// bound, nothing masked (it sees what the user sees).
    pub fn unconfined(command: AnswerCommand) -> Layout {
        Layout {
            command,
            ro: Vec::new(),
            bound: Vec::new(),
            masks: Vec::new(),
            notes: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    #[cfg(unix)]
    use std::time::Instant;

    fn request(command: &[OsString], exe: &Path, cases: &[PathBuf]) -> Request {
        Request {
            command: AnswerCommand::from_words(command.to_vec()).expect("a command"),
            path: None,
            binds: Vec::new(),
            env_values: Vec::new(),
            cases: cases.to_vec(),
            exe: exe.to_path_buf(),
            home: None,
            judge_named: false,
            case_uid: None,
        }
    }

    #[cfg(unix)]
    fn executable(path: &Path, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }

    #[test]
    #[cfg(unix)]
    fn a_script_brings_its_own_directory_and_the_prefix_of_the_interpreter_path_finds() {
        let dir = tempfile::tempdir().expect("temp dir");
        let prefix = dir.path().join("py");
        std::fs::create_dir_all(prefix.join("lib")).expect("mkdir");
        let python = prefix.join("bin/python3");
        executable(&python, "");
        let answer = dir.path().join("answer");
        let script = answer.join("a.py");
        executable(&script, &format!("#!{}\nprint(2)\n", python.display()));
        let command = [script.clone().into_os_string()];
        let exe = dir.path().join("no-judge");
        let mut req = request(&command, &exe, &[]);
        req.path = Some(prefix.join("bin").into_os_string());
        let layout = Layout::new(&req);
        assert!(layout.ro.contains(&answer), "{layout:?}");
        assert!(layout.ro.contains(&prefix), "{layout:?}");
        assert!(layout.notes.is_empty(), "{layout:?}");
        // Off the judge's PATH the same interpreter is not shown, and the notes say why.
        req.path = None;
        let layout = Layout::new(&req);
        assert_eq!(layout.ro, vec![answer], "{layout:?}");
        assert!(
            layout.notes[0].contains("is not shown to the answer: it is neither in a system"),
            "{layout:?}"
        );
    }

    #[test]
    #[cfg(unix)]
    fn a_shebang_is_read_only_when_the_script_is_the_program() {
        let dir = tempfile::tempdir().expect("temp dir");
        let secret = dir.path().join("home/.ssh");
        executable(&secret.join("id_rsa"), "KEY");
        let script = dir.path().join("answer/a.py");
        executable(&script, &format!("#!{}\n", secret.join("id_rsa").display()));
        let command = [OsString::from("/bin/sh"), script.clone().into_os_string()];
        let exe = dir.path().join("no-judge");
        let layout = Layout::new(&request(&command, &exe, &[]));
        assert_eq!(layout.ro, vec![dir.path().join("answer")], "{layout:?}");
        assert!(layout.notes.is_empty(), "{layout:?}");
    }

    #[test]
    #[cfg(unix)]
    fn a_fifo_in_a_shebang_neither_hangs_nor_is_shown() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o755))
            .expect("mkfifo");
        let script = dir.path().join("answer/a.sh");
        executable(&script, &format!("#!{}\n", fifo.display()));
        let command = [script.into_os_string()];
        let exe = dir.path().join("no-judge");
        let started = Instant::now();
        let layout = Layout::within(
            request(&command, &exe, &[]),
            Duration::from_secs(5),
            &|| false,
        )
        .expect("made in time");
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(!layout.ro.contains(&fifo), "{layout:?}");
        assert!(layout.notes[0].contains("is not shown"), "{layout:?}");
    }

    #[test]
    fn a_copy_of_the_judge_and_a_checkouts_answers_are_masked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let exe = dir.path().join("judge");
        std::fs::write(&exe, b"\x7fELF judge bytes").expect("write");
        let checkout = dir.path().join("repo");
        std::fs::create_dir_all(checkout.join("examples/beast")).expect("mkdir");
        std::fs::create_dir_all(checkout.join("target/debug")).expect("mkdir");
        std::fs::write(
            checkout.join("Cargo.toml"),
            "[package]\nname = \"beast-judge\"\n",
        )
        .expect("write");
        std::fs::write(checkout.join("bin-copy"), b"\x7fELF judge bytes").expect("write");
        let script = checkout.join("a.sh");
        std::fs::write(&script, "echo 2\n").expect("write");
        let command = [OsString::from("/bin/sh"), script.into_os_string()];
        let layout = Layout::new(&request(&command, &exe, &[]));
        assert!(layout.ro.contains(&checkout), "{layout:?}");
        for hidden in ["examples", "target", "bin-copy"] {
            assert!(
                layout.masks.contains(&checkout.join(hidden)),
                "{hidden}: {layout:?}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_mask_follows_the_bound_path_through_a_symlink() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("cases")).expect("mkdir");
        let script = real.join("cheat.sh");
        std::fs::write(&script, "cat cases/*.out\n").expect("write");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        let command = [
            OsString::from("/bin/sh"),
            link.join("cheat.sh").into_os_string(),
        ];
        let exe = dir.path().join("none");
        let cases = [real.join("cases")];
        let layout = Layout::new(&request(&command, &exe, &cases));
        assert!(layout.ro.contains(&link), "{layout:?}");
        assert!(layout.masks.contains(&link.join("cases")), "{layout:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_mask_is_placed_at_every_path_that_shows_the_hidden_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("cases")).expect("mkdir");
        std::fs::write(real.join("cheat.sh"), "cat cases/*.out\n").expect("write");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        // The program's directory through the link, its installation at the real path.
        let command = [link.join("cheat.sh").into_os_string()];
        let exe = dir.path().join("none");
        let cases = [real.join("cases")];
        let layout = Layout::new(&request(&command, &exe, &cases));
        assert!(
            layout.ro.contains(&link) && layout.ro.contains(&real),
            "{layout:?}"
        );
        for shown in [&link, &real] {
            assert!(layout.masks.contains(&shown.join("cases")), "{layout:?}");
        }
    }

    #[test]
    fn a_repositorys_history_is_masked_and_an_older_judge_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = dir.path().join("answers");
        std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
        std::fs::create_dir_all(repo.join("old/target/debug/deps")).expect("mkdir");
        std::fs::write(
            repo.join("old/target/debug/deps/beast-0123abcd"),
            b"\x7fELF older",
        )
        .expect("write");
        std::fs::write(repo.join("old/beast"), b"\x7fELF older").expect("write");
        std::fs::write(repo.join("old/beast.txt"), b"notes").expect("write");
        let script = repo.join("a.sh");
        std::fs::write(&script, "echo 2\n").expect("write");
        let command = [OsString::from("/bin/sh"), script.into_os_string()];
        let exe = dir.path().join("judge");
        std::fs::write(&exe, b"\x7fELF this build").expect("write");
        let layout = Layout::new(&request(&command, &exe, &[]));
        for hidden in [".git", "old/target/debug/deps/beast-0123abcd", "old/beast"] {
            assert!(
                layout.masks.contains(&repo.join(hidden)),
                "{hidden}: {layout:?}"
            );
        }
        assert!(
            !layout.masks.contains(&repo.join("old/beast.txt")),
            "{layout:?}"
        );
    }

    #[test]
    fn a_home_directory_named_on_the_command_line_is_not_shown() {
        let home = tempfile::tempdir().expect("temp dir");
        let command = [
            OsString::from("/bin/ls"),
            home.path().as_os_str().to_os_string(),
        ];
        let exe = home.path().join("none");
        let mut req = request(&command, &exe, &[]);
        req.home = Some(home.path().to_path_buf());
        let layout = Layout::new(&req);
        assert!(layout.ro.is_empty(), "{layout:?}");
    }

    #[test]
    fn a_file_in_the_home_directory_is_bound_alone() {
        let home = tempfile::tempdir().expect("temp dir");
        let script = home.path().join("a.sh");
        std::fs::write(&script, "echo 2\n").expect("write");
        let command = [OsString::from("/bin/sh"), script.clone().into_os_string()];
        let exe = home.path().join("none");
        let mut req = request(&command, &exe, &[]);
        req.home = Some(home.path().to_path_buf());
        let layout = Layout::new(&req);
        assert_eq!(layout.ro, vec![script]);
    }

    /// Whatever an answer's files hold (`#!` lines naming shims of its own, secrets under
    /// a home, FIFOs, symlinks, random text), every path shown lies within the trusted
    /// inputs: the system directories, the installations the judge's `PATH` finds, and the
    /// paths the command line names with their own directories. No shim of the answer's is
    /// run, and the layout is made at once.
    #[cfg(unix)]
    mod property {
        use super::*;
        use proptest::prelude::*;
        use std::os::unix::fs::PermissionsExt;

        /// A host with a judge's `PATH`, a home holding secrets, and an answer's directory
        /// holding hostile files.
        struct World {
            _dir: tempfile::TempDir,
            root: PathBuf,
        }

        impl World {
            fn new() -> World {
                let dir = tempfile::tempdir().expect("temp dir");
                let root = dir.path().to_path_buf();
                let home = root.join("home");
                let answer = root.join("answer");
                std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
                // Executable, so that only where it lies keeps it out.
                executable(&home.join(".ssh/id_rsa"), "SECRET");
                std::fs::write(home.join(".git-credentials"), "SECRET").expect("write");
                executable(&home.join("bin/tool"), "#!/bin/sh\n");
                executable(&root.join("inst/bin/python3"), "#!/bin/sh\n");
                std::fs::create_dir_all(root.join("inst/lib")).expect("mkdir");
                executable(&root.join("closed/bin/closedtool"), "#!/bin/sh\n");
                std::fs::set_permissions(
                    root.join("closed"),
                    std::fs::Permissions::from_mode(0o700),
                )
                .expect("chmod");
                executable(
                    &answer.join("shims/python3"),
                    &format!("#!{}\n", home.join(".ssh/id_rsa").display()),
                );
                executable(
                    &answer.join("libexec/pyenv"),
                    &format!(
                        "#!/bin/sh\ntouch '{}'\necho {}\n",
                        root.join("marker").display(),
                        home.join(".ssh/id_rsa").display()
                    ),
                );
                nix::unistd::mkfifo(
                    &answer.join("fifo"),
                    nix::sys::stat::Mode::from_bits_truncate(0o755),
                )
                .expect("mkfifo");
                let link = |to: &Path, name: &str| {
                    std::os::unix::fs::symlink(to, answer.join(name)).expect("link");
                };
                link(&home.join(".ssh/id_rsa"), "link-key");
                link(&home.join(".ssh"), "link-ssh");
                link(&home, "link-home");
                World { _dir: dir, root }
            }

            fn at(&self, rest: &str) -> PathBuf {
                self.root.join(rest)
            }

            /// The `#!` lines an answer may write.
            fn shebangs(&self) -> Vec<String> {
                let p = |rest: &str| self.at(rest).display().to_string();
                vec![
                    format!("#!{}", p("answer/shims/python3")),
                    format!("#!/usr/bin/env {}", p("answer/shims/python3")),
                    "#!/usr/bin/env python3".to_string(),
                    "#!/usr/bin/env shims/python3".to_string(),
                    format!("#!{}", p("home/.ssh/id_rsa")),
                    format!("#!{}", p("home/.ssh")),
                    format!("#!{}", p("answer/link-key")),
                    format!("#!{}/id_rsa", p("answer/link-ssh")),
                    format!("#!{}/.git-credentials", p("answer/link-home")),
                    format!("#!{}", p("answer/fifo")),
                    "#!/bin/sh".to_string(),
                    format!("#!{}", p("home/bin/tool")),
                    "#!/usr/bin/env tool".to_string(),
                    format!("#!{}", p("closed/bin/closedtool")),
                    "#!/usr/bin/env -S closedtool -x".to_string(),
                    "#!relative/python3".to_string(),
                    format!("#!{} -u", p("inst/bin/python3")),
                ]
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]
            #[test]
            fn every_path_shown_lies_within_the_trusted_inputs(
                pick in 0usize..64,
                random in "#![ -~]{0,40}",
                shape in 0usize..7,
                own_uid in any::<bool>(),
                answers_path in any::<bool>(),
            ) {
                let w = World::new();
                let lines = w.shebangs();
                let line = lines.get(pick).cloned().unwrap_or(random);
                let script = w.at("answer/a.py");
                executable(&script, &format!("{line}\nprint(2)\n"));
                let os = |p: PathBuf| p.into_os_string();
                let command: Vec<OsString> = match shape {
                    0 => vec![os(script.clone())],
                    1 => vec!["python3".into(), os(script.clone())],
                    2 => vec![os(w.at("answer/link-key"))],
                    3 => vec!["sh".into(), os(w.at("answer/link-ssh"))],
                    4 => vec![os(w.at("answer/fifo"))],
                    5 => vec!["/bin/sh".into(), os(script.clone()), os(w.at("home/.ssh/id_rsa"))],
                    _ => vec![os(w.at("answer/shims/python3")), os(script.clone())],
                };
                // A judge's PATH may hold the answer's own directory (a CI job that put
                // `./shims` on it): what lies there is still the answer's.
                let first = if answers_path { "answer/shims" } else { "inst/bin" };
                let path = std::env::join_paths([
                    w.at(first),
                    w.at("inst/bin"),
                    w.at("home/bin"),
                    w.at("closed/bin"),
                    PathBuf::from("/usr/bin"),
                    PathBuf::from("/bin"),
                ])
                .expect("a PATH");
                let req = Request {
                    path: Some(path),
                    home: Some(w.at("home")),
                    case_uid: own_uid.then_some(crate::cli::sandbox::uids::FIRST_UID),
                    ..request(&command, &w.at("no-judge"), &[])
                };
                let started = Instant::now();
                let layout = Layout::new(&req);
                prop_assert!(started.elapsed() < Duration::from_secs(3));
                prop_assert!(!w.at("marker").exists(), "an answer's shim ran: {layout:?}");
                let mut trusted: Vec<PathBuf> = SYSTEM.iter().map(PathBuf::from).collect();
                trusted.extend([w.at("inst"), w.at("home/bin"), w.at("closed/bin")]);
                for word in &command {
                    let p = Path::new(word);
                    if p.is_absolute() {
                        trusted.push(p.to_path_buf());
                        trusted.extend(p.parent().map(Path::to_path_buf));
                    }
                }
                for shown in &layout.ro {
                    prop_assert!(
                        trusted.iter().any(|t| shown.starts_with(t)),
                        "{} is no trusted input: {line:?} {command:?} {layout:?}",
                        shown.display()
                    );
                    let real = shown.canonicalize().unwrap_or_else(|_| shown.clone());
                    let secret = real.starts_with(w.at("home/.ssh"))
                        || real == w.at("home/.git-credentials")
                        || real == w.at("home");
                    prop_assert!(
                        !secret || shape == 5,
                        "{} shows a secret: {line:?} {command:?} {layout:?}",
                        shown.display()
                    );
                    prop_assert!(
                        !(own_uid && real.starts_with(w.at("closed"))),
                        "{} is closed to the case's user: {layout:?}",
                        shown.display()
                    );
                }
            }
        }
    }
}
