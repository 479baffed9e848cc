//! The messages between the judge and a jail's zygote (see [`super::zygote`]), the one
//! channel besides the status file: a Unix stream socket, the zygote's standard input.
//! Each message is a kind byte, a length and a body of fields, and may carry descriptors
//! (`SCM_RIGHTS`) with its first bytes. The judge asks for a case ([`Request`]: the
//! answer's [`AnswerCommand`], its environment, with the case's pipes and cgroup files);
//! the zygote answers [`Reply::Started`] (with a pidfd of
//! the answer), then [`Reply::Ended`], or tells why the case could not start.
//!
//! Nothing the answer prints passes here: its output goes through its own pipes to the
//! judge. A zygote's replies are still read as a stranger's bytes would be (bounded, every
//! field checked): a zygote is the judge's own code, but it shares a user id with the
//! answer it starts.

use std::ffi::OsString;
use std::io::{self, IoSlice, IoSliceMut, Read, Write};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::net::UnixStream;

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags, recvmsg, sendmsg,
};

use super::untrusted::AnswerCommand;

/// The most descriptors one message carries (a request: stdin, stdout, stderr, and the
/// cgroup files to enter and to leave, two each).
pub const MAX_FDS: usize = 8;

/// The largest body a message may have: a command with the puzzle as its argument
/// (`MAX_ARG_STRLEN`, 128 KiB) or a puzzle file, with room to spare.
pub const MAX_BODY: usize = 64 << 20;

/// What a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Request = 1,
    Ready = 2,
    Started = 3,
    SetupFailed = 4,
    CannotStart = 5,
    Ended = 6,
}

impl Kind {
    fn of(byte: u8) -> Option<Kind> {
        [
            Kind::Request,
            Kind::Ready,
            Kind::Started,
            Kind::SetupFailed,
            Kind::CannotStart,
            Kind::Ended,
        ]
        .into_iter()
        .find(|k| *k as u8 == byte)
    }
}

/// How the zygote moves into a case's cgroups before it starts the answer, so that the
/// answer is born in them: the files are opened by the judge and passed with the request
/// (the kernel checks the opener's rights).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// No cgroup.
    None,
    /// cgroup v1: the starting thread alone writes `0` to each `tasks` file to enter, and
    /// to each of the other files to leave once the answer is started (no process is
    /// migrated, which would wait for an RCU grace period).
    Thread,
    /// cgroup v2: the zygote writes `0` to the case's `cgroup.procs` to enter, and to its
    /// own cgroup's to leave.
    Process,
}

impl Entry {
    fn code(self) -> u32 {
        match self {
            Entry::None => 0,
            Entry::Thread => 1,
            Entry::Process => 2,
        }
    }

    fn of(code: u32) -> Option<Entry> {
        [Entry::None, Entry::Thread, Entry::Process]
            .into_iter()
            .find(|e| e.code() == code)
    }
}

/// One case, as the judge asks the zygote for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The answer's command (the puzzle in its arguments for `--input arg`).
    pub command: AnswerCommand,
    /// The answer's whole environment.
    pub env: Vec<(OsString, OsString)>,
    /// The puzzle file's bytes (`--input file`), written in the answer's directory.
    pub input_file: Option<Vec<u8>>,
    /// True when a descriptor for the answer's standard input comes first (the puzzle on
    /// standard input); else it reads `/dev/null`.
    pub stdin: bool,
    /// How the cgroup files that come last are used.
    pub entry: Entry,
    /// How many of those files are entered; the rest are left.
    pub enter: usize,
}

/// The descriptors that come with a [`Request`], in its order.
pub struct RequestFds {
    /// The answer's standard input, when it reads the puzzle there.
    pub stdin: Option<OwnedFd>,
    /// Its standard output.
    pub stdout: OwnedFd,
    /// Its standard error.
    pub stderr: OwnedFd,
    /// The cgroup files to write `0` to before the answer starts.
    pub enter: Vec<OwnedFd>,
    /// The cgroup files to write `0` to once it has.
    pub leave: Vec<OwnedFd>,
}

/// What the zygote says.
#[derive(Debug)]
pub enum Reply {
    /// It is set up and waits for requests.
    Ready,
    /// The answer started: its pid in the zygote's namespace, and a pidfd of it.
    Started {
        /// The pid, as the zygote sees it.
        pid: u32,
        /// A pidfd, readable once the answer has ended.
        pidfd: OwnedFd,
    },
    /// A step of the case's set-up failed: the judge's failure (IE).
    SetupFailed {
        /// The step.
        step: String,
        /// Why.
        reason: String,
    },
    /// The answer's command could not be started: the answer's failure, as a shell would
    /// say it.
    CannotStart {
        /// Why, with the program's name.
        reason: String,
    },
    /// The answer ended, with this wait status (as `waitpid` gives it).
    Ended {
        /// The raw wait status.
        status: i32,
    },
}

/// The fields of a body, written in order.
#[derive(Default)]
struct Body(Vec<u8>);

impl Body {
    fn number(&mut self, n: u32) -> &mut Body {
        self.0.extend_from_slice(&n.to_le_bytes());
        self
    }

    fn bytes(&mut self, b: &[u8]) -> &mut Body {
        self.number(u32::try_from(b.len()).unwrap_or(u32::MAX));
        self.0.extend_from_slice(b);
        self
    }
}

/// The fields of a received body, read in order; every read is checked.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn number(&mut self) -> io::Result<u32> {
        let (head, rest) = self
            .0
            .split_first_chunk::<4>()
            .ok_or_else(|| bad("a message ends inside a number"))?;
        self.0 = rest;
        Ok(u32::from_le_bytes(*head))
    }

    fn bytes(&mut self) -> io::Result<Vec<u8>> {
        let n = self.number()? as usize;
        if n > self.0.len() {
            return Err(bad("a field is longer than its message"));
        }
        let (field, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(field.to_vec())
    }

    fn text(&mut self) -> io::Result<String> {
        Ok(String::from_utf8_lossy(&self.bytes()?).into_owned())
    }

    fn os(&mut self) -> io::Result<OsString> {
        Ok(OsString::from_vec(self.bytes()?))
    }

    /// A count of things still to read, each at least `least` bytes: bounded by what is
    /// left, so that a wrong count cannot make a huge allocation.
    fn count(&mut self, least: usize) -> io::Result<usize> {
        let n = self.number()? as usize;
        if n.saturating_mul(least) > self.0.len() {
            return Err(bad("a count larger than its message"));
        }
        Ok(n)
    }

    fn end(&self) -> io::Result<()> {
        match self.0.is_empty() {
            true => Ok(()),
            false => Err(bad("a message with bytes left over")),
        }
    }
}

fn bad(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("zygote channel: {what}"),
    )
}

/// Sends one message of `kind` with `body` on `socket`, `fds` riding with its first bytes.
fn send_message(
    socket: &UnixStream,
    kind: Kind,
    body: &[u8],
    fds: &[BorrowedFd],
) -> io::Result<()> {
    if body.len() > MAX_BODY || fds.len() > MAX_FDS {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "zygote channel: a message too large to send",
        ));
    }
    let len = u32::try_from(body.len()).unwrap_or(u32::MAX).to_le_bytes();
    let head = [kind as u8, len[0], len[1], len[2], len[3]];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other(
            "zygote channel: no room for the descriptors",
        ));
    }
    let mut sent = loop {
        match sendmsg(
            socket,
            &[IoSlice::new(&head)],
            &mut control,
            SendFlags::NOSIGNAL,
        ) {
            Err(rustix::io::Errno::INTR) => continue,
            other => break other.map_err(io::Error::from)?,
        }
    };
    let mut writer = socket;
    if sent < head.len() {
        writer.write_all(&head[sent..])?;
        sent = head.len();
    }
    debug_assert_eq!(sent, head.len());
    writer.write_all(body)
}

/// A message received: its kind, its body and the descriptors that came with it.
type Message = (Kind, Vec<u8>, Vec<OwnedFd>);

/// Receives one message: its kind, its body and the descriptors that came with it.
/// `Ok(None)` at the end of the stream before a message begins.
fn receive(socket: &UnixStream) -> io::Result<Option<Message>> {
    let mut head = [0u8; 5];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let got = loop {
        let mut iov = [IoSliceMut::new(&mut head)];
        match recvmsg(socket, &mut iov, &mut control, RecvFlags::CMSG_CLOEXEC) {
            Err(rustix::io::Errno::INTR) => continue,
            other => break other.map_err(io::Error::from)?,
        }
    };
    let mut fds = Vec::new();
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(each) = message {
            fds.extend(each);
        }
    }
    if got.bytes == 0 {
        return Ok(None);
    }
    let mut reader = socket;
    if got.bytes < head.len() {
        reader.read_exact(&mut head[got.bytes..])?;
    }
    let kind = Kind::of(head[0]).ok_or_else(|| bad("a message of no known kind"))?;
    let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
    if len > MAX_BODY {
        return Err(bad("a message too long"));
    }
    let mut body = vec![0u8; len];
    reader.read_exact(&mut body)?;
    Ok(Some((kind, body, fds)))
}

/// Asks for one case: `request`, with its descriptors.
pub fn send_request(socket: &UnixStream, request: &Request, fds: &RequestFds) -> io::Result<()> {
    let mut body = Body::default();
    let words = request.command.words();
    body.number(count(words.len()));
    for arg in words {
        body.bytes(arg.as_bytes());
    }
    body.number(count(request.env.len()));
    for (k, v) in &request.env {
        body.bytes(k.as_bytes()).bytes(v.as_bytes());
    }
    match &request.input_file {
        Some(bytes) => body.number(1).bytes(bytes),
        None => body.number(0),
    };
    body.number(u32::from(request.stdin))
        .number(request.entry.code())
        .number(count(request.enter));
    let mut passed: Vec<BorrowedFd> = Vec::new();
    passed.extend(fds.stdin.as_ref().map(AsFd::as_fd));
    passed.push(fds.stdout.as_fd());
    passed.push(fds.stderr.as_fd());
    passed.extend(fds.enter.iter().map(AsFd::as_fd));
    passed.extend(fds.leave.iter().map(AsFd::as_fd));
    send_message(socket, Kind::Request, &body.0, &passed)
}

/// The next request, with its descriptors; `Ok(None)` when the judge has closed the
/// channel (the check is over for this zygote).
pub fn receive_request(socket: &UnixStream) -> io::Result<Option<(Request, RequestFds)>> {
    let Some((kind, body, fds)) = receive(socket)? else {
        return Ok(None);
    };
    if kind != Kind::Request {
        return Err(bad("a reply where a request was due"));
    }
    let mut f = Fields(&body);
    let n = f.count(4)?;
    let words = (0..n).map(|_| f.os()).collect::<io::Result<Vec<_>>>()?;
    let n = f.count(8)?;
    let env = (0..n)
        .map(|_| Ok((f.os()?, f.os()?)))
        .collect::<io::Result<Vec<_>>>()?;
    let input_file = match f.number()? {
        0 => None,
        _ => Some(f.bytes()?),
    };
    let stdin = f.number()? != 0;
    let entry = Entry::of(f.number()?).ok_or_else(|| bad("no such cgroup entry"))?;
    let enter = f.number()? as usize;
    f.end()?;
    let mut fds = fds.into_iter();
    let mut next = || {
        fds.next()
            .ok_or_else(|| bad("a request without its descriptors"))
    };
    let stdin_fd = if stdin { Some(next()?) } else { None };
    let (stdout, stderr) = (next()?, next()?);
    let rest: Vec<OwnedFd> = fds.collect();
    let command = AnswerCommand::from_words(words).filter(|_| enter <= rest.len());
    let Some(command) = command else {
        return Err(bad(
            "a request that names no command or too few cgroup files",
        ));
    };
    let mut rest = rest;
    let leave = rest.split_off(enter);
    let request = Request {
        command,
        env,
        input_file,
        stdin,
        entry,
        enter,
    };
    let fds = RequestFds {
        stdin: stdin_fd,
        stdout,
        stderr,
        enter: rest,
        leave,
    };
    Ok(Some((request, fds)))
}

/// Says `reply`.
pub fn send_reply(socket: &UnixStream, reply: &Reply) -> io::Result<()> {
    let mut body = Body::default();
    let (kind, fds): (Kind, Vec<BorrowedFd>) = match reply {
        Reply::Ready => (Kind::Ready, Vec::new()),
        Reply::Started { pid, pidfd } => {
            body.number(*pid);
            (Kind::Started, vec![pidfd.as_fd()])
        }
        Reply::SetupFailed { step, reason } => {
            body.bytes(step.as_bytes()).bytes(reason.as_bytes());
            (Kind::SetupFailed, Vec::new())
        }
        Reply::CannotStart { reason } => {
            body.bytes(reason.as_bytes());
            (Kind::CannotStart, Vec::new())
        }
        Reply::Ended { status } => {
            body.number(u32::from_le_bytes(status.to_le_bytes()));
            (Kind::Ended, Vec::new())
        }
    };
    send_message(socket, kind, &body.0, &fds)
}

/// The zygote's next reply; `Ok(None)` when it has closed the channel (it ended).
pub fn receive_reply(socket: &UnixStream) -> io::Result<Option<Reply>> {
    let Some((kind, body, fds)) = receive(socket)? else {
        return Ok(None);
    };
    let mut f = Fields(&body);
    let reply = match kind {
        Kind::Request => return Err(bad("a request where a reply was due")),
        Kind::Ready => Reply::Ready,
        Kind::Started => {
            let pid = f.number()?;
            let pidfd = fds
                .into_iter()
                .next()
                .ok_or_else(|| bad("a start without its pidfd"))?;
            Reply::Started { pid, pidfd }
        }
        Kind::SetupFailed => Reply::SetupFailed {
            step: f.text()?,
            reason: f.text()?,
        },
        Kind::CannotStart => Reply::CannotStart { reason: f.text()? },
        Kind::Ended => Reply::Ended {
            status: i32::from_le_bytes(f.number()?.to_le_bytes()),
        },
    };
    f.end()?;
    Ok(Some(reply))
}

/// A length as a field's number (no message holds 4 Gi of anything: `MAX_BODY`).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipe_fds() -> (OwnedFd, OwnedFd) {
        let (r, w) = std::io::pipe().expect("pipe");
        (OwnedFd::from(r), OwnedFd::from(w))
    }

    #[test]
    fn a_request_and_its_descriptors_arrive_as_sent() {
        let (judge, zygote) = UnixStream::pair().expect("socket pair");
        let request = Request {
            command: AnswerCommand::from_words(vec![
                "python3".into(),
                "golf.py".into(),
                "5 5\n#####".into(),
            ])
            .expect("a command"),
            env: vec![
                ("PATH".into(), "/usr/bin".into()),
                ("HOME".into(), "/tmp/answer".into()),
            ],
            input_file: Some(b"3 3\n###\n#O#\n###\n".to_vec()),
            stdin: true,
            entry: Entry::Thread,
            enter: 1,
        };
        let (stdin, _) = pipe_fds();
        let (_, stdout) = pipe_fds();
        let (_, stderr) = pipe_fds();
        let (enter, leave) = pipe_fds();
        let fds = RequestFds {
            stdin: Some(stdin),
            stdout,
            stderr,
            enter: vec![enter],
            leave: vec![leave],
        };
        send_request(&judge, &request, &fds).expect("sent");
        drop(judge);
        let (got, got_fds) = receive_request(&zygote).expect("read").expect("a request");
        assert_eq!(got, request);
        assert!(got_fds.stdin.is_some());
        assert_eq!((got_fds.enter.len(), got_fds.leave.len()), (1, 1));
        assert!(
            receive_request(&zygote).expect("read").is_none(),
            "then the end"
        );
    }

    #[test]
    fn each_reply_arrives_as_sent() {
        let (judge, zygote) = UnixStream::pair().expect("socket pair");
        let (pidfd, _) = pipe_fds();
        for reply in [
            Reply::Ready,
            Reply::Started { pid: 2, pidfd },
            Reply::SetupFailed {
                step: "mount a tmpfs".into(),
                reason: "EPERM".into(),
            },
            Reply::CannotStart {
                reason: "./golf: No such file".into(),
            },
            Reply::Ended { status: 9 },
        ] {
            send_reply(&zygote, &reply).expect("sent");
        }
        drop(zygote);
        let said: Vec<String> = std::iter::from_fn(|| receive_reply(&judge).expect("read"))
            .map(|r| {
                format!("{r:?}")
                    .split(" {")
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        assert_eq!(
            said,
            ["Ready", "Started", "SetupFailed", "CannotStart", "Ended"]
        );
    }

    #[test]
    fn a_message_that_lies_about_its_size_is_refused_not_trusted() {
        let (judge, zygote) = UnixStream::pair().expect("socket pair");
        let mut w = &zygote;
        // Kind Ready, then a body length past the limit.
        w.write_all(&[2, 0xff, 0xff, 0xff, 0x7f]).expect("write");
        assert!(receive_reply(&judge).is_err());
        let (judge, zygote) = UnixStream::pair().expect("socket pair");
        // A request whose command count is larger than its body.
        let mut body = Body::default();
        body.number(1_000_000);
        send_message(&zygote, Kind::Request, &body.0, &[]).expect("sent");
        assert!(receive_request(&judge).is_err());
        let (judge, zygote) = UnixStream::pair().expect("socket pair");
        send_message(&zygote, Kind::Ended, &[1, 2], &[]).expect("sent");
        assert!(receive_reply(&judge).is_err(), "a status cut short");
    }
}
