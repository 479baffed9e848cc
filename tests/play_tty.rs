//! Smoke test of `beast play` in a real terminal: tmux runs it, keys go in, the screen is
//! read back, and after `q` the terminal must be back in its normal state.

use crate::util::{BEAST, Tmux};

#[test]
fn play_draws_the_board_answers_keys_and_restores_the_terminal() {
    let script = format!(
        "{} play --style ascii; echo EXIT:$?; stty -a | tr ' ;' '\\n\\n' | grep -x icanon; sleep 30",
        BEAST
    );
    let Some(tmux) = Tmux::start("play", 100, 40, &script) else {
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
    tmux.keys(&["Down"]);
    let screen = tmux.wait_for("turn 1");
    assert!(screen.contains("turn 1: D walks to (8,3)"), "{screen}");
    tmux.keys(&["q"]);
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
    let script = format!("{}; echo EXIT:$?; sleep 30", BEAST);
    let Some(tmux) = Tmux::start("hint", 100, 20, &script) else {
        return;
    };
    let screen = tmux.wait_for("EXIT:");
    assert!(
        screen.contains("give a puzzle file, or pipe one in"),
        "{screen}"
    );
    assert!(screen.contains("EXIT:2"), "{screen}");
}
