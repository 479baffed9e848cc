//! The flags of `beast check` as clap reads them: [`Args`] and the enums of its values.
//! The plan (`plan.rs`) checks them together and turns them into what the run follows;
//! each enum converts into the type of the module that uses it (`InputArg` into the
//! runner's `InputMode`, `SandboxArg` into the sandbox's `Level`, `EncodingArg` into the
//! engine's `Encoding`, here; `FormatArg` and `ShrinkArg` into the plan's, there). This
//! module imports nothing of the plan's.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use beast_engine::judge::cases::{self, Shard};
use beast_engine::judge::post::Encoding;

use super::runner::InputMode;
use crate::cli::r#gen::GenArgs;
use crate::cli::sandbox::Level;

/// Arguments of `beast check`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "beast check [OPTIONS] -- <CMD>...\n       \
                      beast check [OPTIONS] --answers <FILE>\n       \
                      beast check [OPTIONS] --merge <FILE>...",
    after_help = "Verdicts: AC accepted, WA wrong answer, PE only whitespace differs, \
    TLE time limit, RTE non-zero exit or signal, OLE output limit, MLE memory limit, \
    IE internal error: the sandbox could not set the case up (tried twice; not the answer's \
    failure).\n\
    Exit codes: 0 every case passed, 1 a case failed (also when stdout is closed early; \
    with --answers: an answer failed or cannot start), 2 usage error, the command cannot \
    start, shards that do not merge, or an IE."
)]
pub struct Args {
    /// Also run NAME.in/NAME.out (or NAME.txt/NAME.out, with optional NAME.args) pairs from DIR.
    #[arg(long, value_name = "DIR")]
    pub cases: Vec<PathBuf>,
    /// Also run N generated puzzles, at most 10 million (see the Generation options).
    #[arg(long, value_name = "N", value_parser = cases::random_count)]
    pub random: Option<usize>,
    /// Seed of the random cases [default: from the clock, printed]. Case I uses the Ith
    /// number of the ChaCha8 stream seeded with it as its `beast gen --seed`.
    #[arg(long, value_name = "S", requires = "random")]
    pub seed: Option<u64>,
    /// Leave out the built-in samples and rule examples.
    #[arg(long)]
    pub no_builtin: bool,
    /// Also run the robustness set: input the challenge does not promise (each random case's
    /// twin with CRLF line ends or the moves split over lines, as its seed draws; built-in
    /// examples beyond the promise). Reported in a section of its own; never a failure.
    #[arg(long)]
    pub robustness: bool,
    /// Run only shard K of N: every Nth case of the list, from the Kth.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// How the candidate gets the puzzle: on stdin, as one argument, or as a file path
    /// (`{}` in the command is replaced by the argument or path; otherwise it is appended).
    #[arg(long, value_enum, default_value_t = InputArg::Stdin)]
    pub input: InputArg,
    /// Time limit per run, in seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS", default_value = "5", env = "BEAST_TIMEOUT",
          value_parser = crate::cli::values::seconds)]
    pub timeout: Duration,
    /// Output limit per run, in bytes (suffixes K and M allowed).
    #[arg(long, value_name = "BYTES", default_value = "1M", value_parser = crate::cli::values::bytes)]
    pub max_output: usize,
    /// Compare bytes exactly; whitespace differences (PE) then fail.
    #[arg(long)]
    pub strict: bool,
    /// Which failures to shrink: the case each group shows (`group`), every failure
    /// (`all`), only the first group's (`first`), or none.
    #[arg(long, value_enum, default_value_t = ShrinkArg::Group, value_name = "WHICH")]
    pub shrink: ShrinkArg,
    /// The same as `--shrink none`.
    #[arg(long)]
    pub no_shrink: bool,
    /// Run every case N more times and call the answer flaky where its outputs differ
    /// [default: only each group's shown failure, twice].
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub repeat: u32,
    /// Write, for every failure group a reading explains, its smallest case (`group-N.txt`)
    /// and the page comparing our reading with it (`group-N.html`, as `beast --html
    /// --compare` makes it) into DIR.
    #[arg(long, value_name = "DIR")]
    pub html_dir: Option<PathBuf>,
    /// The most smaller puzzles shrinking looks at, per group (each one the answer runs
    /// on costs a run): a count, so the case shown is the same on every machine.
    #[arg(long, value_name = "N", default_value_t = beast_engine::judge::shrink::DEFAULT_BUDGET)]
    pub shrink_tries: usize,
    /// The engine's budget for judging one case, in steps (a step is 4096 turns of its
    /// game): a case past it is skipped as too large to judge, on every machine alike.
    #[arg(long, value_name = "N", default_value_t = beast_engine::judge::budget::Steps::CASE.0)]
    pub engine_steps: u64,
    /// Gone: shrinking is bounded by `--shrink-tries` (refused, with that hint).
    #[arg(long, hide = true, value_name = "SECONDS")]
    pub shrink_time: Option<String>,
    /// Gone: the engine is bounded by `--engine-steps` (refused, with that hint).
    #[arg(long, hide = true, value_name = "SECONDS")]
    pub engine_time: Option<String>,
    /// Run only the cases whose name matches PATTERN (`*` and `?` globs; repeatable).
    #[arg(long, value_name = "PATTERN")]
    pub only: Vec<String>,
    /// Print the names of the cases that would run, and stop.
    #[arg(long)]
    pub list: bool,
    /// The answer's source file, for the golf score in bytes and characters [default: the
    /// script the command names, if it exists]; `none` turns the score off.
    #[arg(long, value_name = "FILE")]
    pub source: Option<PathBuf>,
    /// Cases run at once [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N", env = "BEAST_JOBS",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Stop at the first failure.
    #[arg(long)]
    pub fail_fast: bool,
    /// How strongly the candidate is contained: auto (the strongest this machine allows),
    /// strict (the jail with cgroups, or exit 2), basic (no namespaces), none (trusted,
    /// full speed).
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto, env = "BEAST_SANDBOX")]
    pub sandbox: SandboxArg,
    /// Memory limit per case in MiB (0: none): the case's cgroup (resident memory, tmpfs
    /// and shared memory included), or its address space where no cgroup can be made;
    /// running out of it is MLE.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory: u64,
    /// Also show the answer this path, read-only, at the same place (repeatable). The
    /// answer sees the system directories, its program with its installation, the paths
    /// its command names and its own directory, and nothing else.
    #[arg(long, value_name = "PATH")]
    pub bind: Vec<PathBuf>,
    /// Pass this environment variable on to the candidate (repeatable); the rest is
    /// cleared but for PATH, LANG, LC_* and TERM.
    #[arg(long, value_name = "NAME")]
    pub env: Vec<OsString>,
    /// Print every case, passing ones too, and skipped example pairs.
    #[arg(short, long)]
    pub verbose: bool,
    #[command(flatten)]
    pub gen_args: GenArgs,
    /// Judge every answer listed in FILE over the same cases, in one pool of jobs, and rank
    /// them in a leaderboard (a TOML file of `[[answer]]` tables with a name, a command and
    /// optionally `input` and `source`; see examples/challenge/answers.toml).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["command", "source"])]
    pub answers: Option<PathBuf>,
    /// Judge every answer of a challenge's saved Stack Exchange API 2.3 answer pages (the
    /// JSON of `/2.3/questions/ID/answers`, filter `withbody` or one with `body_markdown`;
    /// several pages are joined): each answer's header, code and flags read, its size
    /// audited, run as --answers runs them and ranked. `--list` shows what would run.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["command", "answers", "source", "post"])]
    pub page: Vec<PathBuf>,
    /// With --page: write each answer's code to DIR/NAME/ and DIR/answers.toml (for
    /// --answers), and run nothing.
    #[arg(long, value_name = "DIR", requires = "page")]
    pub extract: Option<PathBuf>,
    /// With --page: more languages, a TOML file of `[[language]]` tables (see `beast
    /// languages`), before the built-in ones.
    #[arg(long, value_name = "FILE", requires = "page")]
    pub languages: Option<PathBuf>,
    /// With --answers: write each answer's report to DIR/NAME.txt and DIR/NAME.json instead
    /// of printing it under the leaderboard.
    #[arg(long, value_name = "DIR")]
    pub report_dir: Option<PathBuf>,
    /// Merge the outputs of `beast check --shard K/N --format json` runs (every shard,
    /// once) into the report one run of every case prints; groups show their smallest case
    /// unshrunk. Refuses (exit 2) shards of different seeds, cases, answers or versions.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        conflicts_with_all = ["command", "answers", "page", "shard", "random", "cases", "only", "list"]
    )]
    pub merge: Vec<PathBuf>,
    /// Print the Code Golf answer post of the answer once every case passes: the header
    /// (language and bytes), the code as a Markdown block, and what it passed. The report's
    /// summary goes to stderr; a failing answer gets its report and no post.
    #[arg(long, conflicts_with_all = ["answers", "merge", "format"])]
    pub post: bool,
    /// The language the post names [default: the interpreter's name and version, from
    /// `CMD --version` or the script's `#!` line].
    #[arg(long, value_name = "NAME", requires = "post")]
    pub language: Option<String>,
    /// How the post counts bytes: every byte of the file (`utf-8`), or one a character
    /// where ISO 8859-1 encodes the code (`latin-1`).
    #[arg(long, value_enum, default_value_t = EncodingArg::Utf8, requires = "post")]
    pub encoding: EncodingArg,
    /// Print only the summary line (and errors): no sandbox line, notes, progress bar,
    /// groups or diagnosis.
    #[arg(short, long, conflicts_with_all = ["verbose", "post", "format", "list"])]
    pub quiet: bool,
    /// Count every byte of the source in the score and the post, the `#!` line and the
    /// final newline too.
    #[arg(long)]
    pub count_all: bool,
    /// Words before `--` that are not beast's options: refused, since the answer's
    /// command goes after `--` (see [`misplaced_command`]).
    #[arg(hide = true, value_name = "WORD")]
    pub misplaced: Vec<OsString>,
    /// The candidate command and its arguments, after `--`: every word there is the
    /// answer's, and none before it.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

/// The refusal of a command that is not after `--` (`beast check python3 a.py`), or of no
/// command at all, before anything runs; `None` when the command is where it belongs.
pub fn misplaced_command(args: &Args) -> Option<String> {
    let shown = |words: &[OsString]| {
        words
            .iter()
            .map(|w| w.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if !args.misplaced.is_empty() {
        let mut line = shown(&args.misplaced);
        if !args.command.is_empty() {
            line = format!("{line} {}", shown(&args.command));
        }
        return Some(format!(
            "put the answer's command after `--`: beast check [OPTIONS] -- {line}\n\
             (beast's options go before `--`, and every word after it is the answer's)"
        ));
    }
    let other_work = args.answers.is_some() || !args.merge.is_empty() || !args.page.is_empty();
    (args.command.is_empty() && !other_work).then(|| {
        "no answer to check: put its command after `--` (beast check [OPTIONS] -- python3 \
         a.py), or give --answers FILE or --merge FILE..."
            .to_string()
    })
}

/// The refusal of `--shrink-time` or `--engine-time`: a report must not depend on the
/// machine's speed, so these budgets are counts now.
pub fn time_budget_flag(args: &Args) -> Option<String> {
    let (flag, instead, what) = match (&args.shrink_time, &args.engine_time) {
        (Some(_), _) => (
            "--shrink-time",
            "--shrink-tries N",
            "the smaller puzzles looked at per group",
        ),
        (_, Some(_)) => (
            "--engine-time",
            "--engine-steps N",
            "the engine's steps to judge one case",
        ),
        _ => return None,
    };
    Some(format!(
        "{flag} is gone: the searches are bounded by counts, so that a report is the same on \
         every machine; use {instead} ({what}), and `timeout` to cap a whole run"
    ))
}

/// `--shrink`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShrinkArg {
    /// The case each group shows.
    Group,
    /// Every failure; each group shows its smallest.
    All,
    /// Only the first group's case.
    First,
    /// Nothing.
    None,
}

/// `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    /// The groups of failures, the diagnosis, then the summary line.
    Text,
    /// One JSON object per case and a summary object; the summary line goes to stderr.
    /// With --answers a summary object per answer, then the leaderboard object.
    Json,
    /// The leaderboard as a Markdown table, ready to paste into the challenge post.
    Markdown,
}

/// `--input`, and the `input` of an answers file: how the puzzle reaches the candidate.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputArg {
    /// On standard input.
    #[default]
    Stdin,
    /// As one argument, substituted for `{}` or appended.
    Arg,
    /// As the path of a file named `input.txt` in the candidate's private directory,
    /// substituted for `{}` or appended.
    File,
}

impl From<InputArg> for InputMode {
    fn from(i: InputArg) -> InputMode {
        match i {
            InputArg::Stdin => InputMode::Stdin,
            InputArg::Arg => InputMode::Arg,
            InputArg::File => InputMode::File,
        }
    }
}

/// `--sandbox`: how strongly the answer is contained.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SandboxArg {
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

impl From<SandboxArg> for Level {
    fn from(s: SandboxArg) -> Level {
        match s {
            SandboxArg::Auto => Level::Auto,
            SandboxArg::Strict => Level::Strict,
            SandboxArg::Basic => Level::Basic,
            SandboxArg::None => Level::None,
        }
    }
}

/// `--encoding`: how the post counts the code's bytes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodingArg {
    /// Every byte of the file.
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// One byte a character, where ISO 8859-1 encodes every character of the code.
    #[value(name = "latin-1", alias = "latin1")]
    Latin1,
}

impl From<EncodingArg> for Encoding {
    fn from(e: EncodingArg) -> Encoding {
        match e {
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::Latin1 => Encoding::Latin1,
        }
    }
}

/// The input mode an answers file names (`stdin`, `arg` or `file`, any case), as
/// `--input` takes it.
pub fn input_mode(name: &str) -> Option<InputMode> {
    use clap::ValueEnum;
    InputArg::from_str(name, true).ok().map(InputMode::from)
}
