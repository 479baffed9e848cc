//! Refusals before the first case: a program named by a path that the system could not
//! start on any case (a directory or a device, a script without its run bit, a `#!` line
//! ending in a carriage return) is refused once, with the fix in the message, instead of
//! being judged case after case as a run-time error.

use std::io::Read;
use std::path::Path;

use crate::cli::platform;

/// How much of the program's start is read for its `#!` line (the kernel reads 256 bytes).
const HEAD: u64 = 256;

/// `Err` with what to do when the program at `path` (a path, not a name looked up on
/// `PATH`) exists but cannot start; `Ok` when it may start, or does not exist (which the
/// caller says).
pub fn program(path: &Path) -> Result<(), String> {
    let Ok(meta) = path.metadata() else {
        return Ok(());
    };
    let shown = path.display();
    if !meta.is_file() {
        return Err(format!(
            "the program {shown} is {}, not a program file: name the answer's file itself",
            kind_of(&meta)
        ));
    }
    let head = head_of(path);
    if !platform::may_run(path) {
        let through = interpreter(&head, path).unwrap_or("INTERPRETER");
        return Err(format!(
            "the program {shown} cannot start: it has no run bit. Make it executable \
             (`chmod +x {shown}`), or run it through its interpreter (`beast check -- \
             {through} {shown}`)"
        ));
    }
    if shebang(&head).is_some_and(|line| line.ends_with(b"\r")) {
        return Err(format!(
            "the program {shown} cannot start: the `#!` line ends in a carriage return \
             (CRLF line endings), so the system looks for an interpreter whose name ends in \
             \\r: convert it with `dos2unix {shown}` or `sed -i 's/\\r$//' {shown}`"
        ));
    }
    Ok(())
}

/// What a file that is not a regular file is, in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// The first bytes of the file (nothing when it cannot be read: then its run decides).
fn head_of(path: &Path) -> Vec<u8> {
    let mut head = Vec::new();
    if let Ok(file) = platform::open_without_blocking(path) {
        let _ = file.take(HEAD).read_to_end(&mut head);
    }
    head
}

/// The `#!` line of `head` without its `\n` (and without `#!`), if it has one.
fn shebang(head: &[u8]) -> Option<&[u8]> {
    let rest = head.strip_prefix(b"#!")?;
    Some(rest.split(|&b| b == b'\n').next().unwrap_or(rest))
}

/// The interpreter a script names in its `#!` line (`/usr/bin/env -S python3 -u` gives
/// `python3`), or the usual one of its extension.
fn interpreter<'a>(head: &'a [u8], path: &Path) -> Option<&'a str> {
    if let Some(line) = shebang(head).and_then(|l| std::str::from_utf8(l).ok()) {
        let mut words = line.split_whitespace();
        let first = words.next()?;
        let name = first.rsplit('/').next().unwrap_or(first);
        if name != "env" {
            return Some(name.trim_end_matches('\r'));
        }
        return words
            .find(|w| !w.starts_with('-'))
            .map(|w| w.trim_end_matches('\r'));
    }
    let usual = match path.extension()?.to_str()? {
        "py" => "python3",
        "pl" => "perl",
        "rb" => "ruby",
        "js" => "node",
        "sh" => "sh",
        "bash" => "bash",
        "php" => "php",
        "lua" => "lua",
        _ => return None,
    };
    Some(usual)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_is_read_from_the_hash_bang_line_or_the_extension() {
        let py = Path::new("a.py");
        assert_eq!(
            interpreter(b"#!/usr/bin/env python3\nx", py),
            Some("python3")
        );
        assert_eq!(
            interpreter(b"#!/usr/bin/env -S perl -n\n", py),
            Some("perl")
        );
        assert_eq!(interpreter(b"#!/bin/sh\r\n", py), Some("sh"));
        assert_eq!(interpreter(b"print(8)\n", py), Some("python3"));
        assert_eq!(interpreter(b"", Path::new("answer")), None);
    }

    #[test]
    fn only_a_hash_bang_line_is_one() {
        assert_eq!(shebang(b"#!/bin/sh\r\necho"), Some(&b"/bin/sh\r"[..]));
        assert_eq!(shebang(b"#!/bin/sh"), Some(&b"/bin/sh"[..]));
        assert_eq!(shebang(b"echo 8\n"), None);
    }
}
