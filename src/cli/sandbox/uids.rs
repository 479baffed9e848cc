//! The user ids answers run as, one per answer running at once: root's range from
//! [`FIRST_UID`], each id held by a lock file so that no other judge of the machine hands it
//! out at the same time, or a normal user's subordinate range (`/etc/subuid`). A leaf: the
//! host holds the pool, and a zygote or a case holds a [`Lease`] while it runs.

use std::fs::File;
use std::path::Path;
use std::sync::Mutex;

use crate::cli::platform::FileLock;

/// The first of the user ids answers run as when the judge is root: one per answer
/// running at once, never shared (`0x70000000`, above the ranges that distributions and
/// systemd hand out).
pub const FIRST_UID: u32 = 1_879_048_192;

/// How many user ids the range holds.
pub const UIDS: u32 = 65_536;

/// Where the judges of a machine lock the user ids they hand out.
const UID_LOCKS: &str = "/run/beast-judge";

/// The user ids of one check: under root from [`FIRST_UID`], each held by a lock file so
/// that no other judge of the machine hands it out while this one may use it; for a
/// normal user from its subordinate range, without locks (the lock directory is root's),
/// from a place of the range picked by this process's number.
#[derive(Debug)]
pub struct UidPool {
    free: Mutex<Vec<Lease>>,
    first: u32,
    count: u32,
    locked: bool,
    /// Ids handed out so far (unlocked pools).
    made: Mutex<u32>,
}

/// One user id, held.
#[derive(Debug)]
pub struct Lease {
    /// The user (and group) id.
    pub uid: u32,
    _lock: Option<FileLock>,
}

impl UidPool {
    /// The `count` ids from `first`, held by lock files when `locked`.
    pub fn new(first: u32, count: u32, locked: bool) -> UidPool {
        UidPool {
            free: Mutex::new(Vec::new()),
            first,
            count: count.max(2),
            locked,
            made: Mutex::new(0),
        }
    }

    /// The first id of the pool, as the report names it.
    pub fn first(&self) -> u32 {
        self.first
    }

    /// A user id no other answer running now has.
    pub fn take(&self) -> Lease {
        if let Some(lease) = self.free.lock().ok().and_then(|mut f| f.pop()) {
            return lease;
        }
        // The last id of the range is the probe's.
        let usable = self.count - 1;
        if self.locked {
            let dir = Path::new(UID_LOCKS);
            let _ = std::fs::create_dir_all(dir);
            for n in 0..usable {
                let Ok(file) = File::create(dir.join(format!("uid-{n}"))) else {
                    break;
                };
                if let Some(lock) = FileLock::try_new(file) {
                    return Lease {
                        uid: self.first + n,
                        _lock: Some(lock),
                    };
                }
            }
        }
        // No lock: an id from this process's own number on, one more a lease.
        let made = self.made.lock().map_or(0, |mut m| {
            *m += 1;
            *m - 1
        });
        Lease {
            uid: self.first + (std::process::id().wrapping_add(made)) % usable,
            _lock: None,
        }
    }

    /// Gives a lease back for the next case.
    pub fn give(&self, lease: Lease) {
        if let Ok(mut free) = self.free.lock() {
            free.push(lease);
        }
    }
}
