//! Wide map rows and long move lines: the parser checks and translates them whole, with
//! loops the compiler turns into vector instructions (16 or 32 bytes a step). Every place in
//! such a row, at the start, the middle and the end of a step, must still be read and refused
//! exactly as a narrow row is, from a `&str`, from bytes and in place.

use crate::beast::{Cell, Move, ParseError, ParseErrorKind, Puzzle, move_string};
use crate::grid::{Dir, Pos};

/// Widths around the vector steps: below, at and above 16, 32 and 64 columns.
const WIDTHS: [usize; 10] = [15, 16, 17, 31, 32, 33, 47, 63, 64, 65];

/// Parses `text` every way the judge can (from a `&str`, from bytes, in place), with `\n`
/// and with `\r\n` line ends; all must agree. Returns the `&str` result for `\n`.
fn parsed_every_way(text: &str) -> Result<Puzzle, ParseError> {
    let parsed = Puzzle::parse(text);
    assert_eq!(
        Puzzle::parse_bytes(text.as_bytes()),
        parsed,
        "bytes: {text}"
    );
    assert_eq!(
        Puzzle::parse_owned(text.as_bytes().to_vec()),
        parsed,
        "in place: {text}"
    );
    let crlf = text.replace('\n', "\r\n");
    let parsed_crlf = Puzzle::parse(&crlf);
    assert_eq!(parsed_crlf, parsed, "\\r\\n line ends: {text}");
    assert_eq!(
        Puzzle::parse_owned(crlf.into_bytes()),
        parsed,
        "in place, \\r\\n"
    );
    parsed
}

/// Parses `text` every way, expecting a refusal at `line`:`col`; returns the reason.
fn refused(text: &str, line: usize, col: usize) -> ParseErrorKind {
    let err = parsed_every_way(text).expect_err("this input must be refused");
    assert_eq!(
        (err.line, err.col),
        (line, col),
        "wrong place for: {err}\n{text}"
    );
    err.kind
}

/// A `cols` x 5 puzzle: solid border, the player at row 1 column 1, a movable wall and a
/// beast further in; `middle` replaces row 2 (line 4) when given.
fn wide_text(cols: usize, middle: Option<&str>, moves: &str) -> String {
    let wall = "#".repeat(cols);
    let inner = |fill: &str| format!("#{}#", fill.repeat(cols - 2));
    let mut player_row = inner(" ");
    player_row.replace_range(1..2, "O");
    let mut beast_row = inner("~");
    beast_row.replace_range(cols - 2..cols - 1, "H");
    let middle = middle.map_or_else(|| inner(" "), str::to_string);
    format!("{cols} 5\n{wall}\n{player_row}\n{middle}\n{beast_row}\n{wall}\n{moves}\n")
}

/// A middle row of `cols` cells with `c` at 1-based column `col`, solid ends otherwise.
fn row_with(cols: usize, col: usize, c: char) -> String {
    let mut row: Vec<char> = format!("#{}#", " ".repeat(cols - 2)).chars().collect();
    row[col - 1] = c;
    row.into_iter().collect()
}

#[test]
fn a_wide_map_reads_cell_for_cell() {
    for cols in WIDTHS {
        let p = parsed_every_way(&wide_text(cols, None, "R")).expect("valid");
        assert_eq!(p.map().cols(), cols);
        assert_eq!(p.map().row(1)[1], Cell::Player);
        assert_eq!(p.map().row(3)[cols - 2], Cell::Beast);
        assert!(
            p.map().row(3)[1..cols - 2]
                .iter()
                .all(|&c| c == Cell::Movable)
        );
        assert!(
            p.map().row(2)[1..cols - 1]
                .iter()
                .all(|&c| c == Cell::Space)
        );
        assert_eq!(p.to_string(), wide_text(cols, None, "R"));
    }
}

#[test]
fn a_bad_character_at_any_column_of_a_wide_row_is_refused_where_it_stands() {
    for cols in WIDTHS {
        for col in 1..=cols {
            for c in ['.', '\t', 'é', 'o'] {
                let text = wide_text(cols, Some(&row_with(cols, col, c)), "");
                assert_eq!(refused(&text, 4, col), ParseErrorKind::BadCell { found: c });
            }
        }
    }
}

#[test]
fn a_bad_character_at_any_column_of_the_top_row_is_refused_where_it_stands() {
    for cols in WIDTHS {
        for col in 1..=cols {
            let text = wide_text(cols, None, "").replacen(
                &"#".repeat(cols),
                &format!("{}.{}", "#".repeat(col - 1), "#".repeat(cols - col)),
                1,
            );
            assert_eq!(
                refused(&text, 2, col),
                ParseErrorKind::BadCell { found: '.' }
            );
        }
    }
}

#[test]
fn a_gap_at_any_column_of_the_top_or_bottom_row_is_refused_at_the_gap() {
    for cols in WIDTHS {
        for col in 1..=cols {
            let gap = format!("{} {}", "#".repeat(col - 1), "#".repeat(cols - col));
            let text = wide_text(cols, None, "");
            let top = text.replacen(&"#".repeat(cols), &gap, 1);
            assert!(matches!(
                refused(&top, 2, col),
                ParseErrorKind::OpenBorder { .. }
            ));
            let at = text.rfind(&"#".repeat(cols)).expect("the bottom row");
            let mut bottom = text.clone();
            bottom.replace_range(at..at + cols, &gap);
            assert!(matches!(
                refused(&bottom, 6, col),
                ParseErrorKind::OpenBorder { .. }
            ));
        }
    }
}

#[test]
fn a_gap_at_either_end_of_a_wide_row_is_refused_at_the_gap() {
    for cols in WIDTHS {
        for (col, c) in [(1, ' '), (cols, ' '), (1, '~'), (cols, 'H')] {
            let text = wide_text(cols, Some(&row_with(cols, col, c)), "");
            assert!(matches!(
                refused(&text, 4, col),
                ParseErrorKind::OpenBorder { .. }
            ));
        }
    }
}

#[test]
fn a_wide_row_one_cell_short_or_long_is_refused_at_its_end() {
    for cols in WIDTHS {
        let short = format!("#{}", " ".repeat(cols - 2));
        let text = wide_text(cols, Some(&short), "");
        assert!(matches!(
            refused(&text, 4, cols),
            ParseErrorKind::OpenBorder { .. }
        ));
        let long = format!("#{}##", " ".repeat(cols - 2));
        let text = wide_text(cols, Some(&long), "");
        assert_eq!(
            refused(&text, 4, cols + 1),
            ParseErrorKind::RowTooLong { cols }
        );
    }
}

#[test]
fn the_player_at_any_column_of_a_wide_row_is_found_and_a_second_refused() {
    for cols in WIDTHS {
        for col in 2..cols {
            let text = wide_text(cols, Some(&row_with(cols, col, 'O')), "");
            // The first player is the one of line 3; this one is the second.
            let kind = refused(&text, 4, col);
            assert_eq!(
                kind,
                ParseErrorKind::SecondPlayer {
                    first_line: 3,
                    first_col: 2
                }
            );
            let alone = text.replacen("#O", "# ", 1);
            let p = parsed_every_way(&alone).expect("one player");
            assert_eq!(
                p.player(),
                Pos {
                    row: 2,
                    col: col - 1
                }
            );
        }
    }
}

#[test]
fn a_long_move_line_reads_letter_for_letter() {
    let letters = "UDLRW".repeat(13) + "UU";
    let expected: Vec<Move> = letters
        .chars()
        .map(|c| Move::from_letter(c).expect("a move letter"))
        .collect();
    for moves in [
        letters.clone(),
        format!("{}\n{}", &letters[..33], &letters[33..]),
        format!(
            "{} {}\t{}",
            &letters[..16],
            &letters[16..31],
            &letters[31..]
        ),
        format!("{}\n\n", letters),
    ] {
        let p = parsed_every_way(&wide_text(33, None, &moves)).expect("valid");
        assert_eq!(move_string(p.moves()), letters, "{moves:?}");
        assert_eq!(p.moves(), expected.as_slice());
    }
    assert_eq!(
        expected[..4],
        [Dir::Up, Dir::Down, Dir::Left, Dir::Right].map(Move::Step)
    );
    assert_eq!(expected[4], Move::Wait);
}

#[test]
fn a_bad_move_at_any_place_of_a_long_move_line_is_refused_where_it_stands() {
    let letters = "UDLRW".repeat(13);
    for at in 0..letters.len() {
        for (c, hint) in [('x', ""), ('u', " (moves are upper case)"), ('é', "")] {
            let mut moves: Vec<char> = letters.chars().collect();
            moves[at] = c;
            let moves: String = moves.into_iter().collect();
            // The moves are on line 7 (after the size line and five rows).
            let text = wide_text(17, None, &moves);
            let kind = refused(&text, 7, at + 1);
            assert_eq!(kind, ParseErrorKind::BadMove { found: c, hint });
            let text = wide_text(17, None, &format!("RR\n{moves}"));
            assert_eq!(refused(&text, 8, at + 1), kind);
        }
    }
}
