//! The deadline a layout is made under (the judge's side): [`Layout::within`] makes it on a
//! thread of its own and gives up when the time is over or an interrupt comes, stopping
//! any version manager the thread still asks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::{Layout, Request, Unfinished};

impl Layout {
    /// The layout for one answer, made on a thread of its own within `time`; `interrupted`
    /// (asked every few milliseconds) stops it early, as an interrupt does. A version
    /// manager still asked then is killed.
    pub fn within(
        req: Request,
        time: Duration,
        interrupted: &dyn Fn() -> bool,
    ) -> Result<Layout, Unfinished> {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let stopped = Arc::clone(&stop);
        std::thread::spawn(move || {
            let layout = Layout::made(&req, &|| stopped.load(Ordering::SeqCst));
            let _ = tx.send(layout);
        });
        let started = Instant::now();
        loop {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(layout) => return layout,
                Err(RecvTimeoutError::Disconnected) => return Err(Unfinished::Lost),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let why = if interrupted() {
                Unfinished::Interrupted
            } else if started.elapsed() >= time {
                Unfinished::TooSlow(time)
            } else {
                continue;
            };
            stop.store(true, Ordering::SeqCst);
            // A moment for the thread to kill what it started; a read stuck in the kernel
            // is left behind, and ends with the process.
            let _ = rx.recv_timeout(Duration::from_millis(200));
            return Err(why);
        }
    }
}
