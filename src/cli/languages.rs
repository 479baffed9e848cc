//! `beast languages`: the languages `beast check --page` knows (the built-in map, and a
//! user's `--languages FILE` before it), each with the command it runs and whether its
//! program is installed here: checked by running it with its version flag, since a shim
//! on PATH can exist and fail.

use beast_engine::judge::report::visible;

use super::check::page::{Versions, all_languages};
use super::error::Ended;

/// Arguments of `beast languages`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A languages file adds [[language]] tables: name, aliases (the \
    header names, lower case), link_ids (TIO/ATO ids), program, version (its version \
    flags) [default: --version], file (`code.rb`, or `{main}.java`), build and artifact \
    (a shell script run in the jail with the code as $1, and the file it makes), run \
    (the command: {code}, {flags}, {main}), single_byte (one byte a character)."
)]
pub struct Args {
    /// More languages, a TOML file of `[[language]]` tables, before the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub languages: Option<std::path::PathBuf>,
}

/// Prints every language, its command and whether it is installed.
pub fn run(args: Args) -> Ended {
    let all = all_languages(args.languages.as_deref())?;
    let mut versions = Versions::default();
    versions.check_all(all.iter());
    let mut out = String::new();
    for l in &all {
        let state = match versions.of(&l.program, &l.version) {
            Ok(version) => format!("installed: {version}"),
            Err(why) => format!("cannot run: {why}"),
        };
        let build = l
            .build
            .as_ref()
            .map_or(String::new(), |b| format!(" (built first: {b})"));
        out += &format!(
            "{}: {}{build}\n    names: {}\n    {state}\n",
            l.name,
            l.run.join(" "),
            l.aliases.join(", "),
        );
    }
    out += "\nand, one byte a character, no interpreter known: ";
    out += &beast_engine::judge::page::languages::SINGLE_BYTE.join(", ");
    out.push('\n');
    print!("{}", visible(&out).replace("\\u{a}", "\n"));
    Ok(())
}
