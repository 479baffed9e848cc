//! Properties over generated maps: the score, the map's consistency, determinism, and a
//! parser that never panics.

use crate::beast::variant::SWITCHES;
use crate::beast::{
    CATALOGUE, Cell, Game, Move, Puzzle, Rules, Status, move_string, play_out, play_out_owned,
    play_out_with,
};
use crate::grid::Grid;
use proptest::prelude::*;

/// A valid puzzle: a solid border, random interior, one player, a random move string.
fn puzzle_text() -> impl Strategy<Value = String> {
    (3usize..12, 3usize..10)
        .prop_flat_map(|(cols, rows)| {
            let interior = (cols - 2) * (rows - 2);
            (
                Just((cols, rows)),
                proptest::collection::vec(
                    prop_oneof![4 => Just(' '), 3 => Just('~'), 1 => Just('#'), 2 => Just('H')],
                    interior,
                ),
                0..interior,
                "[UDLRW]{0,40}",
            )
        })
        .prop_map(|((cols, rows), mut cells, player, moves)| {
            cells[player] = 'O';
            let mut text = format!("{cols} {rows}\n{}\n", "#".repeat(cols));
            for r in 0..rows - 2 {
                let row: String = cells[r * (cols - 2)..(r + 1) * (cols - 2)].iter().collect();
                text.push_str(&format!("#{row}#\n"));
            }
            text.push_str(&format!("{}\n{moves}\n", "#".repeat(cols)));
            text
        })
}

/// A map up to 80 columns wide, as text with its grid: any interior and a solid border, then
/// in one map of four a gap in the border, and in one of four no player or a second one.
fn wide_map() -> impl Strategy<Value = (String, Grid<Cell>)> {
    use prop::sample::Index;
    (3usize..80, 3usize..7)
        .prop_flat_map(|(cols, rows)| {
            (
                Just((cols, rows)),
                proptest::collection::vec(
                    prop_oneof![6 => Just(Cell::Space), 2 => Just(Cell::Movable), 1 => Just(Cell::Wall), 1 => Just(Cell::Beast)],
                    cols * rows,
                ),
                (any::<Index>(), 0u8..8),
                (any::<Index>(), any::<Index>(), any::<Index>(), 0u8..8),
            )
        })
        .prop_map(|((cols, rows), mut cells, (gap, gap_kind), (row, col, second, players))| {
            let border: Vec<usize> = (0..cols * rows)
                .filter(|i| i / cols == 0 || i / cols == rows - 1 || i % cols == 0 || i % cols == cols - 1)
                .collect();
            for &i in &border {
                cells[i] = Cell::Wall;
            }
            if let Some(&open) = [Cell::Space, Cell::Beast].get(usize::from(gap_kind)) {
                cells[border[gap.index(border.len())]] = open;
            }
            // The player anywhere inside; with `players` 0 none, with 1 a second anywhere.
            if players > 0 {
                cells[(row.index(rows - 2) + 1) * cols + col.index(cols - 2) + 1] = Cell::Player;
            }
            if players == 1 {
                cells[second.index(cols * rows)] = Cell::Player;
            }
            let grid = Grid::from_cells(cols, rows, cells).expect("cols x rows cells");
            let mut text = format!("{cols} {rows}\n");
            for r in 0..rows {
                text.extend(grid.row(r).iter().map(|c| c.symbol()));
                text.push('\n');
            }
            (text, grid)
        })
}

/// Any combination of the four switches, with at most one more catalogue reading.
fn rules() -> impl Strategy<Value = Rules> {
    (0u8..16, 0..=CATALOGUE.len()).prop_map(|(bits, extra)| {
        let mut rules = Rules::OURS;
        for (i, s) in SWITCHES.iter().enumerate() {
            if bits & (1 << i) != 0 {
                rules = s.other.apply(rules);
            }
        }
        match CATALOGUE.get(extra) {
            Some(v) => v.apply(rules),
            None => rules,
        }
    })
}

/// The map agrees with the game's lists: each beast on an `H`, as many `H` as beasts,
/// and the player on his `O` unless a beast ate him.
fn consistent(game: &Game) -> Result<(), TestCaseError> {
    let map = game.map();
    let beasts = map.cells().iter().filter(|&&c| c == Cell::Beast).count();
    prop_assert_eq!(beasts, game.beasts().len());
    for &b in game.beasts() {
        prop_assert_eq!(map[b], Cell::Beast);
    }
    if game.status() != Status::Eaten {
        prop_assert_eq!(map[game.player()], Cell::Player);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn score_is_twice_the_crushed_beasts(text in puzzle_text(), rules in rules()) {
        let p = Puzzle::parse(&text).expect("generated puzzles are valid");
        let o = play_out(&p, rules).expect("judged");
        prop_assert_eq!(o.score, 2 * o.crushed.len() as u64);
        let start = p.map().cells().iter().filter(|&&c| c == Cell::Beast).count();
        prop_assert_eq!(o.beasts_left + o.crushed.len(), start);
    }

    #[test]
    fn beasts_walls_and_player_never_overlap(text in puzzle_text(), rules in rules()) {
        let p = Puzzle::parse(&text).expect("valid");
        let movable = p.map().cells().iter().filter(|&&c| c == Cell::Movable).count();
        let mut bad = Ok(());
        play_out_with(&p, rules, |game, _| {
            if bad.is_ok() {
                bad = consistent(game);
                // Walls are only shifted, never created or destroyed, except that a crush
                // turns the beast's cell into the train's last wall.
                let now = game.map().cells().iter().filter(|&&c| c == Cell::Movable).count();
                if now != movable {
                    bad = Err(TestCaseError::fail(format!("{now} movable walls, started with {movable}")));
                }
            }
        }).expect("judged");
        bad?;
    }

    #[test]
    fn the_same_input_always_gives_the_same_output(text in puzzle_text(), rules in rules()) {
        let p = Puzzle::parse(&text).expect("valid");
        prop_assert_eq!(play_out(&p, rules), play_out(&p, rules));
        let again = Puzzle::parse(&p.to_string()).expect("printed puzzles parse");
        prop_assert_eq!(play_out(&again, rules), play_out(&p, rules));
    }

    #[test]
    fn the_parser_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = Puzzle::parse_bytes(&bytes);
    }

    #[test]
    fn the_parser_never_panics_on_damaged_puzzles(text in puzzle_text(), at in any::<prop::sample::Index>(), b in any::<u8>()) {
        let mut bytes = text.into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = b;
        if let Err(e) = Puzzle::parse_bytes(&bytes) {
            prop_assert!(e.line >= 1 && e.col >= 1);
        }
    }

    #[test]
    fn reading_in_place_agrees_with_reading_a_copy(
        text in puzzle_text(),
        crlf in any::<bool>(),
        bom in any::<bool>(),
        damage in proptest::option::of((any::<prop::sample::Index>(), any::<u8>())),
    ) {
        let text = if crlf { text.replace('\n', "\r\n") } else { text };
        let mut bytes = if bom { "\u{feff}".to_string() + &text } else { text }.into_bytes();
        if let Some((at, b)) = damage {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        prop_assert_eq!(Puzzle::parse_owned(bytes.clone()), Puzzle::parse_bytes(&bytes));
    }

    #[test]
    fn a_wide_map_reads_as_its_grid_and_is_refused_as_its_grid_would_be(
        (text, grid) in wide_map(),
        moves in "[UDLRW]{0,70}",
        crlf in any::<bool>(),
    ) {
        let moves: Vec<Move> = moves.chars().filter_map(Move::from_letter).collect();
        let text = text + &move_string(&moves) + "\n";
        let text = if crlf { text.replace('\n', "\r\n") } else { text };
        let parsed = Puzzle::parse(&text);
        prop_assert_eq!(&parsed, &Puzzle::new(grid, moves));
        prop_assert_eq!(Puzzle::parse_owned(text.into_bytes()), parsed);
    }

    #[test]
    fn judging_a_taken_puzzle_agrees_with_judging_a_borrowed_one(text in puzzle_text(), rules in rules()) {
        let p = Puzzle::parse(&text).expect("valid");
        prop_assert_eq!(play_out_owned(p.clone(), rules), play_out(&p, rules));
    }

    #[test]
    fn judging_unwatched_agrees_with_judging_watched(text in puzzle_text(), rules in rules()) {
        // Unwatched, the judge may wait a few turns ahead and take them back.
        let p = Puzzle::parse(&text).expect("valid");
        prop_assert_eq!(play_out(&p, rules), play_out_with(&p, rules, |_, _| {}));
    }
}
