//! Every input-error class of RULES.md section 1, with the line and column it must name.

use crate::beast::{ParseErrorKind, Puzzle};

/// Parses `text` expecting a refusal at `line`:`col`; returns the reason.
fn refused(text: &str, line: usize, col: usize) -> ParseErrorKind {
    let err = Puzzle::parse(text).expect_err("this input must be refused");
    assert_eq!((err.line, err.col), (line, col), "wrong place for: {err}");
    err.kind
}

#[test]
fn a_row_longer_than_cols_is_refused_at_its_first_extra_character() {
    let kind = refused("5 3\n#####\n#O~H##\n#####\nR\n", 3, 6);
    assert_eq!(kind, ParseErrorKind::RowTooLong { cols: 5 });
}

#[test]
fn fewer_rows_than_rows_is_refused_after_the_last_line() {
    let kind = refused("5 4\n#####\n#O~H#\n#####\n", 5, 1);
    assert_eq!(kind, ParseErrorKind::MissingRows { rows: 4, found: 3 });
}

#[test]
fn a_character_outside_the_map_set_is_refused_where_it_stands() {
    let kind = refused("5 3\n#####\n#O\tH#\n#####\n", 3, 3);
    assert_eq!(kind, ParseErrorKind::BadCell { found: '\t' });
    // Columns count characters, not bytes.
    let kind = refused("5 3\n#####\n#Oé H#\n#####\n", 3, 3);
    assert_eq!(kind, ParseErrorKind::BadCell { found: 'é' });
}

#[test]
fn a_map_without_a_player_is_refused() {
    let kind = refused("5 3\n#####\n# ~H#\n#####\n", 2, 1);
    assert_eq!(kind, ParseErrorKind::NoPlayer);
}

#[test]
fn a_second_player_is_refused_where_it_stands_and_names_the_first() {
    let kind = refused("6 3\n######\n#O~HO#\n######\n", 3, 5);
    assert_eq!(
        kind,
        ParseErrorKind::SecondPlayer {
            first_line: 3,
            first_col: 2
        }
    );
}

#[test]
fn an_open_border_is_refused_at_the_gap() {
    assert!(matches!(
        refused("5 3\n## ##\n#O~H#\n#####\n", 2, 3),
        ParseErrorKind::OpenBorder { .. }
    ));
    assert!(matches!(
        refused("5 3\n#####\n O~H#\n#####\n", 3, 1),
        ParseErrorKind::OpenBorder { .. }
    ));
    assert!(matches!(
        refused("5 3\n#####\n#O~H~\n#####\n", 3, 5),
        ParseErrorKind::OpenBorder { .. }
    ));
    assert!(matches!(
        refused("5 3\n#####\n#O~H#\n##H##\n", 4, 3),
        ParseErrorKind::OpenBorder { .. }
    ));
}

#[test]
fn a_short_row_is_padded_with_spaces_so_its_right_border_is_open() {
    let err = Puzzle::parse("5 3\n#####\n#O~\n#####\n").expect_err("open border");
    assert_eq!((err.line, err.col), (3, 5));
    assert!(err.to_string().contains("padded to 5"), "{err}");
}

#[test]
fn a_move_outside_udlrw_is_refused_where_it_stands() {
    let kind = refused("5 3\n#####\n#O~H#\n#####\nRW\nWX\n", 6, 2);
    assert!(matches!(kind, ParseErrorKind::BadMove { found: 'X', .. }));
    let err = Puzzle::parse("5 3\n#####\n#O~H#\n#####\nr\n").expect_err("lower case");
    assert!(err.to_string().contains("upper case"), "{err}");
}

#[test]
fn a_bad_size_line_is_refused_at_the_token() {
    assert_eq!(refused("", 1, 1), ParseErrorKind::MissingSize);
    assert!(matches!(
        refused("5 x3\n", 1, 3),
        ParseErrorKind::BadNumber { .. }
    ));
    assert_eq!(refused("5\n", 1, 2), ParseErrorKind::MissingRowCount);
    assert!(matches!(
        refused("5 3 2\n", 1, 5),
        ParseErrorKind::TrailingSize { .. }
    ));
    assert!(matches!(
        refused("2 3\n", 1, 1),
        ParseErrorKind::TooSmall { .. }
    ));
}

#[test]
fn a_huge_size_line_alone_is_refused_cheaply() {
    // If this allocated COLS x ROWS cells it would abort; it must fail on the missing rows.
    let kind = refused("999999999 999999999\n", 2, 1);
    assert!(matches!(kind, ParseErrorKind::MissingRows { found: 0, .. }));
    let kind = refused("99999999999999999999999 3\n#\n", 1, 1);
    assert!(matches!(kind, ParseErrorKind::SizeTooLarge { .. }));
}

#[test]
fn bytes_that_are_not_utf8_are_refused_at_the_first_bad_byte() {
    let err = Puzzle::parse_bytes(b"5 3\n#####\n#O~\xffH#\n#####\n").expect_err("not utf-8");
    assert_eq!((err.line, err.col), (3, 4));
    assert_eq!(err.kind, ParseErrorKind::NotUtf8);
}

#[test]
fn bytes_that_are_not_utf8_are_refused_as_such_before_any_other_error() {
    // Read in place, the map rows are checked as bytes: a bad byte anywhere, even after
    // another error, is still the one named, at the same place as when read from a copy.
    let cases: [(&[u8], (usize, usize)); 7] = [
        (b"5 3\xff\n#####\n#O~H#\n#####\n", (1, 4)),
        (b"5 3\n#####\n#O~\xffH#\n#####\n", (3, 4)),
        (b"5 3\n#####\n# ~\xffH#\n#####\n", (3, 4)),
        (b"5 3\n#####\n#O~H#\n#####\nRR\xff\n", (5, 3)),
        (b"5 3\n#####\n#O~H#\n#####\nRR\r\nW\xe9\n", (6, 2)),
        (b"5 3\n#####\n#O~HX\n#####\nRR\n\xc3", (6, 1)),
        (b"\xef\xbb\xbf5 3\n## ##\n#O~H#\n#####\n\xff", (5, 1)),
    ];
    for (bytes, place) in cases {
        let copy = Puzzle::parse_bytes(bytes).expect_err("not utf-8");
        assert_eq!(
            (copy.line, copy.col, &copy.kind),
            (place.0, place.1, &ParseErrorKind::NotUtf8)
        );
        assert_eq!(Puzzle::parse_owned(bytes.to_vec()), Err(copy));
    }
}

#[test]
fn crlf_line_endings_are_accepted() {
    let p = Puzzle::parse("5 3\r\n#####\r\n#O~H#\r\n#####\r\nR\r\n").expect("CRLF is fine");
    assert_eq!(p.moves().len(), 1);
    assert_eq!(p.map().cols(), 5);
}

#[test]
fn whitespace_and_newlines_between_moves_are_ignored() {
    let p = Puzzle::parse("5 3\n#####\n#O~H#\n#####\nR W\n\n D\tL\n").expect("moves");
    assert_eq!(crate::beast::move_string(p.moves()), "RWDL");
}

#[test]
fn a_puzzle_prints_back_in_the_input_format() {
    let text = "5 3\n#####\n#O~H#\n#####\nRWD\n";
    assert_eq!(Puzzle::parse(text).expect("valid").to_string(), text);
}

#[test]
fn a_size_too_large_for_the_machine_is_quoted_as_written() {
    let err = Puzzle::parse("5 99999999999999999999\n").expect_err("too large");
    assert_eq!((err.line, err.col), (1, 3));
    assert!(
        err.to_string()
            .contains("99999999999999999999 is too large"),
        "{err}"
    );
}

#[test]
fn a_move_string_where_a_map_row_should_be_is_called_missing_rows() {
    let kind = refused("5 4\n#####\n#O H#\n#####\nRR\n", 5, 1);
    assert_eq!(
        kind,
        ParseErrorKind::MovesInsteadOfRow { rows: 4, found: 3 }
    );
}

#[test]
fn any_whitespace_between_moves_is_ignored() {
    let p = Puzzle::parse("5 3\n#####\n#O~H#\n#####\nR\u{c}W\u{a0}D\n").expect("moves");
    assert_eq!(crate::beast::move_string(p.moves()), "RWD");
}

#[test]
fn a_byte_order_mark_before_the_size_line_is_skipped() {
    let p = Puzzle::parse_bytes(b"\xef\xbb\xbf5 3\n#####\n#O~H#\n#####\nR\n").expect("BOM");
    assert_eq!(p.map().cols(), 5);
}

#[test]
fn a_puzzle_built_from_a_map_is_refused_as_its_text_would_be() {
    use crate::beast::Cell;
    use crate::grid::Grid;
    let maps = [
        "#####\n#O~H#\n#####",
        "#####\n# ~H#\n#####",
        "#####\n#O~HO\n#####",
        "#####\n#O~O#\n#####",
        "#####\n#O~H#\n## ##",
        "#### \n#O~H#\n#####",
        "###\n#O#",
        "##\n##\n##",
    ];
    for map in maps {
        let rows: Vec<&str> = map.lines().collect();
        let cells = rows
            .iter()
            .flat_map(|r| r.chars())
            .map(|c| Cell::from_char(c).expect("a map character"))
            .collect();
        let grid = Grid::from_cells(rows[0].len(), rows.len(), cells).expect("rectangular");
        let text = format!("{} {}\n{map}\n", rows[0].len(), rows.len());
        let built = Puzzle::new(grid, Vec::new()).map(|_| ());
        assert_eq!(built, Puzzle::parse(&text).map(|_| ()), "{map}");
    }
}
