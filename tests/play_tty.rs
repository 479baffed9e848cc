//! Smoke test of `beast play` in a real terminal: tmux runs it, keys go in, the screen is
//! read back, and after `q` the terminal must be back in its normal state.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `script` in a 100-column tmux session of `rows` rows on a socket of this
    /// test's own; `None` (with a message) where tmux cannot be had.
    fn start(name: &str, rows: u16, script: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("SKIPPED: tmux is not installed, so no pseudo-terminal can be had here");
            return None;
        }
        let tmux = Tmux {
            socket: format!("beast-{name}-{}", std::process::id()),
        };
        let rows = rows.to_string();
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            "100",
            "-y",
            &rows,
            "sh",
            "-c",
            script,
        ]);
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-t", "play", "-p"])
    }

    /// Waits up to 10 s for `text` to show on the screen.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) || start.elapsed() > Duration::from_secs(10) {
                return screen;
            }
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

#[test]
fn play_draws_the_board_answers_keys_and_restores_the_terminal() {
    let script = format!(
        "{} play --style ascii; echo EXIT:$?; stty -a | tr ' ;' '\\n\\n' | grep -x icanon; sleep 30",
        env!("CARGO_BIN_EXE_beast")
    );
    let Some(tmux) = Tmux::start("play", 40, &script) else {
        return;
    };
    let screen = tmux.wait_for("turn 0");
    assert!(
        screen.contains("aHHHH! The Beasts are HHHHere!"),
        "{screen}"
    );
    assert!(
        screen.contains("#  O~  ~  #  ~~~ ~"),
        "the Wikipedia map in ascii:\n{screen}"
    );
    tmux.run(&["send-keys", "-t", "play", "Down"]);
    let screen = tmux.wait_for("turn 1");
    assert!(screen.contains("turn 1: D walks to (8,3)"), "{screen}");
    tmux.run(&["send-keys", "-t", "play", "q"]);
    let screen = tmux.wait_for("icanon");
    assert!(
        screen.contains("D\nEXIT:0"),
        "prints the moves and exits 0:\n{screen}"
    );
    assert!(
        screen.lines().any(|l| l == "icanon"),
        "raw mode is off again:\n{screen}"
    );
    assert!(
        !screen.contains("aHHHH! The Beasts"),
        "the alternate screen is gone:\n{screen}"
    );
}

#[test]
fn beast_without_a_file_on_a_terminal_prints_a_usage_hint_instead_of_waiting() {
    let script = format!("{}; echo EXIT:$?; sleep 30", env!("CARGO_BIN_EXE_beast"));
    let Some(tmux) = Tmux::start("hint", 20, &script) else {
        return;
    };
    let screen = tmux.wait_for("EXIT:");
    assert!(
        screen.contains("give a puzzle file, or pipe one in"),
        "{screen}"
    );
    assert!(screen.contains("EXIT:2"), "{screen}");
}
