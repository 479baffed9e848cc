//! The processes of this machine as `/proc` shows them: who is whose parent, and every
//! process below one. (Empty where there is no `/proc`.)

use std::collections::{HashMap, HashSet};

use crate::cli::platform::Pid;

/// Every process below `root`, from the parent links in `/proc`.
pub fn descendants(root: Pid) -> Vec<Pid> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if let Some(ppid) = parent_of(pid) {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let mut todo = vec![root.as_raw()];
    while let Some(p) = todo.pop() {
        for &c in children.get(&p).into_iter().flatten() {
            if seen.insert(c) {
                found.push(Pid::from_raw(c));
                todo.push(c);
            }
        }
    }
    found
}

/// The parent of `pid`, from `/proc/PID/stat`.
pub fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(") ")?;
    rest.split(' ').nth(1)?.parse().ok()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use nix::unistd::{getpid, getppid};
    use std::process::Command;

    #[test]
    fn the_parent_of_this_process_is_read_from_proc() {
        let me = std::process::id() as i32;
        assert_eq!(parent_of(me), Some(getppid().as_raw()));
    }

    #[test]
    fn a_spawned_child_is_a_descendant() {
        let mut child = Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep starts");
        let pid = child.id() as i32;
        let found = descendants(getpid());
        let _ = child.kill();
        let _ = child.wait();
        assert!(found.contains(&Pid::from_raw(pid)), "{found:?}");
    }
}
