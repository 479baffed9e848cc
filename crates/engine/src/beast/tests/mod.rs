//! One test per rule of RULES.md section 1, each with its map drawn in the test.

use super::*;
use crate::grid::Pos;

mod misreadings;
mod parse_errors;
mod props;
mod wide_rows;

/// A puzzle from a drawn map (rows separated by newlines, no size line) and moves.
fn puzzle(map: &str, moves: &str) -> Puzzle {
    let rows: Vec<&str> = map
        .lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
        .collect();
    let text = format!(
        "{} {}\n{}\n{moves}\n",
        rows[0].len(),
        rows.len(),
        rows.join("\n")
    );
    Puzzle::parse(&text).unwrap_or_else(|e| panic!("bad test map: {e}\n{text}"))
}

/// The map after playing `moves` (no waiting afterwards), drawn like the input.
fn after(map: &str, moves: &str, rules: Rules) -> String {
    let p = puzzle(map, moves);
    let mut game = Game::new(&p, rules);
    for &m in p.moves() {
        if game.apply(m).is_err() {
            break;
        }
    }
    drawn(&game)
}

fn drawn(game: &Game) -> String {
    let m = game.map();
    (0..m.rows())
        .map(|r| m.row(r).iter().map(|c| c.symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The expected drawing, with the test's indentation removed.
fn draw(map: &str) -> String {
    map.lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn answer(map: &str, moves: &str) -> String {
    play_out(&puzzle(map, moves), Rules::default())
        .expect("judged")
        .answer()
}

fn outcome(map: &str, moves: &str, rules: Rules) -> Outcome {
    play_out(&puzzle(map, moves), rules).expect("judged")
}

const STOP: Rules = Rules {
    exhaust: Exhaust::Stop,
    ..Rules::OURS
};

#[test]
fn player_walks_into_a_space() {
    let map = "
        #####
        #O  #
        #  H#
        #####";
    assert_eq!(
        after(map, "R", STOP),
        draw(
            "
        #####
        # O #
        #  H#
        #####"
        )
    );
}

#[test]
fn a_step_into_a_solid_wall_uses_up_the_turn() {
    // U is blocked on turn 1; the beasts still move on turn 2.
    let map = "
        #######
        #O    #
        #    H#
        #######";
    assert_eq!(
        after(map, "UW", STOP),
        draw(
            "
        #######
        #O  H #
        #     #
        #######"
        )
    );
}

#[test]
fn pushing_a_train_shifts_every_wall_one_cell() {
    let map = "
        ########
        #O~~~  #
        #     H#
        ########";
    assert_eq!(
        after(map, "R", STOP),
        draw(
            "
        ########
        # O~~~ #
        #     H#
        ########"
        )
    );
}

#[test]
fn a_train_against_a_solid_wall_does_not_move() {
    let map = "
        ######
        #O~~~#
        #   H#
        ######";
    assert_eq!(after(map, "R", STOP), draw(map));
}

#[test]
fn a_wedged_beast_is_crushed_against_a_solid_wall_for_two_points() {
    let map = "
        #####
        #O~H#
        #####";
    let o = outcome(map, "R", Rules::default());
    assert_eq!(o.ending, Ending::Won);
    assert_eq!(o.score, 2);
    assert_eq!(
        o.crushed,
        vec![Crush {
            turn: 1,
            at: Pos::new(1, 3)
        }]
    );
}

#[test]
fn a_wedged_beast_is_crushed_against_a_movable_wall() {
    let map = "
        #######
        #O~H~ #
        #    H#
        #######";
    assert_eq!(
        after(map, "R", STOP),
        draw(
            "
        #######
        # O~~ #
        #    H#
        #######"
        )
    );
}

#[test]
fn a_long_train_crushes_a_wedged_beast() {
    let map = "
        ########
        #O~~~H~#
        #      #
        ########";
    assert_eq!(answer(map, "R"), "2\n");
}

#[test]
fn a_beast_with_space_behind_it_acts_as_a_wall() {
    let map = "
        #######
        #O~H  #
        #     #
        #######";
    assert_eq!(after(map, "R", STOP), draw(map));
}

#[test]
fn a_beast_with_a_beast_behind_it_acts_as_a_wall() {
    let map = "
        #######
        #O~HH #
        #     #
        #######";
    assert_eq!(after(map, "R", STOP), draw(map));
}

#[test]
fn beasts_stay_put_on_odd_turns_and_move_on_even_turns() {
    let map = "
        ########
        #O     #
        #     H#
        ########";
    let one = after(map, "W", STOP);
    assert_eq!(one, draw(map));
    // Turn 2: from (2,6) towards (1,1), up-left (1,5) at 0+16 = 16 is closest.
    let two = after(map, "WW", STOP);
    assert_eq!(
        two,
        draw(
            "
        ########
        #O   H #
        #      #
        ########"
        )
    );
}

#[test]
fn a_beast_takes_the_open_neighbour_closest_to_the_player() {
    // From (2,5) towards the player at (1,1): up-left (1,4) is at 9, left (2,4) at 10.
    let map = "
        #######
        #O    #
        #    H#
        #######";
    assert_eq!(
        after(map, "WW", STOP),
        draw(
            "
        #######
        #O  H #
        #     #
        #######"
        )
    );
}

/// The tie matrix: neighbour number (1..=8) to offset.
const MATRIX: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, -1),
    (1, 1),
    (1, 0),
];

#[test]
fn ties_go_to_the_lowest_number_of_the_matrix_for_every_pair_that_can_tie() {
    // An 11x11 room with the beast at (5,5) walled in except for the two neighbours of a
    // pair; the player stands where both are equally far away. Only two diagonal or two
    // orthogonal neighbours can tie: a diagonal and an orthogonal offset differ in squared
    // length by 1, so their squared distances to any cell differ by an odd number.
    let mut covered = 0;
    for (a, &na) in MATRIX.iter().enumerate() {
        for &nb in &MATRIX[a + 1..] {
            let spot = (1..10)
                .flat_map(|r| (1..10).map(move |c| (r, c)))
                .find(|&(r, c)| {
                    let d = |(dr, dc): (isize, isize)| {
                        let (y, x) = (5 + dr - r, 5 + dc - c);
                        y * y + x * x
                    };
                    ((r - 5).abs() > 1 || (c - 5).abs() > 1) && d(na) == d(nb)
                });
            let Some((pr, pc)) = spot else { continue };
            let mut rows = vec![vec!['#'; 11]; 11];
            for row in rows.iter_mut().take(10).skip(1) {
                for cell in row.iter_mut().take(10).skip(1) {
                    *cell = ' ';
                }
            }
            for (dr, dc) in MATRIX {
                rows[(5 + dr) as usize][(5 + dc) as usize] = '#';
            }
            for (dr, dc) in [na, nb] {
                rows[(5 + dr) as usize][(5 + dc) as usize] = ' ';
            }
            rows[5][5] = 'H';
            rows[pr as usize][pc as usize] = 'O';
            let map: String = rows
                .iter()
                .map(|r| r.iter().collect::<String>() + "\n")
                .collect();
            let p = puzzle(&map, "WW");
            let mut game = Game::new(&p, STOP);
            game.apply(Move::Wait).expect("turn 1");
            game.apply(Move::Wait).expect("turn 2");
            let want = Pos::new((5 + na.0) as usize, (5 + na.1) as usize);
            assert_eq!(
                game.beasts(),
                &[want],
                "pair {na:?}-{nb:?}: the beast should take {want} (number {})\n{map}",
                a + 1
            );
            covered += 1;
        }
    }
    // 6 diagonal pairs + 6 orthogonal pairs.
    assert_eq!(covered, 12);
}

#[test]
fn exact_squared_distances_decide_where_truncated_ones_would_tie() {
    // Beast at (4,4), player at (1,4). Open: down-left (5,3) at 16+1 = 17 (4.12) and
    // down (5,4) at 16 (4.0). Truncated to integers both are 4, a tie the matrix gives to
    // down-left (6 < 8); exact squares give down.
    let map = "
        #########
        #   O   #
        #       #
        #  ###  #
        #  #H#  #
        #    #  #
        #########";
    assert_eq!(
        after(map, "WW", STOP),
        draw(
            "
        #########
        #   O   #
        #       #
        #  ###  #
        #  # #  #
        #   H#  #
        #########"
        )
    );
}

#[test]
fn a_beast_squeezes_diagonally_between_two_walls() {
    // The only open neighbour of (3,3) is up-left (2,2), between walls at (2,3) and (3,2).
    let map = "
        ######
        #O   #
        #  # #
        # #H##
        ######";
    assert_eq!(
        after(map, "WW", STOP),
        draw(
            "
        ######
        #O   #
        # H# #
        # # ##
        ######"
        )
    );
}

#[test]
fn a_beast_must_move_even_away_from_the_player() {
    // (2,3)'s only open neighbour is down-right (3,4), further from the player at (1,1).
    let map = "
        ######
        #O#~##
        #~~H~#
        ###~ #
        ######";
    assert_eq!(
        after(map, "WW", STOP),
        draw(
            "
        ######
        #O#~##
        #~~ ~#
        ###~H#
        ######"
        )
    );
}

#[test]
fn a_beast_with_no_open_neighbour_stays_put() {
    let map = "
        ######
        #O~~~#
        #~~H~#
        #~~~~#
        ######";
    assert_eq!(after(map, "WW", STOP), draw(map));
}

#[test]
fn a_later_beast_takes_its_next_best_when_a_higher_ranked_beast_took_its_cell() {
    // Target (1,3). Beast A (3,2) ranks first: its one open neighbour, up-right (2,3), at 1.
    // Beast B (3,4) would take up-left (2,3) at 1 too, but A holds it now; B's next best is
    // its only other open neighbour, down-right (4,5), at 9+4 = 13.
    let map = "
        #######
        #~~O~~#
        #~~ ~~#
        #~H~H~#
        #~~~~ #
        #######";
    assert_eq!(
        after(map, "WW", STOP),
        draw(
            "
        #######
        #~~O~~#
        #~~H~~#
        #~ ~ ~#
        #~~~~H#
        #######"
        )
    );
}

#[test]
fn under_taken_stays_a_cell_held_by_a_beast_that_did_not_move_is_not_taken() {
    // Target (1,3). Beast A (3,2) is walled in and stays. Beast B (4,3) would prefer A's
    // cell (at 5) to its one open neighbour (4,4) (at 10), but A did not move into it this
    // turn: B takes (4,4), under the reading that stays put for a cell just taken too.
    let map = "
        #######
        #  O  #
        #~~~~~#
        #~H~~~#
        #~~H  #
        #######";
    let stays = Rules {
        taken: Taken::Stays,
        ..STOP
    };
    let want = draw(
        "
        #######
        #  O  #
        #~~~~~#
        #~H~~~#
        #~~ H #
        #######",
    );
    assert_eq!(after(map, "WW", stays), want);
    assert_eq!(after(map, "WW", STOP), want);
}

#[test]
fn beasts_keep_their_initial_rank_unless_order_is_per_turn() {
    // Turn 2, target (4,3): A (1,5) and B (2,1) each have one open neighbour:
    // A -> (2,4), B -> (2,2). Now B (2,2) stands before A (2,4) in reading order.
    // Turn 4: both want (2,3) at 4 (A's other choice (1,5) is at 13, B's (2,1) at 8).
    let map = "
        #######
        #~~~~H#
        #H   ~#
        #~~~~~#
        #~~O~~#
        #######";
    // Initial ranks: A moves first and takes (2,3); B falls back to (2,1).
    assert_eq!(
        after(map, "WWWW", STOP),
        draw(
            "
        #######
        #~~~~ #
        #H H ~#
        #~~~~~#
        #~~O~~#
        #######"
        )
    );
    // Per-turn ranks: B moves first and takes (2,3); A falls back to (1,5).
    let per_turn = Rules {
        order: Order::Turn,
        ..STOP
    };
    assert_eq!(
        after(map, "WWWW", per_turn),
        draw(
            "
        #######
        #~~~~H#
        #  H ~#
        #~~~~~#
        #~~O~~#
        #######"
        )
    );
}

#[test]
fn beasts_aim_at_the_players_cell_at_the_start_of_the_turn() {
    // Sample 3 of the source: with the target after the move, the beast goes up and the
    // player's push lands on a space instead of crushing.
    let map = "
        #####
        #O  #
        # ~ #
        #  H#
        #####";
    assert_eq!(answer(map, "WRD"), "2\n");
    let after_move = Rules {
        target: Target::After,
        exhaust: Exhaust::Stop,
        ..Rules::default()
    };
    let o = outcome(map, "WRD", after_move);
    assert_eq!((o.ending, o.score), (Ending::Alive, 0));
}

#[test]
fn a_beast_moving_onto_the_player_kills_him_and_later_beasts_do_not_move() {
    let map = "
        #######
        #OH   #
        #    H#
        #######";
    let p = puzzle(map, "WW");
    let mut game = Game::new(&p, STOP);
    game.apply(Move::Wait).expect("turn 1");
    let step = game.apply(Move::Wait).expect("turn 2");
    assert_eq!(step.status, Status::Eaten);
    assert_eq!(step.eaten_at, Some(Pos::new(1, 1)));
    // The second beast at (2,5) did not move.
    assert_eq!(game.beasts(), &[Pos::new(1, 1), Pos::new(2, 5)]);
    let before = game.clone();
    assert_eq!(
        game.apply(Move::Wait),
        Err(GameOver {
            status: Status::Eaten
        }),
        "no turn after death"
    );
    assert_eq!(game, before, "a refused move changes nothing");
}

#[test]
fn walking_into_a_beast_kills_the_player() {
    let map = "
        ######
        #OH  #
        #~~~ #
        ######";
    assert_eq!(answer(map, "R"), "aHHHH!\n0\n");
}

#[test]
fn with_bump_blocked_a_beast_acts_as_a_wall() {
    let map = "
        ######
        #OH  #
        #~~~~#
        ######";
    let rules = Rules {
        bump: Bump::Blocked,
        ..STOP
    };
    let o = outcome(map, "R", rules);
    assert_eq!((o.ending, o.turns), (Ending::Alive, 1));
}

#[test]
fn the_game_is_won_at_once_and_later_moves_are_ignored() {
    let map = "
        ######
        #O~H##
        ######";
    let o = outcome(map, "RLLUUD", Rules::default());
    assert_eq!(o.ending, Ending::Won);
    assert_eq!((o.moves_used, o.turns, o.score), (1, 1, 2));
}

#[test]
fn a_map_without_beasts_is_won_before_the_first_move() {
    let map = "
        #####
        #O  #
        #####";
    let o = outcome(map, "RRR", Rules::default());
    assert_eq!((o.ending, o.turns, o.moves_used), (Ending::Won, 0, 0));
    assert_eq!(o.answer(), "0\n");
}

#[test]
fn when_the_moves_run_out_the_player_waits_until_a_beast_eats_him() {
    // Sample 4 of the source, "Waiting for the Reaper".
    let map = "
        #####
        #O  #
        # ~ #
        #  H#
        #####";
    let o = outcome(map, "WWW", Rules::default());
    assert_eq!((o.ending, o.moves_used, o.turns), (Ending::Eaten, 3, 6));
    assert_eq!(o.answer(), "aHHHH!\n0\n");
    let stopped = outcome(map, "WWW", STOP);
    assert_eq!(
        (stopped.ending, stopped.answer()),
        (Ending::Alive, "0\n".into())
    );
}

#[test]
fn a_beast_outside_the_players_region_makes_a_stalemate_at_once() {
    // The player is sealed in by solid walls; the beast can never reach him.
    let map = "
        #######
        #O#   #
        ###H  #
        #######";
    let o = outcome(map, "", Rules::default());
    assert_eq!((o.ending, o.turns), (Ending::Stalemate, 0));
    assert_eq!(o.answer(), "0\n");
}

#[test]
fn a_repeating_position_is_a_stalemate_and_prints_only_the_score() {
    // The beast shares the player's region (through (3,1) and (2,1)) but the wall at (1,2)
    // traps it: (2,5) -> (1,4) -> (1,3), then (1,3) <-> (2,3) forever, since up (1,3) at 4
    // beats down-left (3,2) at 5 and from (1,3) down (2,3) at 5 is its best open cell.
    let map = "
        #########
        #O#     #
        # #  H  #
        #       #
        #########";
    let o = outcome(map, "", Rules::default());
    assert_eq!(o.ending, Ending::Stalemate);
    assert_eq!(o.answer(), "0\n");
    assert!(
        o.turns >= 8,
        "the repeat shows from turn 8 on, found at {}",
        o.turns
    );
}

#[test]
fn a_stalemate_keeps_the_score_already_earned() {
    let map = "
        #########
        #O~H#   #
        #####H  #
        #########";
    let o = outcome(map, "R", Rules::default());
    assert_eq!((o.ending, o.score), (Ending::Stalemate, 2));
    assert_eq!(o.answer(), "2\n");
}

#[test]
fn every_crush_scores_two_points() {
    // Turn 1: R crushes (1,3), wedged against the movable wall at (1,4). Turn 2: R pushes
    // the two-wall train (1,3)-(1,4) onto (1,5), wedged against '#': crushed. 4 points, won
    // before the beasts' half of turn 2; the third R is never played.
    let map = "
        #######
        #O~H~H#
        #######";
    let o = outcome(map, "RRR", Rules::default());
    assert_eq!((o.ending, o.score, o.moves_used), (Ending::Won, 4, 2));
    let turns: Vec<u64> = o.crushed.iter().map(|c| c.turn).collect();
    assert_eq!(turns, vec![1, 2]);
    assert_eq!(o.answer(), "4\n");
}

/// A corridor `cols` wide: the player at its west end, one beast at its east end, nothing
/// between, so the beast walks `cols - 3` cells (two turns a cell) to eat the waiting player.
fn corridor(cols: usize) -> Puzzle {
    let wall = "#".repeat(cols);
    let text = format!(
        "{cols} 3\n{wall}\n#O{}H#\n{wall}\nW\n",
        " ".repeat(cols - 4)
    );
    Puzzle::parse(&text).unwrap_or_else(|e| panic!("bad corridor: {e}"))
}

#[test]
fn a_three_megabyte_corridor_is_judged_past_two_million_waiting_turns() {
    let cols = 1_000_010;
    let outcome = play_out(&corridor(cols), Rules::default()).expect("judged, not undecided");
    assert_eq!(outcome.ending, Ending::Eaten);
    assert_eq!(outcome.turns, 2 * (cols as u64 - 3));
    assert!(outcome.turns - 1 > WAIT_LIMIT, "{} turns", outcome.turns);
}

#[test]
fn the_waiting_limit_grows_with_the_region_and_its_beasts() {
    assert_eq!(wait_limit(0, 0), WAIT_LIMIT);
    assert_eq!(wait_limit(100, 3), WAIT_LIMIT);
    assert_eq!(wait_limit(1_000_000, 1), 6_000_003);
    assert_eq!(wait_limit(1_000_000, 2), 12_000_003);
    assert_eq!(wait_limit(u64::MAX, 2), u64::MAX);
}

#[test]
fn an_undecided_game_names_its_limit_and_region() {
    let e = GameError::Undecided {
        turns: 2_000_001,
        from: 30,
        cells: 900,
        beasts: 4,
    };
    assert_eq!(
        e.to_string(),
        "the beasts neither caught the player nor repeated a position within 2000001 waiting \
         turns after the moves ran out on turn 30; the limit is 6 turns a cell of the \
         player's region (900 cells) a beast in it (4), at least 2,000,000"
    );
}

#[test]
fn a_judge_within_a_spent_budget_stops_undecided() {
    // 5,000 waits: the budget is asked on turn 4,096 and says no.
    let p = puzzle(
        "
        #######
        #O#  H#
        #######",
        &"W".repeat(5000),
    );
    assert_eq!(
        play_out_until(&p, Rules::OURS, || false),
        Err(GameError::OutOfBudget { turn: 4096 })
    );
    assert_eq!(
        play_out_until(&p, Rules::OURS, || true),
        play_out(&p, Rules::OURS)
    );
}
