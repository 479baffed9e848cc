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

/// The screen must fit the terminal: no "Terminal too small" notice and no line wider than
/// `cols`.
fn assert_fits(screen: &str, cols: usize) {
    assert!(!screen.contains("Terminal too small"), "{screen}");
    assert!(
        screen.lines().all(|l| l.chars().count() <= cols),
        "{screen}"
    );
}

#[test]
fn play_fits_the_wikipedia_map_into_80x24_in_both_styles() {
    for (style, player_row) in [("ascii", "#  O~  ~  #  ~~~ ~"), ("unicode", "◄►▓▓")] {
        let script = format!("{} play --style {style}; sleep 30", BEAST);
        let Some(tmux) = Tmux::start(&format!("fit-{style}"), 80, 24, &script) else {
            return;
        };
        let screen = tmux.wait_for("turn 0");
        assert_fits(&screen, 80);
        assert_eq!(screen.lines().count(), 24, "{screen}");
        assert!(
            screen.contains("view (0,0)-"),
            "{style}: says what is shown\n{screen}"
        );
        assert!(
            screen.contains(player_row),
            "{style}: the player's row\n{screen}"
        );
        tmux.keys(&["Down", "Down", "Down", "Down", "Down", "Down"]);
        let screen = tmux.wait_for("turn 6");
        assert_fits(&screen, 80);
        assert!(screen.contains("turn 6:"), "{style}: {screen}");
    }
}

#[test]
fn play_on_a_300x200_map_follows_the_player_to_the_right() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let map = dir.path().join("wide.txt");
    let (cols, rows) = (300, 200);
    let mut text = format!("{cols} {rows}\n");
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                _ if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 => '#',
                (100, 1) => 'O',
                (198, 298) => 'H',
                _ if r >= 197 && c >= 297 => '#',
                _ => ' ',
            });
        }
        text.push('\n');
    }
    std::fs::write(&map, text).expect("the map is written");
    let script = format!("{} play --style ascii {}; sleep 30", BEAST, map.display());
    let Some(tmux) = Tmux::start("wide", 80, 24, &script) else {
        return;
    };
    let screen = tmux.wait_for("turn 0");
    assert_fits(&screen, 80);
    assert!(
        screen.contains("view (86,0)-(104,79) of 300x200"),
        "{screen}"
    );
    for _ in 0..10 {
        tmux.keys(&["Right"; 20]);
    }
    let screen = tmux.wait_for("turn 200");
    assert_fits(&screen, 80);
    // The player is at (100,201): the view ends 4 cells past him, at column 205.
    assert!(
        screen.contains("view (86,126)-(104,205) of 300x200"),
        "{screen}"
    );
    let row = screen.lines().nth(1 + 100 - 86).expect("the player's row");
    assert_eq!(row.chars().nth(201 - 126), Some('O'), "{screen}");
}

#[test]
fn fence_play_fits_a_25x25_field_into_80x24() {
    let script = format!("{} fence --seed 3 --size 25x25 --play; sleep 30", BEAST);
    let Some(tmux) = Tmux::start("fence", 80, 24, &script) else {
        return;
    };
    let screen = tmux.wait_for("Cursor on");
    assert_fits(&screen, 80);
    assert!(
        screen.contains("view cols 0-75/101 rows 0-14/51"),
        "{screen}"
    );
    tmux.keys(&["Right"; 24]);
    for _ in 0..5 {
        tmux.keys(&["Down"; 10]);
    }
    let screen = tmux.wait_for("Cursor on y26-z26");
    assert_fits(&screen, 80);
    assert!(
        screen.contains("view cols 25-100/101 rows 36-50/51"),
        "{screen}"
    );
    assert!(
        screen
            .lines()
            .any(|l| l.starts_with("26  ") && l.ends_with("+===+")),
        "the last row of posts, labelled, with the cursor at its end\n{screen}"
    );
}

#[test]
fn play_replay_of_the_sample_moves_fits_80x24() {
    let script = format!("{} play --replay --pace 20; sleep 30", BEAST);
    let Some(tmux) = Tmux::start("replay", 80, 24, &script) else {
        return;
    };
    let screen = tmux.wait_for("No beast is left. Score 8");
    assert_fits(&screen, 80);
    assert!(screen.contains("No beast is left. Score 8"), "{screen}");
    assert!(screen.contains("turn 29"), "{screen}");
}
