//! One test per rule of RULES.md section 3. Expected values come from the rules text, never
//! from the engine.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::*;
use crate::grid::Dir::{Left, Right, Up};

fn p(row: usize, col: usize) -> Pos {
    Pos::new(row, col)
}

/// The ten dot cells, written out by hand from the map.
fn all_ten_dots() -> BTreeSet<Pos> {
    [
        p(1, 2),
        p(1, 3),
        p(1, 4),
        p(2, 1),
        p(2, 5),
        p(3, 1),
        p(3, 2),
        p(3, 3),
        p(3, 4),
        p(3, 5),
    ]
    .into_iter()
    .collect()
}

/// Everything but the message, which a turned-down move is allowed to change.
fn game_part(c: &Collector) -> impl PartialEq + std::fmt::Debug {
    (
        c.player(),
        c.patrol_index(),
        c.dots().clone(),
        c.score(),
        c.turn(),
        c.state(),
        c.history().to_vec(),
        c.staged(),
    )
}

fn play(c: &mut Collector, moves: &str) {
    for ch in moves.chars() {
        let dir = Dir::from_letter(ch).expect("test moves are UDLR");
        let _ = c.apply(dir);
    }
}

#[test]
fn the_start_has_player_1_1_guard_1_5_and_ten_dots_on_the_other_walkable_cells() {
    let c = Collector::new();
    assert_eq!(c.player(), p(1, 1));
    assert_eq!(c.guard(), p(1, 5));
    assert_eq!(c.patrol_index(), 0);
    assert_eq!(c.dots(), &all_ten_dots());
    assert_eq!((c.score(), c.turn(), c.state()), (0, 0, State::Playing));
    assert!(c.history().is_empty());
    assert_eq!(c.board_rows(), MAP);
}

#[test]
fn the_patrol_visits_the_twelve_walkable_cells_in_a_loop_of_neighbours() {
    let floor: BTreeSet<Pos> = Collector::new()
        .map()
        .iter()
        .filter(|(_, t)| **t == Tile::Floor)
        .map(|(pos, _)| pos)
        .collect();
    assert_eq!(floor.len(), 12);
    assert_eq!(PATROL.iter().copied().collect::<BTreeSet<_>>(), floor);
    for i in 0..12 {
        let (a, b) = (PATROL[i], PATROL[(i + 1) % 12]);
        assert_eq!(
            a.row.abs_diff(b.row) + a.col.abs_diff(b.col),
            1,
            "{a} to {b}"
        );
    }
}

#[test]
fn up_from_the_start_is_rejected_and_changes_nothing() {
    let mut c = Collector::new();
    let before = c.clone();
    let err = c.apply(Up).expect_err("wall above (1,1)");
    assert_eq!(
        err,
        MoveError::Wall {
            dir: Up,
            cell: p(0, 1)
        }
    );
    assert_eq!(game_part(&c), game_part(&before));
    assert_eq!(c.guard(), p(1, 5), "the guard did not sneak down to (2,5)");
}

#[test]
fn a_rejected_move_message_names_the_wall_cell() {
    let mut c = Collector::new();
    let _ = c.apply(Left);
    assert!(c.message().contains("wall at (1,0)"), "{}", c.message());
    assert!(c.message().contains("rejected"), "{}", c.message());
}

#[test]
fn a_rejected_move_is_not_recorded_in_the_history() {
    let mut c = Collector::new();
    play(&mut c, "RUR");
    assert_eq!(c.history_string(), "RR");
    assert_eq!(c.turn(), 2);
}

#[test]
fn right_from_the_start_gives_player_1_2_guard_2_5_score_1_and_9_left() {
    let mut c = Collector::new();
    assert_eq!(c.apply(Right), Ok(Outcome::Moved { collected: true }));
    assert_eq!(c.player(), p(1, 2));
    assert_eq!(c.guard(), p(2, 5));
    assert_eq!(c.next_guard(), p(3, 5));
    assert_eq!((c.score(), c.remaining(), c.turn()), (1, 9, 1));
    assert_eq!(c.state(), State::Playing);
    assert_eq!(c.history_string(), "R");
}

#[test]
fn step_is_pure_and_leaves_the_old_state_alone() {
    let c = Collector::new();
    let before = c.clone();
    let (next, _) = c.step(Right).expect("right is open");
    assert_eq!(c, before);
    assert_eq!(next.player(), p(1, 2));
}

#[test]
fn contact_on_a_shared_destination_loses() {
    let mut c = Collector::scenario(Scenario::SharedDestination);
    assert_eq!(
        c.apply(Right),
        Ok(Outcome::Lost(Contact::SameDestination(p(3, 5))))
    );
    assert_eq!(c.player(), p(3, 5));
    assert_eq!(c.guard(), p(3, 5));
    assert_eq!(c.state(), State::Lost);
    assert_eq!(c.turn(), 1);
}

#[test]
fn contact_by_swapping_cells_loses_though_the_endpoints_differ() {
    let mut c = Collector::scenario(Scenario::ExchangedEdge);
    let outcome = c.apply(Left);
    assert_eq!(
        outcome,
        Ok(Outcome::Lost(Contact::Swapped {
            player_was: p(1, 5),
            guard_was: p(1, 4)
        }))
    );
    assert_eq!((c.player(), c.guard()), (p(1, 4), p(1, 5)));
    assert_eq!(c.state(), State::Lost);
}

#[test]
fn contact_is_resolved_before_collecting_so_the_dot_stays() {
    let mut c = Collector::scenario(Scenario::SharedDestination);
    let _ = c.apply(Right);
    assert!(c.dots().contains(&p(3, 5)));
    assert_eq!((c.score(), c.remaining()), (0, 10));
}

#[test]
fn the_final_item_scenario_ends_lost_with_9_points_and_1_dot_left() {
    let mut c = Collector::scenario(Scenario::FinalItem);
    assert_eq!(c.dots(), &BTreeSet::from([p(3, 5)]));
    assert_eq!(c.score(), 9);
    let _ = c.apply(Right);
    assert_eq!(c.state(), State::Lost);
    assert_eq!((c.score(), c.remaining()), (9, 1));
}

#[test]
fn the_staged_scenarios_have_the_stated_positions_patrol_index_dots_and_score() {
    let table = [
        (Scenario::SharedDestination, p(3, 4), p(2, 5), 1, 10, 0),
        (Scenario::ExchangedEdge, p(1, 5), p(1, 4), 11, 10, 0),
        (Scenario::FinalItem, p(3, 4), p(2, 5), 1, 1, 9),
    ];
    for (s, player, guard, index, dots, score) in table {
        let c = Collector::scenario(s);
        assert_eq!(c.player(), player, "{s}");
        assert_eq!(c.guard(), guard, "{s}");
        assert_eq!(c.patrol_index(), index, "{s}");
        assert_eq!(c.remaining(), dots, "{s}");
        assert_eq!(c.score(), score, "{s}");
        assert_eq!(c.staged(), Some(s));
    }
}

#[test]
fn a_staged_scenario_starts_at_turn_0_with_an_empty_history() {
    for s in Scenario::ALL {
        let c = Collector::scenario(s);
        assert_eq!(c.turn(), 0, "{s}");
        assert!(c.history().is_empty(), "{s}");
        assert_eq!(c.state(), State::Playing, "{s}");
    }
}

#[test]
fn standing_on_a_dot_does_not_collect_it_until_the_player_arrives_by_a_move() {
    // shared-destination puts the player on (3,4), a dot cell.
    let mut c = Collector::scenario(Scenario::SharedDestination);
    assert!(c.dots().contains(&p(3, 4)));
    let _ = c.apply(Left);
    assert_eq!(c.player(), p(3, 3));
    assert!(c.dots().contains(&p(3, 4)), "leaving does not collect");
    assert_eq!(c.score(), 1, "only (3,3) was collected");
}

#[test]
fn scenarios_are_found_by_name_and_unknown_names_are_refused() {
    for s in Scenario::ALL {
        assert_eq!(s.name().parse::<Scenario>(), Ok(s));
    }
    assert_eq!(
        "shared".parse::<Scenario>(),
        Err(UnknownScenario("shared".into()))
    );
}

#[test]
fn revisiting_a_collected_cell_gives_nothing() {
    let mut c = Collector::new();
    let _ = c.apply(Right);
    let _ = c.apply(Right); // (1,3)
    assert_eq!(c.apply(Left), Ok(Outcome::Moved { collected: false }));
    assert_eq!(c.player(), p(1, 2));
    assert_eq!((c.score(), c.remaining(), c.turn()), (2, 8, 3));
}

#[test]
fn a_full_walk_behind_the_guard_collects_all_ten_and_wins() {
    // Follow the guard clockwise, two to four cells behind it.
    let mut c = Collector::new();
    play(&mut c, "RRRRDDLLLL");
    assert_eq!(c.state(), State::Playing);
    assert_eq!(c.remaining(), 1);
    assert_eq!(c.apply(Up), Ok(Outcome::Won));
    assert_eq!(c.state(), State::Won);
    assert_eq!((c.score(), c.remaining(), c.turn()), (10, 0, 11));
    assert_eq!(c.history_string(), "RRRRDDLLLLU");
}

#[test]
fn every_move_after_an_ending_is_refused() {
    let mut won = Collector::new();
    play(&mut won, "RRRRDDLLLLU");
    let mut lost = Collector::scenario(Scenario::ExchangedEdge);
    let _ = lost.apply(Left);
    for (mut c, state) in [(won, State::Won), (lost, State::Lost)] {
        let before = c.clone();
        for dir in Dir::ALL {
            assert_eq!(c.apply(dir), Err(MoveError::Ended { dir, state }));
            assert_eq!(game_part(&c), game_part(&before));
            assert!(c.message().contains("refused"), "{}", c.message());
        }
    }
}

#[test]
fn reset_restores_everything() {
    let mut c = Collector::new();
    play(&mut c, "RRRDU");
    c.reset();
    assert_eq!(c, Collector::new());
    let mut staged = Collector::scenario(Scenario::FinalItem);
    let _ = staged.apply(Right);
    staged.reset();
    assert_eq!(staged.player(), p(1, 1));
    assert_eq!(staged.guard(), p(1, 5));
    assert_eq!(staged.dots(), &all_ten_dots());
    assert_eq!((staged.score(), staged.turn()), (0, 0));
    assert_eq!(staged.staged(), None);
    assert_eq!(staged.message(), NEW_GAME_MESSAGE);
}

#[test]
fn each_accepted_move_advances_the_guard_one_patrol_step() {
    let mut c = Collector::new();
    let _ = c.apply(Right);
    assert_eq!((c.patrol_index(), c.guard()), (1, p(2, 5)));
    let _ = c.apply(Up); // rejected: the guard stays
    assert_eq!((c.patrol_index(), c.guard()), (1, p(2, 5)));
    let _ = c.apply(Left);
    assert_eq!((c.patrol_index(), c.guard()), (2, p(3, 5)));
    assert_eq!(c.next_guard(), p(3, 4));
}

#[test]
fn the_patrol_loops_from_index_11_back_to_index_0() {
    let c = Collector::scenario(Scenario::ExchangedEdge);
    assert_eq!(c.patrol_index(), 11);
    assert_eq!(c.next_guard(), p(1, 5));
}

#[test]
fn the_board_shows_walls_dots_player_guard_and_x_on_contact() {
    let mut c = Collector::scenario(Scenario::SharedDestination);
    assert_eq!(
        c.board_rows(),
        ["#######", "# ... #", "#.###G#", "#...P.#", "#######"]
    );
    let _ = c.apply(Right);
    assert_eq!(c.glyph(p(3, 5)), 'X');
    assert_eq!(c.glyph(p(3, 4)), '.');
}

#[test]
fn the_status_line_has_every_field() {
    let mut c = Collector::new();
    let _ = c.apply(Right);
    let line = c.status_line();
    for want in [
        "player (1,2)",
        "guard (2,5)",
        "next guard (3,5)",
        "turn 1",
        "score 1",
        "left 9",
        "playing",
        "dot collected",
    ] {
        assert!(line.contains(want), "{want:?} missing from {line:?}");
    }
}

fn any_dir() -> impl Strategy<Value = Dir> {
    prop::sample::select(Dir::ALL.to_vec())
}

fn any_start() -> impl Strategy<Value = Option<Scenario>> {
    prop::sample::select(vec![
        None,
        Some(Scenario::SharedDestination),
        Some(Scenario::ExchangedEdge),
        Some(Scenario::FinalItem),
    ])
}

proptest! {
    #[test]
    fn score_plus_remaining_is_10_after_every_step_of_random_walks(
        start in any_start(),
        walk in prop::collection::vec(any_dir(), 0..60),
    ) {
        let mut c = start.map_or_else(Collector::new, Collector::scenario);
        prop_assert_eq!(c.score() as usize + c.remaining(), TOTAL_DOTS);
        for dir in walk {
            let before = c.clone();
            let result = c.apply(dir);
            prop_assert_eq!(c.score() as usize + c.remaining(), TOTAL_DOTS);
            prop_assert_eq!(c.turn() as usize, c.history().len());
            prop_assert_eq!(c.guard(), PATROL[c.patrol_index()]);
            match result {
                Ok(_) => prop_assert_eq!(c.turn(), before.turn() + 1),
                Err(_) => prop_assert_eq!(game_part(&c), game_part(&before)),
            }
        }
    }
}

#[test]
fn the_page_is_self_contained() {
    for banned in [
        "http:", "https:", "//cdn", "<link", " src=", "@import", "url(", "fetch(",
    ] {
        assert!(!PAGE_HTML.contains(banned), "page contains {banned:?}");
    }
    assert!(PAGE_HTML.contains("default-src 'none'"));
}

#[test]
fn the_page_uses_the_same_map_patrol_and_scenarios() {
    let map = format!("const MAP = {MAP:?};");
    assert!(PAGE_HTML.contains(&map), "page MAP differs from {map}");
    let patrol: Vec<String> = PATROL
        .iter()
        .map(|p| format!("[{},{}]", p.row, p.col))
        .collect();
    let patrol = format!("const PATROL = [{}];", patrol.join(", "));
    assert!(
        PAGE_HTML.contains(&patrol),
        "page PATROL differs from {patrol}"
    );
    assert!(PAGE_HTML.contains(NEW_GAME_MESSAGE));
    for s in Scenario::ALL {
        let setup = s.setup();
        let line = format!(
            "\"{}\": {{ player: [{},{}], patrol: {},",
            s.name(),
            setup.player.row,
            setup.player.col,
            setup.patrol_index
        );
        assert!(PAGE_HTML.contains(&line), "page scenario differs: {line}");
        assert!(PAGE_HTML.contains(&format!("data-scenario=\"{}\"><b>STAGED</b>", s.name())));
    }
}
