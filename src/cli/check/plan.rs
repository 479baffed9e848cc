//! The flags of `beast check` made into a validated [`Plan`], as ripgrep makes its
//! `HiArgs` from its flags: the checks that need several flags at once, the defaults that
//! depend on the machine (the seed, the job count), and the answers to judge are settled
//! here, once. Below this module no code sees [`Args`], and only the reporters see the
//! output format ([`Output`]): the case list gets its [`Sources`], each answer's judge its
//! [`Judging`], the sandbox its [`Containment`].

use std::ffi::OsString;
use std::path::PathBuf;
use std::thread;
use std::time::Duration;

use beast_engine::judge::cases::Shard;
use beast_engine::judge::generate::Recipe;
use beast_engine::judge::post::Encoding;

use super::answers::{self, Answer};
use super::args::{Args, FormatArg, ShrinkArg};
use super::load::{self, Random, Sources};
use crate::cli::error::{self, Error};
use crate::cli::sandbox::Level;
use crate::cli::sandbox::untrusted::AnswerCommand;
use beast_engine::judge::budget::Steps;

/// What `beast check` does, decided from its flags.
pub struct Plan {
    /// Where the cases' results come from.
    pub work: Work,
    /// How each answer's run is concluded.
    pub conclusion: Conclusion,
    /// What is printed and written.
    pub output: Output,
    /// Threads for the cases, the diagnosis and shrinking.
    pub jobs: usize,
}

/// Where the cases' results come from.
pub enum Work {
    /// `--merge`: the outputs of these shards; no answer runs.
    Merge(Vec<PathBuf>),
    /// The answers run on the cases.
    Run(Box<RunPlan>),
}

/// A run of answers over cases.
pub struct RunPlan {
    /// The answers: those of `--answers FILE`, or the one command given.
    pub answers: Vec<Answer>,
    /// True for `--answers`: a leaderboard, and one report an answer.
    pub many: bool,
    /// The cases.
    pub sources: Sources,
    /// True when the seed was drawn from the clock (it is printed).
    pub seed_drawn: bool,
    /// `--list`: print the case names and stop.
    pub list: bool,
    /// How every case is run and judged.
    pub judging: Judging,
    /// How strongly the answers are contained.
    pub containment: Containment,
    /// `--fail-fast`.
    pub fail_fast: bool,
    /// `--count-all`: the score counts every byte of the source.
    pub count_all: bool,
    /// `--page`: the page's answers, ranked at the end (set by `page.rs`).
    pub page: Option<PageAnswers>,
}

/// The answers of `--page` as the run knows them: each one's entry (its outcome filled in
/// at the end) and whether it is one of the run's answers, and the private directory
/// their code and built programs are in (removed with the plan).
pub struct PageAnswers {
    /// Every answer, in page order; `true` when it runs.
    pub entries: Vec<(beast_engine::judge::page::board::Entry, bool)>,
    /// The code's directory, kept until the run ends.
    pub _dir: Option<tempfile::TempDir>,
}

impl RunPlan {
    /// The seed of the random cases, if any.
    pub fn seed(&self) -> Option<u64> {
        self.sources.random.map(|r| r.seed)
    }
}

/// How each case is run and judged.
pub struct Judging {
    /// The time limit of one run.
    pub timeout: Duration,
    /// The output limit of one run, in bytes.
    pub max_output: usize,
    /// Compare bytes exactly (`--strict`).
    pub strict: bool,
    /// Say per case which readings it is consistent with (`-v`).
    pub consistent: bool,
    /// The engine's budget for judging one case (`--engine-steps`).
    pub engine_steps: Steps,
    /// How random cases are generated.
    pub recipe: Recipe,
    /// The same as `beast gen` flags, for the reproduce command.
    pub gen_flags: String,
    /// Keep a passing case's puzzle text in its report: a shard's records carry it.
    pub keep_passing_texts: bool,
}

/// How strongly the answers are contained.
pub struct Containment {
    /// `--sandbox`.
    pub level: Level,
    /// `--memory`, in MiB (0: none).
    pub memory_mib: u64,
    /// `--env` names passed on.
    pub pass_env: Vec<OsString>,
    /// `--bind` paths shown.
    pub binds: Vec<PathBuf>,
}

/// How an answer's run is concluded: its diagnosis and the cases its groups show.
pub struct Conclusion {
    /// Which failures to shrink.
    pub shrink: ShrinkWhich,
    /// The most smaller puzzles shrinking looks at, per group (`--shrink-tries`).
    pub shrink_tries: usize,
    /// `--html-dir`.
    pub html_dir: Option<PathBuf>,
    /// `--repeat`: how many more times every case runs (0: only each group's shown
    /// failure, twice).
    pub repeat: usize,
}

/// Which failures to shrink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShrinkWhich {
    /// The case each group shows.
    Group,
    /// Every failure; each group shows its smallest.
    All,
    /// Only the first group's case.
    First,
    /// Nothing.
    None,
}

impl From<ShrinkArg> for ShrinkWhich {
    fn from(s: ShrinkArg) -> ShrinkWhich {
        match s {
            ShrinkArg::Group => ShrinkWhich::Group,
            ShrinkArg::All => ShrinkWhich::All,
            ShrinkArg::First => ShrinkWhich::First,
            ShrinkArg::None => ShrinkWhich::None,
        }
    }
}

/// What is printed and written.
pub struct Output {
    /// The report on stdout.
    pub format: Format,
    /// Print every case, passing ones too (`-v`).
    pub verbose: bool,
    /// `--junit FILE`.
    pub junit: Option<PathBuf>,
    /// `--report-dir DIR`.
    pub report_dir: Option<PathBuf>,
    /// `--shard K/N`: the JUnit suite's name says it; as JSON the output is a shard's.
    pub shard: Option<Shard>,
    /// `--post`: the answer post instead of the report.
    pub post: Option<Post>,
    /// `-q`: the summary line (and errors) only.
    pub quiet: bool,
}

impl Output {
    /// True when the output is a shard's records, for `--merge`.
    pub fn shard_records(&self) -> bool {
        self.shard.is_some() && self.format == Format::Json
    }
}

/// The report format on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The groups of failures, the diagnosis, then the summary line.
    Text,
    /// One JSON record a line.
    Json,
    /// The leaderboard as a Markdown table.
    Markdown,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
        }
    }
}

/// `--post`: the Code Golf answer post.
#[derive(Clone)]
pub struct Post {
    /// The command of the answer posted (none with `--answers` or `--page`).
    pub command: Option<AnswerCommand>,
    /// `--language`.
    pub language: Option<String>,
    /// `--encoding`.
    pub encoding: Encoding,
    /// `--count-all`: every byte counts, the `#!` line and the final newline too.
    pub count_all: bool,
}

impl Plan {
    /// The plan of `args`; a usage error when the flags do not go together, the answers
    /// file does not read, the command's program or script is missing, or the generation
    /// flags are invalid.
    pub fn new(args: Args) -> Result<Plan, Error> {
        if let Some(why) = super::args::misplaced_command(&args) {
            return Err(error::usage(why));
        }
        if let Some(why) = super::args::time_budget_flag(&args) {
            return Err(error::usage(why));
        }
        let jobs = args.jobs.map_or_else(
            || thread::available_parallelism().map_or(1, |n| n.get()),
            |j| j as usize,
        );
        let conclusion = Conclusion {
            shrink: match args.no_shrink {
                true => ShrinkWhich::None,
                false => args.shrink.into(),
            },
            shrink_tries: args.shrink_tries,
            html_dir: args.html_dir.clone(),
            repeat: args.repeat as usize,
        };
        let output = Output {
            format: args.format.into(),
            verbose: args.verbose,
            junit: args.junit.clone(),
            report_dir: args.report_dir.clone(),
            shard: args.shard,
            post: args.post.then(|| Post {
                command: AnswerCommand::from_words(args.command.clone()),
                language: args.language.clone(),
                encoding: args.encoding.into(),
                count_all: args.count_all,
            }),
            quiet: args.quiet,
        };
        let work = match args.merge.is_empty() {
            false => Work::Merge(args.merge),
            true => Work::Run(Box::new(run(args, output.shard_records())?)),
        };
        Ok(Plan {
            work,
            conclusion,
            output,
            jobs,
        })
    }
}

/// The run `args` ask for; `shard_records` when its output is a shard's.
fn run(args: Args, shard_records: bool) -> Result<RunPlan, Error> {
    if args.shard.is_some() && args.random.is_some() && args.seed.is_none() {
        return Err(error::usage("shards must share a seed: add --seed"));
    }
    let many = args.answers.is_some() || !args.page.is_empty();
    let answers = match &args.answers {
        Some(path) => answers::read(path)?,
        // `--page`: its answers are made by `page.rs` once the pages are read.
        None if many => Vec::new(),
        None => {
            let command = load::command_ready(&args.command).map_err(error::usage)?;
            vec![Answer {
                name: command.shown(),
                command,
                input: args.input.into(),
                source: args.source.clone(),
            }]
        }
    };
    let random = args.random.map(|count| Random {
        count,
        seed: args.seed.unwrap_or_else(crate::cli::seed::fresh_seed),
    });
    let gen_flags = args.gen_args.flags();
    Ok(RunPlan {
        answers,
        many,
        seed_drawn: random.is_some() && args.seed.is_none(),
        list: args.list,
        judging: Judging {
            timeout: args.timeout,
            max_output: args.max_output,
            strict: args.strict,
            consistent: args.verbose,
            engine_steps: Steps(args.engine_steps),
            recipe: args.gen_args.options()?,
            gen_flags: gen_flags.clone(),
            keep_passing_texts: shard_records,
        },
        containment: Containment {
            level: args.sandbox.into(),
            memory_mib: args.memory,
            pass_env: args.env,
            binds: args.bind,
        },
        sources: Sources {
            builtin: !args.no_builtin,
            robustness: args.robustness,
            dirs: args.cases,
            random,
            gen_flags,
            only: args.only,
            shard: args.shard,
            engine_steps: Steps(args.engine_steps),
            verbose: args.verbose,
        },
        fail_fast: args.fail_fast,
        count_all: args.count_all,
        page: None,
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: Args,
    }

    fn plan(words: &[&str]) -> Result<Plan, Error> {
        let wrap = Wrap::try_parse_from(std::iter::once("check").chain(words.iter().copied()))
            .map_err(error::usage)?;
        Plan::new(wrap.args)
    }

    fn run_of(p: &Plan) -> &RunPlan {
        match &p.work {
            Work::Run(run) => run,
            Work::Merge(_) => panic!("a run"),
        }
    }

    #[test]
    fn the_flags_become_the_lower_modules_own_types() {
        let p = plan(&[
            "--input",
            "arg",
            "--sandbox",
            "none",
            "--no-shrink",
            "--format",
            "json",
            "--",
            "sh",
            "-c",
            "echo 0",
        ])
        .expect("a plan");
        let run = run_of(&p);
        assert_eq!(
            run.answers[0].input,
            crate::cli::check::runner::InputMode::Arg
        );
        assert_eq!(run.answers[0].name, "sh -c echo 0");
        assert_eq!(run.containment.level, Level::None);
        assert_eq!(p.conclusion.shrink, ShrinkWhich::None);
        assert_eq!(p.output.format, Format::Json);
        assert!(!p.output.shard_records() && !run.judging.keep_passing_texts);
        assert!(!run.many && run.seed().is_none() && !run.seed_drawn);
    }

    #[test]
    fn a_shard_in_json_keeps_every_case_text_and_a_seed_is_drawn_once() {
        let p = plan(&[
            "--random", "3", "--seed", "9", "--shard", "2/3", "--format", "json", "--", "sh", "-c",
            "echo 0",
        ])
        .expect("a plan");
        let run = run_of(&p);
        assert!(p.output.shard_records() && run.judging.keep_passing_texts);
        assert_eq!(run.sources.random, Some(Random { count: 3, seed: 9 }));
        let drawn = plan(&["--random", "3", "--", "sh", "-c", "echo 0"]).expect("a plan");
        assert!(run_of(&drawn).seed_drawn && run_of(&drawn).seed().is_some());
    }

    #[test]
    fn flags_that_do_not_go_together_are_refused() {
        let refusal = |words: &[&str]| match plan(words) {
            Err(e) => e.message().unwrap_or_default(),
            Ok(_) => "a plan".to_string(),
        };
        assert!(
            refusal(&["--shard", "1/2", "--random", "5", "--", "sh"])
                .contains("shards must share a seed")
        );
        assert!(refusal(&["--", "./no-such-answer-x9"]).contains("does not exist"));
        assert!(refusal(&["--size", "1x1", "--", "sh"]).contains("1x1"));
        let merge = plan(&["--merge", "a.json", "b.json"]).expect("a plan");
        assert!(matches!(&merge.work, Work::Merge(files) if files.len() == 2));
    }
}
