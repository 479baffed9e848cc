//! `beast cases`: write a test-case pack for challenge authors (the built-in cases and
//! seeded random ones, with their answers), a Markdown "Test cases" block, or a Kattis
//! problem package. The choices (which cases discriminate, the texts) are made by
//! `beast_engine::judge::pack`; this file generates the cases and writes the files.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use beast_engine::beast::variant;
use beast_engine::judge::cases::{self, Case};
use beast_engine::judge::generate::{GenOptions, Recipe, Version};
use beast_engine::judge::kattis;
use beast_engine::judge::pack::{self, KattisGroup, PackKind};
use beast_engine::judge::robustness;
use beast_engine::judge::separate;

use super::files::{Limit, Target};
use super::r#gen::GenArgs;
use beast_engine::judge::budget::Steps;

/// The engine's budget for judging one case under one reading.
const ENGINE_STEPS: Steps = Steps::CASE;

/// The rules, which the Kattis statement is made from.
const RULES: &str = include_str!("../../docs/RULES.md");

/// What `beast cases` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `NAME.in` and `NAME.out` in `--out DIR`.
    Files,
    /// A "Test cases" block for a Code Golf post, on standard output.
    Markdown,
    /// A Kattis problem package in `--out DIR`: `data/sample`, `data/secret`, `problem.yaml`.
    Kattis,
}

/// Which cases `beast cases` keeps.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// Every case.
    All,
    /// A small set on which every known reading (the 16 switch combinations with the
    /// catalogue) answers differently from ours at least once: the greedy set cover.
    Discriminating,
}

/// Arguments of `beast cases`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  beast cases --out pack                                   # the built-in cases
  beast cases --random 50 --seed 3 --out pack --readings   # plus 50 random ones
  beast cases --random 500 --seed 1 --select discriminating --out pack
  beast cases --no-builtin --random 10 --seed 1 --format markdown --max-size 200
  beast cases --random 100 --seed 1 --robustness --out pack  # and pack/robustness/
  beast cases --random 100 --seed 1 --format kattis --out problem")]
pub struct Args {
    /// The directory to write (created if missing); required by `files` and `kattis`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Include the built-in cases (the samples and rule examples); the default.
    #[arg(long, overrides_with = "no_builtin")]
    pub builtin: bool,
    /// Leave out the built-in cases.
    #[arg(long, overrides_with = "builtin")]
    pub no_builtin: bool,
    /// Add N random cases, the ones `beast check --random N --seed S` runs, same names.
    #[arg(long, value_name = "N", value_parser = cases::random_count)]
    pub random: Option<usize>,
    /// Seed of the random cases [default: from the clock, printed].
    #[arg(long, value_name = "S", requires = "random")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub gen_args: GenArgs,
    /// Also write `NAME.readings.json`: the answer under each of the 16 switch combinations.
    #[arg(long)]
    pub readings: bool,
    /// Also write the robustness set into `DIR/robustness/`: input the challenge does not
    /// promise (each random case's twin with CRLF line ends or the moves split over lines,
    /// as its seed draws, named `NAME.robust`; built-in examples beyond the promise), the
    /// cases `beast check --robustness` runs. `beast check --cases DIR` reads only DIR itself.
    #[arg(long)]
    pub robustness: bool,
    /// Which cases to keep.
    #[arg(long, value_enum, default_value = "all")]
    pub select: Select,
    /// What to write.
    #[arg(long, value_enum, default_value = "files")]
    pub format: Format,
    /// Leave out built-in cases whose puzzle text is longer than this many bytes, and make
    /// the random puzzles small enough to fit (a smaller map and fewer moves, said on stderr).
    #[arg(long, value_name = "BYTES")]
    pub max_size: Option<usize>,
    /// Replace the pack in `--out DIR`: remove the files the previous pack of this format
    /// wrote (its manifest, `.beast-cases-files` or `beast-cases-kattis.txt`, lists them;
    /// nothing else is touched), and overwrite files that exist already.
    #[arg(long)]
    pub force: bool,
}

/// Runs `beast cases`.
pub fn run(args: Args) -> super::error::Ended {
    check_usage(&args)?;
    let (all, mut robust) = gather(&args)?;
    if all.is_empty() && args.format != Format::Kattis {
        return Err(super::error::usage(
            "no case to write: every case is left out (by --no-builtin, or by --max-size)",
        ));
    }
    let kept = match args.select {
        Select::All => all,
        Select::Discriminating => discriminating(all),
    };
    // A twin goes with its case: a discriminating pack keeps the twins of the cases it keeps.
    robust.retain(|c| {
        robustness::base_of(&c.name).is_none_or(|base| kept.iter().any(|k| k.name == base))
    });
    match args.format {
        Format::Markdown => {
            let order = pack::markdown_order(&kept, None);
            let mut out = io::stdout().lock();
            out.write_all(pack::markdown(&kept, &order).as_bytes())
                .and_then(|()| out.flush())
                .context("cannot write the test cases to standard output")?;
        }
        Format::Files | Format::Kattis => write_pack(&args, &kept, &robust)?,
    }
    Ok(())
}

/// The cases the flags ask for, within `--max-size`: those of the challenge's own form,
/// and the robustness set (`--robustness`), written apart in `DIR/robustness/`.
fn gather(args: &Args) -> anyhow::Result<(Vec<Case>, Vec<Case>)> {
    let mut all = Vec::new();
    let mut robust = Vec::new();
    if !args.no_builtin {
        let (promised, beyond): (Vec<Case>, Vec<Case>) = cases::builtin()
            .cases
            .into_iter()
            .partition(|c| !c.robustness);
        all.extend(promised);
        robust.extend(beyond.into_iter().filter(|_| args.robustness));
    }
    if let Some(n) = args.random {
        let opts = fitted(args)?;
        let seed = args.seed.unwrap_or_else(super::seed::fresh_seed);
        if args.seed.is_none() {
            eprintln!("random cases from --seed {seed}");
        }
        for spec in cases::random_specs(seed, n) {
            match spec.case_within(&opts, ENGINE_STEPS.counter()) {
                Ok(c) => all.push(c),
                Err(s) => eprintln!("note: {} skipped: {}", s.name, s.reason),
            }
            if !args.robustness {
                continue;
            }
            match spec.twin_within(&opts, ENGINE_STEPS.counter()) {
                Some(Ok(c)) => robust.push(c),
                Some(Err(s)) => eprintln!("note: {} skipped: {}", s.name, s.reason),
                None => {}
            }
        }
    }
    if let Some(max) = args.max_size {
        all.retain(|c| c.input.len() <= max);
        robust.retain(|c| c.input.len() <= max);
    }
    Ok((all, robust))
}

/// Writes the pack of `kept` (files or a Kattis package) and the robustness set `robust`
/// into `--out DIR`, replacing the previous pack under `--force`, and says what it wrote.
fn write_pack(args: &Args, kept: &[Case], robust: &[Case]) -> anyhow::Result<()> {
    let dir = args.out.as_deref().unwrap_or(Path::new("."));
    let (mut files, kind) = if args.format == Format::Kattis {
        (kattis_files(kept)?, PackKind::Kattis)
    } else {
        (pack_files(kept, args.readings), PackKind::Files)
    };
    let robust_files = pack_files(robust, args.readings);
    let robust_count = robust_files.len();
    files.extend(
        robust_files
            .into_iter()
            .map(|(path, bytes)| (Path::new(ROBUSTNESS_DIR).join(path), bytes)),
    );
    if let Some(removed) = write_all(dir, &files, args.force, kind)? {
        eprintln!(
            "removed {} of the previous pack in {} (listed in its {})",
            beast_engine::words::count(removed as u64, "file"),
            dir.display(),
            kind.manifest()
        );
    }
    eprintln!(
        "wrote {} cases ({} files) to {}",
        if args.format == Format::Kattis {
            kattis_count(kept)
        } else {
            kept.len()
        },
        files.len() - robust_count,
        dir.display()
    );
    if args.robustness {
        eprintln!(
            "wrote {} robustness cases ({robust_count} files) to {}: input the \
             challenge does not promise",
            robust.len(),
            dir.join(ROBUSTNESS_DIR).display()
        );
    }
    Ok(())
}

/// The generation recipe of the random cases: the flags'. With `--max-size` the puzzles
/// must be short, which only generator 1's fixed sizes can promise: its options (the flags'
/// or its defaults), made smaller when they make longer puzzles (said on stderr, as is a
/// switch from generator 2).
fn fitted(args: &Args) -> anyhow::Result<Recipe> {
    let recipe = args.gen_args.options()?;
    let Some(max) = args.max_size else {
        return Ok(recipe);
    };
    let d = GenOptions::default();
    let (cols, rows) = recipe.size.unwrap_or((d.cols, d.rows));
    let opts = GenOptions {
        cols,
        rows,
        beasts: recipe.beasts.unwrap_or(d.beasts),
        walls_pct: recipe.walls_pct.unwrap_or(d.walls_pct),
        moves: recipe.moves.unwrap_or(d.moves),
    };
    let fit = pack::fitting(&opts, max).with_context(|| {
        format!("--max-size {max} is too small for any puzzle (a 3x3 map takes 17 bytes)")
    })?;
    if fit != opts || recipe.version != Version::V1 {
        eprintln!(
            "note: random puzzles of at most {max} bytes: --generator 1 --size {}x{} --beasts \
             {} --moves {} ({} bytes)",
            fit.cols,
            fit.rows,
            fit.beasts,
            fit.moves,
            pack::generated_len(&fit)
        );
    }
    Ok(Recipe::fixed(&fit))
}

/// The subdirectory of a pack that holds its robustness set.
const ROBUSTNESS_DIR: &str = "robustness";

/// Refuses flag combinations that make no sense, before any work.
fn check_usage(args: &Args) -> anyhow::Result<()> {
    match args.format {
        Format::Markdown | Format::Kattis if args.robustness => anyhow::bail!(
            "--robustness writes the pack's robustness/ directory: use it with --format files \
             (a post or a Kattis package holds the challenge's own form only)"
        ),
        Format::Markdown if args.out.is_some() => {
            anyhow::bail!("--format markdown prints to standard output: leave out --out")
        }
        Format::Markdown if args.readings => {
            anyhow::bail!("--readings writes files: use it with --out, not --format markdown")
        }
        Format::Kattis if args.readings => {
            anyhow::bail!("--readings writes into a plain pack, not a Kattis package")
        }
        Format::Files | Format::Kattis if args.out.is_none() => {
            anyhow::bail!("add --out DIR: the directory to write the cases into")
        }
        _ => Ok(()),
    }
}

/// The greedy set cover of every known reading over `all`, in the cases' own order; says
/// on stderr how many were kept and which readings no case separates from ours.
fn discriminating(all: Vec<Case>) -> Vec<Case> {
    let readings = separate::readings();
    let started = Instant::now();
    let sets = separated_all(&all, &readings);
    let cost: Vec<usize> = all.iter().map(|c| c.input.len()).collect();
    let cover = pack::greedy_cover(&sets, readings.len(), &cost);
    let mut chosen = cover.chosen.clone();
    chosen.sort_unstable();
    eprintln!(
        "kept {} of {} cases: {} of the {} other readings answer differently on at least one \
         ({:.1} s)",
        chosen.len(),
        all.len(),
        readings.len() - cover.uncovered.len(),
        readings.len(),
        started.elapsed().as_secs_f64()
    );
    if !cover.uncovered.is_empty() {
        let names: Vec<String> = cover
            .uncovered
            .iter()
            .take(5)
            .map(|&i| variant::flags(readings[i]))
            .collect();
        let more = cover.uncovered.len().saturating_sub(names.len());
        eprintln!(
            "answering as ours on every case: {}{}",
            names.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        );
    }
    let mut keep = vec![false; all.len()];
    for i in chosen {
        keep[i] = true;
    }
    all.into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(c, _)| c)
        .collect()
}

/// [`separate::separated`] for every case, on every core.
fn separated_all(all: &[Case], readings: &[beast_engine::beast::Rules]) -> Vec<Vec<usize>> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = all.len().div_ceil(jobs).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = all
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|c| {
                            separate::separated(&c.puzzle, readings, &mut ENGINE_STEPS.counter())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// The files of a plain pack: `NAME.in`, `NAME.out` and, with `readings`,
/// `NAME.readings.json`.
fn pack_files(kept: &[Case], readings: bool) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for c in kept {
        files.push((PathBuf::from(format!("{}.in", c.name)), c.input.clone()));
        files.push((
            PathBuf::from(format!("{}.out", c.name)),
            c.expected.clone().into_bytes(),
        ));
        if readings {
            let r = pack::case_readings(c, &mut ENGINE_STEPS.counter());
            files.push((
                PathBuf::from(format!("{}.readings.json", c.name)),
                pack::readings_json(&r).into_bytes(),
            ));
        }
    }
    files
}

/// The files of a Kattis package: the five samples in `data/sample` (always), the other
/// kept cases in `data/secret`, as `.in` and `.ans`; `problem.yaml`; the statement, made
/// from the rules; the input validator; the accepted submission; and a wrong answer for
/// every reading of [`kattis::WRONG_READINGS`] the cases tell from ours.
fn kattis_files(kept: &[Case]) -> anyhow::Result<Vec<(PathBuf, Vec<u8>)>> {
    let statement = kattis::statement_tex(RULES)
        .context("docs/RULES.md lacks the input format, the turn or the output")?;
    let mut files = vec![
        (
            PathBuf::from("problem.yaml"),
            kattis::problem_yaml().into_bytes(),
        ),
        (
            PathBuf::from("problem_statement/problem.en.tex"),
            statement.into_bytes(),
        ),
        (
            PathBuf::from("input_validators/validate.py"),
            kattis::VALIDATOR.as_bytes().to_vec(),
        ),
        (
            PathBuf::from("submissions/accepted/beasts.py"),
            kattis::ACCEPTED.as_bytes().to_vec(),
        ),
    ];
    let samples = cases::builtin()
        .cases
        .into_iter()
        .filter(|c| pack::is_sample(&c.name));
    let secret = kept
        .iter()
        .filter(|c| KattisGroup::of(&c.name) == KattisGroup::Secret)
        .cloned();
    let cases: Vec<Case> = samples.chain(secret).collect();
    for c in &cases {
        let dir = Path::new(KattisGroup::of(&c.name).dir());
        files.push((
            dir.join(format!("{}.in", c.name)),
            kattis::standard_line_breaks(&c.input),
        ));
        files.push((
            dir.join(format!("{}.ans", c.name)),
            c.expected.clone().into_bytes(),
        ));
    }
    let puzzles: Vec<&beast_engine::beast::Puzzle> = cases.iter().map(|c| &c.puzzle).collect();
    let every_case = Steps(ENGINE_STEPS.0.saturating_mul(puzzles.len() as u64));
    for name in kattis::separated_readings(&puzzles, &mut every_case.counter()) {
        files.push((
            PathBuf::from(format!("submissions/wrong_answer/{name}.py")),
            kattis::wrong_answer(name).into_bytes(),
        ));
    }
    Ok(files)
}

/// How many cases a Kattis package of `kept` holds: the samples and the other kept cases.
fn kattis_count(kept: &[Case]) -> usize {
    pack::SAMPLES.len()
        + kept
            .iter()
            .filter(|c| KattisGroup::of(&c.name) == KattisGroup::Secret)
            .count()
}

/// Writes `files` under `dir`, with the manifest of a pack of `kind` listing them, through
/// the write gate: beneath `dir`, never through a link. Without `force`, refuses before
/// writing anything when one of them (a link too), or the manifest of an earlier pack,
/// exists already, and creates each file anew (`O_EXCL`). With `force`, first removes the
/// files the earlier pack's manifest (read through the read gate) lists that the new pack
/// does not write, and returns how many (`None` when there was no manifest); each file is
/// then replaced, a link in its place included.
fn write_all(
    dir: &Path,
    files: &[(PathBuf, Vec<u8>)],
    force: bool,
    kind: PackKind,
) -> anyhow::Result<Option<usize>> {
    let target = Target::create(dir)?;
    let manifest = OsStr::new(kind.manifest());
    if !force && target.holds(manifest) {
        anyhow::bail!(
            "{} holds a pack already ({} lists its files): add --force to replace it",
            dir.display(),
            dir.join(manifest).display()
        );
    }
    if !force && let Some((path, _)) = files.iter().find(|(p, _)| held(&target, p)) {
        anyhow::bail!(
            "{} exists already: add --force to overwrite",
            dir.join(path).display()
        );
    }
    let paths: Vec<String> = files.iter().map(|(p, _)| slashed(p)).collect();
    let removed = match target.reader()?.read(manifest, Limit::MANIFEST) {
        Ok(text) => {
            let text = String::from_utf8_lossy(&text);
            Some(remove_previous(
                &target,
                &kind.manifest_paths(&text),
                &paths,
            )?)
        }
        Err(r) if r.missing() => None,
        Err(r) => return Err(r.into()),
    };
    // Every directory first, so that a link in the place of one refuses the pack before
    // any file is written.
    let mut dirs: HashMap<&Path, Target> = HashMap::new();
    for (path, _) in files {
        let (parent, _) = parts(path)?;
        if !parent.as_os_str().is_empty() && !dirs.contains_key(parent) {
            dirs.insert(parent, target.subdir(parent)?);
        }
    }
    for (path, bytes) in files {
        let (parent, name) = parts(path)?;
        let place = dirs.get(parent).unwrap_or(&target);
        match force {
            true => place.replace(name, bytes)?,
            false => place.write_new(name, bytes)?,
        }
    }
    target.replace(manifest, kind.manifest_text(&paths).as_bytes())?;
    Ok(removed)
}

/// The directory part and the file name of a pack's file.
fn parts(path: &Path) -> anyhow::Result<(&Path, &OsStr)> {
    let name = path
        .file_name()
        .with_context(|| format!("{} names no file", path.display()))?;
    Ok((path.parent().unwrap_or(Path::new("")), name))
}

/// True when something (a dangling link too) is at `path` beneath `target`, reached
/// without following a link.
fn held(target: &Target, path: &Path) -> bool {
    let Ok((parent, name)) = parts(path) else {
        return false;
    };
    // A link in the place of a directory is refused when the directories are made.
    matches!(target.existing_subdir(parent), Ok(Some(dir)) if dir.holds(name))
}

/// `path` with `/` between its parts, as a manifest lists it.
fn slashed(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Removes the files of `listed` (an earlier pack's, under `target`) that `kept` does not
/// name, and returns how many were removed. A file already gone is passed over, as is one
/// reached through a link to a directory: only the pack's own files go, and a link is
/// removed itself, never what it leads to.
fn remove_previous(target: &Target, listed: &[String], kept: &[String]) -> anyhow::Result<usize> {
    let mut removed = 0;
    for name in listed.iter().filter(|n| !kept.contains(n)) {
        let (parent, file) = parts(Path::new(name))?;
        let Some(dir) = target.existing_subdir(parent)? else {
            continue;
        };
        if dir.remove(file)? {
            removed += 1;
        }
    }
    Ok(removed)
}
