//! The misreadings of the blind trial (`tests/fixtures/blind/KEY.md`), one test each on
//! the map of the built-in example that decides it (`examples/beast/INDEX.md` works each
//! one out by hand): what our rules give, and what the misreading gives instead.

use super::*;
use crate::beast::variant::find;

/// Our answer and the answer under catalogue entry `name`, on `map` with `moves`.
fn ours_and(name: &str, map: &str, moves: &str) -> (String, String) {
    let rules = find(name).expect("in the catalogue").apply(Rules::OURS);
    let p = puzzle(map, moves);
    let answer = |r| play_out(&p, r).expect("judged").answer();
    (answer(Rules::OURS), answer(rules))
}

#[test]
fn a_beast_kills_only_by_stepping_onto_the_cell_the_player_is_in() {
    // Turn 4: the player pushes right from (2,1); beast B steps onto (2,1), the turn's
    // target, which he has left. He is eaten on turn 8, after crushing beast A on turn 5.
    let map = "
        #######
        # O~  #
        # ~~ H#
        #     #
        # H   #
        #######";
    assert_eq!(
        ours_and("kill-at-target", map, "LWDRR"),
        ("aHHHH!\n2\n".to_string(), "aHHHH!\n0\n".to_string())
    );
}

#[test]
fn beasts_in_one_row_are_ranked_left_to_right() {
    // Ranked left to right, (3,1) moves first; right to left, (3,2) does and (3,1) steps
    // where the push of turn 3 crushes it.
    let map = "
        ####
        # O#
        # ~#
        #HH#
        ####";
    assert_eq!(
        ours_and("order-right-to-left", map, "URD"),
        ("aHHHH!\n0\n".to_string(), "aHHHH!\n2\n".to_string())
    );
}

#[test]
fn beasts_are_ranked_row_by_row_not_column_by_column() {
    let map = "
        ######
        #   H#
        # ~H #
        #O~  #
        ######";
    assert_eq!(
        ours_and("order-column-major", map, "W"),
        ("aHHHH!\n0\n".to_string(), "0\n".to_string())
    );
}

#[test]
fn a_stalemate_is_a_repeat_among_the_waiting_turns_only() {
    // Before turn 5 the beast stands at (1,1) as it did before turn 1 (both odd): not a
    // stalemate, since turn 1 was a turn of the moves. It eats the player on turn 6.
    let map = "
        ####
        #H #
        #  #
        # O#
        ####";
    assert_eq!(
        ours_and("stalemate-from-start", map, "ULUD"),
        ("aHHHH!\n0\n".to_string(), "0\n".to_string())
    );
}

#[test]
fn distances_are_compared_exactly_not_rounded() {
    use crate::beast::measure::{Euclidean, Measure, Rounded};
    // 10 (3.16) and 12 (3.46) both round to 3; 12 and 13 (3.61) to 3 and 4.
    assert_eq!(Rounded::join(1, 9), 3);
    assert_eq!(Rounded::join(4, 8), 3);
    assert_eq!(Rounded::join(4, 9), 4);
    for d in 0..10_000u64 {
        let exact = (d as f64).sqrt().round() as u64;
        assert_eq!(Rounded::join(d, 0), exact, "{d}");
    }
    assert!(Euclidean::join(1, 9) < Euclidean::join(4, 8));
}
