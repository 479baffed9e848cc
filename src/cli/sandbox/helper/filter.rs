//! The seccomp filter, as a classic BPF program built here: the architecture checked, then
//! a binary search over the system call numbers the filter has a word for, each leading to
//! its action. [`SECCOMP_REFUSED`] is the one list of refused calls (the README names it).
//!
//! Why not a list of comparisons (what `seccompiler` builds): when a filter is installed,
//! the kernel runs it once for every system call number, to learn which ones it allows
//! whatever their arguments, and does so with interrupts off. Through a list of 50
//! comparisons that took 0.2 ms of each case; a search takes a handful of steps a number.
//! Numbers at or above `0x4000_0000` (x86_64's x32 calls, which reach the same kernel code
//! under other numbers) are refused as a whole.

use nix::libc;
use seccompiler::{BpfProgram, sock_filter};

/// The system calls the seccomp filter refuses with `EPERM`, by name (the README lists
/// them): new mounts and namespaces, tracing and other processes' memory, the kernel's
/// keyring, BPF, perf, userfaultfd, io_uring, kexec and modules. `clone` is refused only
/// with a namespace flag, and `socket` only for `AF_VSOCK`; `clone3`, whose flags the
/// filter cannot read, gets `ENOSYS` so that the C library falls back to `clone`.
pub const SECCOMP_REFUSED: [(&str, i64); 34] = [
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("unshare", libc::SYS_unshare),
    ("setns", libc::SYS_setns),
    ("fsopen", libc::SYS_fsopen),
    ("fsconfig", libc::SYS_fsconfig),
    ("fsmount", libc::SYS_fsmount),
    ("fspick", libc::SYS_fspick),
    ("move_mount", libc::SYS_move_mount),
    ("open_tree", libc::SYS_open_tree),
    ("mount_setattr", libc::SYS_mount_setattr),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("ptrace", libc::SYS_ptrace),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("keyctl", libc::SYS_keyctl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("reboot", libc::SYS_reboot),
];

/// System V IPC and POSIX message queues, refused too where no IPC namespace keeps them
/// private (basic): what they leave outlives the case, and the queues' limit is the
/// machine's.
pub const SYSV_IPC: [i64; 4] = [
    libc::SYS_shmget,
    libc::SYS_msgget,
    libc::SYS_semget,
    libc::SYS_mq_open,
];

/// The namespace flags `clone` is refused with (all in the low 32 bits of its first
/// argument).
pub const NAMESPACE_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWCGROUP) as u32;

/// The first number of x86_64's x32 calls; the filter refuses every number from it on.
pub const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// This build's architecture, as `seccomp_data.arch` gives it.
#[cfg(target_arch = "x86_64")]
pub const ARCH: u32 = 62 | 0x8000_0000 | 0x4000_0000;
#[cfg(target_arch = "aarch64")]
pub const ARCH: u32 = 183 | 0x8000_0000 | 0x4000_0000;
#[cfg(target_arch = "riscv64")]
pub const ARCH: u32 = 243 | 0x8000_0000 | 0x4000_0000;

/// What the filter does with a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Let it through.
    Allow,
    /// Fail it with this `errno`.
    Errno(u16),
    /// Kill the process (a call from another architecture's table).
    Kill,
}

impl Action {
    /// The `SECCOMP_RET_*` value.
    fn ret(self) -> u32 {
        match self {
            Action::Allow => 0x7fff_0000,
            Action::Errno(e) => 0x0005_0000 | u32::from(e),
            Action::Kill => 0x8000_0000,
        }
    }
}

/// What the filter does with one of the numbers it knows: an action, or a test of the
/// low 32 bits of the first argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    Always(Action),
    /// Refused (`EPERM`) when any of these bits is set.
    AnyBit(u32),
    /// Refused (`EPERM`) when it equals this.
    Equals(u32),
}

/// The numbers the filter knows, sorted, with what it does with each.
fn words(sysv_ipc: bool) -> Vec<(u32, Word)> {
    let eperm = Word::Always(Action::Errno(libc::EPERM as u16));
    let mut words: Vec<(u32, Word)> = SECCOMP_REFUSED
        .iter()
        .map(|&(_, nr)| (nr as u32, eperm))
        .collect();
    if sysv_ipc {
        words.extend(SYSV_IPC.iter().map(|&nr| (nr as u32, eperm)));
    }
    words.push((
        libc::SYS_clone3 as u32,
        Word::Always(Action::Errno(libc::ENOSYS as u16)),
    ));
    words.push((libc::SYS_clone as u32, Word::AnyBit(NAMESPACE_FLAGS)));
    // vsock reaches the machine's hypervisor, and no network namespace holds it.
    words.push((libc::SYS_socket as u32, Word::Equals(libc::AF_VSOCK as u32)));
    words.sort_unstable_by_key(|&(nr, _)| nr);
    words
}

// The classic BPF instructions the filter is made of (linux/bpf_common.h): BPF_LD (0) of
// a BPF_W (0) at BPF_ABS (0x20), BPF_JMP (5) on BPF_K (0) by JEQ, JGE, JSET, BPF_RET of K.
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x05 | 0x10;
const JGE_K: u16 = 0x05 | 0x30;
const JSET_K: u16 = 0x05 | 0x40;
const RET_K: u16 = 0x06;

// Offsets in `struct seccomp_data`: the number, the architecture, the first argument's
// low 32 bits (every architecture here is little-endian).
const NR: u32 = 0;
const ARCH_OFFSET: u32 = 4;
const ARG0_LOW: u32 = 16;

/// Where a jump goes: the next instruction, or a label placed later.
#[derive(Clone, Copy)]
enum To {
    Next,
    Label(usize),
}

/// An instruction before its jumps are resolved.
enum Op {
    Load(u32),
    Jump(u16, u32, To, To),
    Ret(Action),
    Place(usize),
}

/// Builds the program with labels, then resolves them to offsets.
#[derive(Default)]
struct Assembler {
    ops: Vec<Op>,
    labels: usize,
}

impl Assembler {
    fn label(&mut self) -> usize {
        self.labels += 1;
        self.labels - 1
    }

    /// The search over `words` (sorted): a split on the middle number, down to a few
    /// comparisons; a number not in `words` is allowed.
    fn search(&mut self, words: &[(u32, Word)], targets: &[usize]) {
        if words.len() <= 3 {
            for (i, &(nr, _)) in words.iter().enumerate() {
                self.ops
                    .push(Op::Jump(JEQ_K, nr, To::Label(targets[i]), To::Next));
            }
            self.ops.push(Op::Ret(Action::Allow));
            return;
        }
        let mid = words.len() / 2;
        let upper = self.label();
        self.ops
            .push(Op::Jump(JGE_K, words[mid].0, To::Label(upper), To::Next));
        self.search(&words[..mid], &targets[..mid]);
        self.ops.push(Op::Place(upper));
        self.search(&words[mid..], &targets[mid..]);
    }

    /// The instructions, each jump an offset; an error if one is too far for a byte.
    fn finish(self) -> Result<BpfProgram, String> {
        let mut at = vec![0usize; self.labels];
        let mut n = 0;
        for op in &self.ops {
            match op {
                Op::Place(l) => at[*l] = n,
                _ => n += 1,
            }
        }
        let mut program = Vec::with_capacity(n);
        for op in &self.ops {
            let here = program.len();
            let offset = |to: To| -> Result<u8, String> {
                match to {
                    To::Next => Ok(0),
                    To::Label(l) => u8::try_from(at[l] - here - 1)
                        .map_err(|_| format!("a jump of {} instructions", at[l] - here - 1)),
                }
            };
            program.push(match *op {
                Op::Place(_) => continue,
                Op::Load(k) => sock_filter {
                    code: LD_W_ABS,
                    jt: 0,
                    jf: 0,
                    k,
                },
                Op::Jump(code, k, jt, jf) => sock_filter {
                    code,
                    jt: offset(jt)?,
                    jf: offset(jf)?,
                    k,
                },
                Op::Ret(action) => sock_filter {
                    code: RET_K,
                    jt: 0,
                    jf: 0,
                    k: action.ret(),
                },
            });
        }
        Ok(program)
    }
}

/// The filter: refused calls (`EPERM`), `clone` with a namespace flag and `socket` of
/// `AF_VSOCK` (`EPERM`), `clone3` (`ENOSYS`), and with `sysv_ipc` System V IPC too. A call
/// from another architecture's table (the 32-bit one on x86_64) kills the process.
pub fn program(sysv_ipc: bool) -> Result<BpfProgram, String> {
    let words = words(sysv_ipc);
    let mut asm = Assembler::default();
    let kill = asm.label();
    let eperm = asm.label();
    asm.ops.push(Op::Load(ARCH_OFFSET));
    asm.ops
        .push(Op::Jump(JEQ_K, ARCH, To::Next, To::Label(kill)));
    asm.ops.push(Op::Load(NR));
    asm.ops
        .push(Op::Jump(JGE_K, X32_SYSCALL_BIT, To::Label(eperm), To::Next));
    let targets: Vec<usize> = words.iter().map(|_| asm.label()).collect();
    asm.search(&words, &targets);
    for (&(_, word), &target) in words.iter().zip(&targets) {
        asm.ops.push(Op::Place(target));
        match word {
            Word::Always(action) => asm.ops.push(Op::Ret(action)),
            Word::AnyBit(bits) => {
                asm.ops.push(Op::Load(ARG0_LOW));
                asm.ops
                    .push(Op::Jump(JSET_K, bits, To::Label(eperm), To::Next));
                asm.ops.push(Op::Ret(Action::Allow));
            }
            Word::Equals(value) => {
                asm.ops.push(Op::Load(ARG0_LOW));
                asm.ops
                    .push(Op::Jump(JEQ_K, value, To::Label(eperm), To::Next));
                asm.ops.push(Op::Ret(Action::Allow));
            }
        }
    }
    asm.ops.push(Op::Place(eperm));
    asm.ops.push(Op::Ret(Action::Errno(libc::EPERM as u16)));
    asm.ops.push(Op::Place(kill));
    asm.ops.push(Op::Ret(Action::Kill));
    asm.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `program` on one call as the kernel would (the subset of classic BPF the
    /// filter uses): what it does, and after how many instructions.
    fn trace(program: &[sock_filter], arch: u32, nr: u32, arg0: u64) -> (Action, usize) {
        let mut a = 0u32;
        let mut pc = 0usize;
        for steps in 1.. {
            let ins = &program[pc];
            pc += 1;
            match ins.code {
                LD_W_ABS => {
                    a = match ins.k {
                        NR => nr,
                        ARCH_OFFSET => arch,
                        ARG0_LOW => arg0 as u32,
                        k => panic!("a load of offset {k}"),
                    }
                }
                JEQ_K | JGE_K | JSET_K => {
                    let taken = match ins.code {
                        JEQ_K => a == ins.k,
                        JGE_K => a >= ins.k,
                        _ => a & ins.k != 0,
                    };
                    pc += usize::from(if taken { ins.jt } else { ins.jf });
                }
                RET_K => {
                    let action = match ins.k {
                        0x7fff_0000 => Action::Allow,
                        0x8000_0000 => Action::Kill,
                        k if k & 0xffff_0000 == 0x0005_0000 => Action::Errno(k as u16),
                        k => panic!("a return of {k:#x}"),
                    };
                    return (action, steps);
                }
                code => panic!("an instruction {code:#x}"),
            }
        }
        unreachable!()
    }

    fn run(program: &[sock_filter], arch: u32, nr: u32, arg0: u64) -> Action {
        trace(program, arch, nr, arg0).0
    }

    const EPERM: Action = Action::Errno(libc::EPERM as u16);

    fn refused(sysv_ipc: bool) -> Vec<u32> {
        let mut nrs: Vec<u32> = SECCOMP_REFUSED.iter().map(|&(_, n)| n as u32).collect();
        if sysv_ipc {
            nrs.extend(SYSV_IPC.iter().map(|&n| n as u32));
        }
        nrs
    }

    #[test]
    fn every_refused_call_is_refused_and_every_other_number_allowed() {
        for sysv_ipc in [false, true] {
            let program = program(sysv_ipc).expect("the filter builds");
            let refused = refused(sysv_ipc);
            for nr in 0..1024u32 {
                let want = if refused.contains(&nr) {
                    EPERM
                } else if nr == libc::SYS_clone3 as u32 {
                    Action::Errno(libc::ENOSYS as u16)
                } else {
                    Action::Allow
                };
                assert_eq!(
                    run(&program, ARCH, nr, 0),
                    want,
                    "call {nr}, ipc {sysv_ipc}"
                );
            }
        }
    }

    #[test]
    fn system_v_ipc_is_refused_only_where_no_namespace_holds_it() {
        let shmget = libc::SYS_shmget as u32;
        assert_eq!(
            run(&program(false).unwrap(), ARCH, shmget, 0),
            Action::Allow
        );
        assert_eq!(run(&program(true).unwrap(), ARCH, shmget, 0), EPERM);
    }

    #[test]
    fn clone_is_refused_with_any_namespace_flag_and_allowed_without() {
        let program = program(false).unwrap();
        let clone = libc::SYS_clone as u32;
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        assert_eq!(run(&program, ARCH, clone, thread), Action::Allow);
        assert_eq!(
            run(&program, ARCH, clone, libc::SIGCHLD as u64),
            Action::Allow
        );
        for bit in 0..32 {
            let flag = 1u32 << bit;
            if flag & NAMESPACE_FLAGS != 0 {
                let flags = u64::from(flag) | libc::SIGCHLD as u64;
                assert_eq!(run(&program, ARCH, clone, flags), EPERM, "flag {flag:#x}");
            }
        }
        assert_eq!(NAMESPACE_FLAGS.count_ones(), 7);
    }

    #[test]
    fn only_vsock_sockets_are_refused() {
        let program = program(false).unwrap();
        let socket = libc::SYS_socket as u32;
        assert_eq!(run(&program, ARCH, socket, libc::AF_VSOCK as u64), EPERM);
        for family in [libc::AF_UNIX, libc::AF_INET, libc::AF_INET6] {
            assert_eq!(run(&program, ARCH, socket, family as u64), Action::Allow);
        }
    }

    #[test]
    fn x32_numbers_are_refused_and_another_architecture_is_killed() {
        let program = program(false).unwrap();
        let mount = libc::SYS_mount as u32;
        let getpid = libc::SYS_getpid as u32;
        assert_eq!(run(&program, ARCH, X32_SYSCALL_BIT | mount, 0), EPERM);
        assert_eq!(run(&program, ARCH, X32_SYSCALL_BIT | getpid, 0), EPERM);
        assert_eq!(run(&program, ARCH, u32::MAX, 0), EPERM);
        let i386 = 3 | 0x4000_0000;
        assert_eq!(run(&program, i386, getpid, 0), Action::Kill);
    }

    #[test]
    fn a_number_takes_few_steps_through_the_search() {
        // The point of the search: the kernel runs the filter for every number when it is
        // installed (and on every call of the answer's that it could not settle then).
        let program = program(true).unwrap();
        let worst = (0..1024)
            .map(|nr| trace(&program, ARCH, nr, 0).1)
            .max()
            .unwrap();
        assert!(worst <= 14, "{worst} instructions for some number");
        assert!(program.len() < 200, "{} instructions", program.len());
    }

    #[test]
    fn every_refused_call_is_named_once() {
        let mut names: Vec<&str> = SECCOMP_REFUSED.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SECCOMP_REFUSED.len());
    }

    #[test]
    fn the_readme_lists_every_refused_call() {
        let readme = include_str!("../../../../README.md");
        let start = readme
            .find("The seccomp filter refuses")
            .expect("the README's list");
        let list = &readme[start..start + 1200];
        for (name, _) in SECCOMP_REFUSED {
            assert!(
                list.contains(&format!("`{name}`")),
                "{name} is not in the README"
            );
        }
    }
}
