//! The read gate against random trees (files, links relative, absolute, dangling and in
//! loops, FIFOs, big sparse files) under a named directory, with a secret beside it: what
//! is read is always a regular file inside, as the file system resolves it, and nothing
//! hangs. Then the write gate: links in the place of a file or a directory.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use proptest::prelude::*;

use super::read::{Folder, Limit, Refused};
use super::write::Target;

/// The secret beside the named directory; no read may return it.
const SECRET: &[u8] = b"SECRET-TOKEN-beside-the-named-directory";

/// The limit of the reads here: a big sparse file is far above it.
const LIMIT: Limit = Limit {
    bytes: 64 << 10,
    what: "a test file",
};

/// One entry of a random tree.
#[derive(Clone, Debug)]
enum Node {
    /// A regular file holding its name.
    File,
    /// A sparse file of 400 MiB.
    Sparse,
    /// A FIFO no one writes to.
    Fifo,
    /// A relative link to the entry numbered so (maybe in the other directory).
    Inside(usize),
    /// A relative link out of the directory, to the secret.
    UpAndOut,
    /// An absolute link to the secret.
    Absolute,
    /// A link to the judge's environment.
    Environ,
    /// A link to nothing.
    Dangling,
    /// A link to itself.
    Loop,
}

fn node() -> impl Strategy<Value = Node> {
    prop_oneof![
        3 => Just(Node::File),
        1 => Just(Node::Sparse),
        1 => Just(Node::Fifo),
        3 => (0usize..12).prop_map(Node::Inside),
        1 => Just(Node::UpAndOut),
        1 => Just(Node::Absolute),
        1 => Just(Node::Environ),
        1 => Just(Node::Dangling),
        1 => Just(Node::Loop),
    ]
}

/// The `i`th entry's path beneath the root: the first half at the top, the rest in `sub/`.
fn entry(i: usize, count: usize) -> PathBuf {
    match i < count.div_ceil(2) {
        true => PathBuf::from(format!("e{i}")),
        false => PathBuf::from(format!("sub/e{i}")),
    }
}

/// Makes the tree of `nodes` under `root`, the secret at `secret`.
fn plant(root: &Path, secret: &Path, nodes: &[Node]) {
    use std::os::unix::fs::symlink;
    std::fs::create_dir_all(root.join("sub")).expect("mkdir");
    let n = nodes.len();
    for (i, node) in nodes.iter().enumerate() {
        let rel = entry(i, n);
        let path = root.join(&rel);
        let up = if rel.starts_with("sub") {
            "../.."
        } else {
            ".."
        };
        match node {
            Node::File => std::fs::write(&path, rel.to_string_lossy().as_bytes()).expect("write"),
            Node::Sparse => std::fs::File::create(&path)
                .and_then(|f| f.set_len(400 << 20))
                .expect("sparse"),
            Node::Fifo => {
                nix::unistd::mkfifo(&path, nix::sys::stat::Mode::from_bits_truncate(0o644))
                    .expect("mkfifo")
            }
            Node::Inside(t) => {
                let to = entry(t % n, n);
                let from_sub = rel.starts_with("sub");
                let target = match (from_sub, to.starts_with("sub")) {
                    (true, false) => Path::new("..").join(&to),
                    (true, true) => PathBuf::from(to.file_name().expect("a name")),
                    _ => to,
                };
                symlink(target, &path).expect("symlink");
            }
            Node::UpAndOut => symlink(format!("{up}/secret"), &path).expect("symlink"),
            Node::Absolute => symlink(secret, &path).expect("symlink"),
            Node::Environ => symlink("/proc/self/environ", &path).expect("symlink"),
            Node::Dangling => symlink("nowhere", &path).expect("symlink"),
            Node::Loop => symlink(path.file_name().expect("a name"), &path).expect("symlink"),
        }
    }
}

/// An entry read through the gate: its path beneath the root, and what the read gave.
type Outcome = (PathBuf, Result<Vec<u8>, Refused>);

/// Reads every entry of the tree through the gate on another thread: each outcome, or
/// `None` if the reads did not end within a generous ceiling.
fn read_all(root: &Path, count: usize) -> Option<Vec<Outcome>> {
    let (tx, rx) = mpsc::channel();
    let root = root.to_path_buf();
    std::thread::spawn(move || {
        let folder = Folder::open(&root).expect("the named directory opens");
        let outcomes: Vec<_> = (0..count)
            .map(|i| {
                let rel = entry(i, count);
                let got = folder.read(rel.as_os_str(), LIMIT).map_err(|r| r.why);
                (rel, got)
            })
            .collect();
        let _ = tx.send(outcomes);
    });
    rx.recv_timeout(Duration::from_secs(60)).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn nothing_outside_the_named_directory_is_ever_read_and_nothing_hangs(
        nodes in prop::collection::vec(node(), 1..12)
    ) {
        let place = tempfile::tempdir().expect("temp dir");
        let root = place.path().join("root");
        let secret = place.path().join("secret");
        std::fs::write(&secret, SECRET).expect("write");
        plant(&root, &secret, &nodes);
        let outcomes = read_all(&root, nodes.len());
        prop_assert!(outcomes.is_some(), "a read hung on {nodes:?}");
        let real_root = root.canonicalize().expect("canonical");
        for ((rel, got), node) in outcomes.unwrap_or_default().into_iter().zip(&nodes) {
            if matches!(node, Node::UpAndOut | Node::Absolute | Node::Environ) {
                prop_assert!(matches!(got, Err(Refused::Outside)), "{rel:?}: {got:?}");
            }
            let path = root.join(&rel);
            let resolved = path.canonicalize().ok();
            let inside_file = resolved.as_ref().is_some_and(|r| {
                r.starts_with(&real_root) && r.metadata().is_ok_and(|m| m.is_file())
            });
            match &got {
                Ok(bytes) => {
                    prop_assert!(!bytes.windows(SECRET.len()).any(|w| w == SECRET));
                    prop_assert!(inside_file, "{rel:?} was read but resolves to {resolved:?}");
                    let real = resolved.expect("resolved");
                    prop_assert_eq!(bytes, &std::fs::read(&real).expect("read"));
                }
                Err(Refused::TooBig { size, .. }) => prop_assert_eq!(*size, 400 << 20),
                Err(why) => {
                    // A refusal only for what is no small regular file inside, or for
                    // what is inside but reached through an absolute link.
                    let absolute = std::fs::read_link(&path).is_ok_and(|t| t.is_absolute());
                    let small = resolved.as_ref().is_some_and(|r| {
                        r.metadata().is_ok_and(|m| m.len() <= LIMIT.bytes)
                    });
                    prop_assert!(!(inside_file && small) || absolute, "{rel:?}: {why:?}");
                }
            }
        }
    }
}

#[test]
fn a_kernel_file_is_refused_even_in_a_directory_named() {
    let folder = Folder::open(Path::new("/proc/self")).expect("opens");
    let refusal = folder
        .read("environ".as_ref(), Limit::CASE)
        .expect_err("refused");
    assert!(matches!(refusal.why, Refused::Kernel), "{refusal}");
    assert!(refusal.to_string().contains("/proc or /sys"), "{refusal}");
}

#[test]
fn a_file_too_big_is_refused_by_its_size_with_the_cap_stated() {
    let place = tempfile::tempdir().expect("temp dir");
    std::fs::File::create(place.path().join("x.in"))
        .and_then(|f| f.set_len(400 << 20))
        .expect("sparse");
    let folder = Folder::open(place.path()).expect("opens");
    let refusal = folder
        .read("x.in".as_ref(), Limit::CASE)
        .expect_err("too big");
    let words = refusal.to_string();
    assert!(
        words.ends_with("x.in is 400 MiB; a case file may be at most 64 MiB"),
        "{words}"
    );
}

#[test]
fn the_write_gate_replaces_a_link_and_never_writes_through_one() {
    use std::os::unix::fs::symlink;
    let place = tempfile::tempdir().expect("temp dir");
    let (dir, outside) = (place.path().join("dir"), place.path().join("outside"));
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(&outside, "precious").expect("write");
    symlink(&outside, dir.join("old")).expect("symlink");
    symlink(place.path().join("new-outside"), dir.join("dangling")).expect("symlink");
    symlink(place.path(), dir.join("sub")).expect("symlink");
    let target = Target::create(&dir).expect("opens");
    target.replace("old".as_ref(), b"mine").expect("replaced");
    assert_eq!(std::fs::read(&outside).expect("read"), b"precious");
    assert!(
        !dir.join("old")
            .symlink_metadata()
            .expect("there")
            .is_symlink()
    );
    assert!(target.write_new("dangling".as_ref(), b"mine").is_err());
    assert!(!place.path().join("new-outside").exists());
    let refused = target.subdir(Path::new("sub/deeper")).expect_err("a link");
    assert!(refused.to_string().contains("is a link"), "{refused}");
    assert!(!place.path().join("deeper").exists());
    assert!(target.remove("old".as_ref()).expect("removed"));
    target.replace("x".as_ref(), b"1").expect("written");
    assert_eq!(std::fs::read(dir.join("x")).expect("read"), b"1");
}
