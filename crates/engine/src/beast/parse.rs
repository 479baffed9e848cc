//! Reading puzzle text: the size line, the map rows and the move string (RULES.md 1,
//! "Input format"). Every refusal names the line and column and says why.
//!
//! The map is validated in one pass before anything is allocated for it, so a size line
//! alone (`999999999 999999999`) costs nothing: once every row has checked out, the map
//! holds exactly as many cells as the input has map characters.

use std::fmt;

use thiserror::Error;

use crate::grid::{Dir, Grid, Pos};

/// One map cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// `' '`: open floor.
    Space,
    /// `#`: a solid wall; never moves.
    Wall,
    /// `~`: a movable wall, pushed in trains by the player.
    Movable,
    /// `H`: a beast.
    Beast,
    /// `O`: the player.
    Player,
}

impl Cell {
    /// Every kind of cell, in the order of their discriminants.
    pub const ALL: [Cell; 5] = [
        Cell::Space,
        Cell::Wall,
        Cell::Movable,
        Cell::Beast,
        Cell::Player,
    ];

    /// The cell for a map character, or `None` for anything else.
    pub const fn from_char(c: char) -> Option<Cell> {
        match c {
            ' ' => Some(Cell::Space),
            '#' => Some(Cell::Wall),
            '~' => Some(Cell::Movable),
            'H' => Some(Cell::Beast),
            'O' => Some(Cell::Player),
            _ => None,
        }
    }

    /// The map character of this cell.
    pub const fn symbol(self) -> char {
        match self {
            Cell::Space => ' ',
            Cell::Wall => '#',
            Cell::Movable => '~',
            Cell::Beast => 'H',
            Cell::Player => 'O',
        }
    }
}

/// One move of the move string: a step (`U D L R`) or a wait (`W`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `U`, `D`, `L` or `R`: try to step (and push) in a direction.
    Step(Dir),
    /// `W`: do nothing this turn.
    Wait,
}

impl Move {
    /// The move for a letter of `UDLRW` (upper case only).
    pub const fn from_letter(c: char) -> Option<Move> {
        match c {
            'W' => Some(Move::Wait),
            _ => match Dir::from_letter(c) {
                Some(d) => Some(Move::Step(d)),
                None => None,
            },
        }
    }

    /// The letter of this move.
    pub const fn letter(self) -> char {
        match self {
            Move::Step(d) => d.letter(),
            Move::Wait => 'W',
        }
    }
}

/// Writes moves as a move string such as `RRDW`.
pub fn move_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// A valid puzzle: a walled map with exactly one player, and the moves to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    map: Grid<Cell>,
    moves: Vec<Move>,
}

/// A refusal of puzzle text: where it went wrong, and why.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("line {line}, column {col}: {kind}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub col: usize,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// The reasons puzzle text is refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The input is empty or its first line is blank.
    #[error("expected the map size as two integers, COLS ROWS")]
    MissingSize,
    /// A size token is not a whole number.
    #[error("expected a whole number for the {what}, found {}", crate::words::quoted(.found))]
    BadNumber {
        /// `"number of columns"` or `"number of rows"`.
        what: &'static str,
        /// The token as written.
        found: String,
    },
    /// A size number too large for this machine.
    #[error("the {what} {} is too large", crate::words::shortened(.found))]
    SizeTooLarge {
        /// `"number of columns"` or `"number of rows"`.
        what: &'static str,
        /// The token as written.
        found: String,
    },
    /// The size line has only one number.
    #[error("expected the number of rows after the number of columns (COLS ROWS)")]
    MissingRowCount,
    /// The size line has more than two tokens.
    #[error(
        "unexpected {} after the map size; the size line holds two integers, COLS ROWS",
        crate::words::quoted(.found)
    )]
    TrailingSize {
        /// The extra token.
        found: String,
    },
    /// A dimension below 3: no room for a player inside a wall.
    #[error(
        "a map must be at least 3x3 to hold a player inside its wall, the size line says {cols}x{rows}"
    )]
    TooSmall {
        /// Columns from the size line.
        cols: usize,
        /// Rows from the size line.
        rows: usize,
    },
    /// The input ends before all map rows were read.
    #[error("expected {rows} map rows (the size line says so), found only {found}")]
    MissingRows {
        /// Rows from the size line.
        rows: usize,
        /// Rows actually present.
        found: usize,
    },
    /// The move string stands where a map row was expected.
    #[error(
        "expected {rows} map rows (the size line says so), found only {found}: this line looks like the move string"
    )]
    MovesInsteadOfRow {
        /// Rows from the size line.
        rows: usize,
        /// Map rows before this line.
        found: usize,
    },
    /// A row has more characters than the size line allows.
    #[error("this row is longer than the {cols} columns the size line gives")]
    RowTooLong {
        /// Columns from the size line.
        cols: usize,
    },
    /// A character that is not one of the five map characters.
    #[error("{found:?} is not a map character; expected '#', '~', 'H', 'O' or a space")]
    BadCell {
        /// The character found.
        found: char,
    },
    /// A border cell that is not `#`.
    #[error("the map's border must be solid wall '#', found {found}")]
    OpenBorder {
        /// A description of what stands there.
        found: String,
    },
    /// No `O` on the map.
    #[error("the map has no player 'O'; exactly one is required")]
    NoPlayer,
    /// More than one `O`.
    #[error("a second player 'O'; the first is at line {first_line}, column {first_col}")]
    SecondPlayer {
        /// Line of the first `O`.
        first_line: usize,
        /// Column of the first `O`.
        first_col: usize,
    },
    /// A move character outside `UDLRW`.
    #[error("{found:?} is not a move; expected U, D, L, R or W{hint}")]
    BadMove {
        /// The character found.
        found: char,
        /// An extra hint, such as the need for upper case.
        hint: &'static str,
    },
    /// The bytes are not UTF-8 text.
    #[error("the input is not UTF-8 text")]
    NotUtf8,
}

impl ParseError {
    fn at(line: usize, col: usize, kind: ParseErrorKind) -> Self {
        ParseError { line, col, kind }
    }
}

/// The refusal of `bytes` at their first byte that is not UTF-8, if there is one.
fn utf8_refusal(bytes: &[u8]) -> Option<ParseError> {
    let e = std::str::from_utf8(bytes).err()?;
    let good = &bytes[..e.valid_up_to()];
    let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    // The prefix is valid UTF-8 by construction.
    let col = std::str::from_utf8(&good[start..]).map_or(1, |s| s.chars().count() + 1);
    Some(ParseError::at(line, col, ParseErrorKind::NotUtf8))
}

/// A part of the input (`whole`) as text, or the input's refusal as not UTF-8. The input is
/// only ever cut at ASCII bytes (line ends, and the ends of ASCII map rows), so a part that
/// is not UTF-8 makes the whole input not UTF-8.
fn as_text<'a>(whole: &[u8], part: &'a [u8]) -> Result<&'a str, ParseError> {
    std::str::from_utf8(part)
        .map_err(|_| utf8_refusal(whole).unwrap_or(ParseError::at(1, 1, ParseErrorKind::NotUtf8)))
}

/// Lines of the input, numbered from 1, with `\n` and a `\r` before it removed. Text after
/// the final newline is a last line; nothing after it is no line.
struct Lines<'a> {
    rest: Option<&'a [u8]>,
    number: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a [u8]) -> Self {
        Lines {
            rest: Some(text),
            number: 0,
        }
    }

    /// The next line and its number.
    fn next_line(&mut self) -> Option<(usize, &'a [u8])> {
        let rest = self.rest.filter(|r| !r.is_empty())?;
        self.number += 1;
        match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                self.rest = rest.get(i + 1..);
                let line = &rest[..i];
                Some((self.number, line.strip_suffix(b"\r").unwrap_or(line)))
            }
            None => {
                self.rest = None;
                Some((self.number, rest))
            }
        }
    }
}

/// The 1-based character column of byte offset `byte` in `line`.
fn column(line: &str, byte: usize) -> usize {
    line.get(..byte).map_or(byte, |p| p.chars().count()) + 1
}

/// Reads `COLS ROWS` from the first line.
fn parse_size(line_no: usize, line: &str) -> Result<(usize, usize), ParseError> {
    let mut tokens = line
        .split_ascii_whitespace()
        .map(|t| (t.as_ptr() as usize - line.as_ptr() as usize, t));
    let number = |what: &'static str, (off, tok): (usize, &str)| -> Result<usize, ParseError> {
        if tok.bytes().all(|b| b.is_ascii_digit()) {
            // All digits: the only way to fail is overflow.
            tok.parse::<usize>().map_err(|_| {
                ParseError::at(
                    line_no,
                    column(line, off),
                    ParseErrorKind::SizeTooLarge {
                        what,
                        found: tok.to_string(),
                    },
                )
            })
        } else {
            Err(ParseError::at(
                line_no,
                column(line, off),
                ParseErrorKind::BadNumber {
                    what,
                    found: tok.to_string(),
                },
            ))
        }
    };
    let first = tokens
        .next()
        .ok_or(ParseError::at(line_no, 1, ParseErrorKind::MissingSize))?;
    let cols = number("number of columns", first)?;
    let second = tokens.next().ok_or(ParseError::at(
        line_no,
        column(line, line.len()),
        ParseErrorKind::MissingRowCount,
    ))?;
    let rows = number("number of rows", second)?;
    if let Some((off, tok)) = tokens.next() {
        return Err(ParseError::at(
            line_no,
            column(line, off),
            ParseErrorKind::TrailingSize {
                found: tok.to_string(),
            },
        ));
    }
    if cols < 3 || rows < 3 {
        return Err(ParseError::at(
            line_no,
            1,
            ParseErrorKind::TooSmall { cols, rows },
        ));
    }
    Ok((cols, rows))
}

/// True for a line of move letters and whitespace with at least one letter: no map row
/// looks like that, since `U D L R W` are not map characters.
fn looks_like_moves(line: &str) -> bool {
    line.chars().any(|c| Move::from_letter(c).is_some())
        && line
            .chars()
            .all(|c| c.is_whitespace() || Move::from_letter(c).is_some())
}

/// What a border cell holds, for an error message.
fn describe(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        c => format!("{c:?}"),
    }
}

/// Checks one map row against the size and the border rule; records the player.
fn check_row(
    line_no: usize,
    line: &str,
    cols: usize,
    edge_row: bool,
    player: &mut Option<(usize, usize)>,
) -> Result<(), ParseError> {
    let bytes = line.as_bytes();
    for (j, &b) in bytes.iter().enumerate() {
        // Every byte before `j` was an ASCII map character, so `j` is a character
        // boundary and `j + 1` is the column.
        let col = j + 1;
        if j >= cols {
            return Err(ParseError::at(
                line_no,
                col,
                ParseErrorKind::RowTooLong { cols },
            ));
        }
        let c = if b.is_ascii() {
            b as char
        } else {
            line[j..]
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER)
        };
        let Some(cell) = Cell::from_char(c) else {
            return Err(ParseError::at(
                line_no,
                col,
                ParseErrorKind::BadCell { found: c },
            ));
        };
        let on_border = edge_row || j == 0 || j == cols - 1;
        if on_border && cell != Cell::Wall {
            return Err(ParseError::at(
                line_no,
                col,
                ParseErrorKind::OpenBorder { found: describe(c) },
            ));
        }
        if cell == Cell::Player {
            if let Some((first_line, first_col)) = *player {
                return Err(ParseError::at(
                    line_no,
                    col,
                    ParseErrorKind::SecondPlayer {
                        first_line,
                        first_col,
                    },
                ));
            }
            *player = Some((line_no, col));
        }
    }
    if bytes.len() < cols {
        // A short row is padded with spaces; the first padded border cell is open.
        let col = if edge_row { bytes.len() + 1 } else { cols };
        return Err(ParseError::at(
            line_no,
            col,
            ParseErrorKind::OpenBorder {
                found: format!(
                    "a space (the row has {} characters and is padded to {cols})",
                    bytes.len()
                ),
            },
        ));
    }
    Ok(())
}

/// Where the parts of valid puzzle text lie, found by [`parts`].
struct Parts {
    cols: usize,
    rows: usize,
    /// Byte offset of the first map row.
    map_start: usize,
    /// The moves, parsed.
    moves: Vec<Move>,
}

/// The cell of a map character; a space for the bytes that are none (never asked for them:
/// the text has been validated first). Written as compares and bit operations with no
/// branch or table, so that a loop of it over a row compiles to vector instructions.
#[inline(always)]
fn cell_of_byte(b: u8) -> Cell {
    let code = u8::from(b == b'#')
        | (u8::from(b == b'~') << 1)
        | (u8::from(b == b'H') * 3)
        | (u8::from(b == b'O') << 2);
    match code {
        0 => Cell::Space,
        1 => Cell::Wall,
        2 => Cell::Movable,
        3 => Cell::Beast,
        _ => Cell::Player,
    }
}

/// True for the four map characters a row holds any number of (`' '`, `#`, `~`, `H`): not
/// the player, of whom there is one, nor any other byte.
#[inline(always)]
fn is_common_cell(b: u8) -> bool {
    (b == b' ') | (b == b'#') | (b == b'~') | (b == b'H')
}

/// True if every byte of `row` is one of the four common map characters
/// ([`is_common_cell`]). The row is read whole, with no early exit, so that the loop
/// compiles to vector instructions (two chunks of 16 bytes a step with SSE2).
fn all_common_cells(row: &[u8]) -> bool {
    let mut odd = false;
    for &b in row {
        odd |= !is_common_cell(b);
    }
    !odd
}

/// True for a row of exactly the right length whose border is solid and whose every byte is
/// one of the common map characters (no player). Any other row is left to [`check_row`],
/// which finds the player or the exact error.
fn plain_row(row: &[u8], edge_row: bool) -> bool {
    if row.first() != Some(&b'#') || row.last() != Some(&b'#') {
        return false;
    }
    if edge_row {
        return row.iter().all(|&b| b == b'#');
    }
    all_common_cells(row)
}

/// Takes the next map row off `lines` when it is a [`plain_row`] followed by the end of a
/// line: the row is then `cols` bytes long, with no search for the newline. Returns whether
/// it did.
fn next_plain_row(lines: &mut Lines<'_>, cols: usize, edge_row: bool) -> bool {
    let Some(bytes) = lines.rest else {
        return false;
    };
    let ending = match bytes.get(cols..) {
        Some([]) => 0,
        Some([b'\n', ..]) => 1,
        Some([b'\r', b'\n', ..]) => 2,
        _ => return false,
    };
    let Some(row) = bytes.get(..cols) else {
        return false;
    };
    if !plain_row(row, edge_row) {
        return false;
    }
    let Some(after) = bytes.get(cols + ending..) else {
        return false;
    };
    lines.rest = Some(after);
    lines.number += 1;
    true
}

/// Validates puzzle text (with any byte-order mark already removed) and parses its moves.
/// The map rows are validated in one pass before anything is allocated for the map. The
/// text is taken as bytes: the map rows it accepts are ASCII, and every other part it reads
/// (the size line, the player's row, a refused row, the moves) is checked to be UTF-8 when
/// read, so that valid bytes need no separate UTF-8 pass. A refusal may name another error
/// than "not UTF-8" for bytes that are not UTF-8 further on: [`Puzzle::parse_owned`] checks.
fn parts(text: &[u8]) -> Result<Parts, ParseError> {
    let mut lines = Lines::new(text);
    let Some((size_line_no, size_line)) = lines.next_line() else {
        return Err(ParseError::at(1, 1, ParseErrorKind::MissingSize));
    };
    let (cols, rows) = parse_size(size_line_no, as_text(text, size_line)?)?;
    let map_start = text.len() - lines.rest.map_or(0, <[u8]>::len);
    let mut player = None;
    for r in 0..rows {
        let edge_row = r == 0 || r == rows - 1;
        if next_plain_row(&mut lines, cols, edge_row) {
            continue;
        }
        // The player's row, or a refused one: read it cell by cell.
        let Some((line_no, line)) = lines.next_line() else {
            return Err(ParseError::at(
                lines.number + 1,
                1,
                ParseErrorKind::MissingRows { rows, found: r },
            ));
        };
        let line = as_text(text, line)?;
        if let Err(e) = check_row(line_no, line, cols, edge_row, &mut player) {
            // Only a refused row is worth a second look: is it the move string?
            let kind = ParseErrorKind::MovesInsteadOfRow { rows, found: r };
            return Err(if looks_like_moves(line) {
                ParseError::at(line_no, 1, kind)
            } else {
                e
            });
        }
    }
    if player.is_none() {
        return Err(ParseError::at(
            size_line_no + 1,
            1,
            ParseErrorKind::NoPlayer,
        ));
    }
    let moves = parse_moves(lines.number + 1, lines.rest.unwrap_or_default(), text)?;
    Ok(Parts {
        cols,
        rows,
        map_start,
        moves,
    })
}

/// The byte offset of the map row after the one at `row` in validated text: a row is
/// `cols` bytes followed by `\n`, `\r\n` or the end of the text.
fn next_row(text: &[u8], row: usize, cols: usize) -> usize {
    let end = row + cols;
    end + if text.get(end) == Some(&b'\r') { 2 } else { 1 }
}

impl Puzzle {
    /// Reads puzzle text, accepting and refusing exactly what RULES.md section 1 says. A
    /// leading byte-order mark is skipped, as editors write one.
    pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
        // A byte-order mark, as some editors write, is not part of the size line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let Parts {
            cols,
            rows,
            map_start,
            moves,
        } = parts(text.as_bytes())?;
        let bytes = text.as_bytes();
        let mut cells = Vec::with_capacity(cols * rows);
        let mut at = map_start;
        for _ in 0..rows {
            let row = bytes.get(at..at + cols).unwrap_or_default();
            cells.extend(row.iter().map(|&b| cell_of_byte(b)));
            at = next_row(bytes, at, cols);
        }
        Puzzle::from_parts(cols, rows, cells, moves)
    }

    /// [`Puzzle::parse_bytes`] taking the bytes: the map is made in the same buffer, row by
    /// row moved over the size line and the newlines, so that the largest puzzles need no
    /// second copy of their map.
    pub fn parse_owned(mut bytes: Vec<u8>) -> Result<Puzzle, ParseError> {
        let bom = if bytes.starts_with("\u{feff}".as_bytes()) {
            3
        } else {
            0
        };
        // Bytes that are not UTF-8 are refused as such before any other error.
        let Parts {
            cols,
            rows,
            map_start,
            moves,
        } = parts(&bytes[bom..]).map_err(|e| utf8_refusal(&bytes).unwrap_or(e))?;
        // Row `r` starts after byte `r * (cols + 1)` (the size line comes first): moving it
        // to `r * cols` only writes over bytes already moved or not needed any more.
        let mut at = bom + map_start;
        for r in 0..rows {
            if at + cols > bytes.len() {
                break;
            }
            bytes.copy_within(at..at + cols, r * cols);
            at = next_row(&bytes, at, cols);
        }
        bytes.truncate(cols * rows);
        // Give back the move string's part of the buffer (large buffers shrink in place).
        bytes.shrink_to_fit();
        // Same size, same alignment: `collect` reuses the buffer.
        let cells = bytes.into_iter().map(cell_of_byte).collect();
        Puzzle::from_parts(cols, rows, cells, moves)
    }

    /// A puzzle from validated parts.
    fn from_parts(
        cols: usize,
        rows: usize,
        cells: Vec<Cell>,
        moves: Vec<Move>,
    ) -> Result<Puzzle, ParseError> {
        let map = Grid::from_cells(cols, rows, cells).ok_or(ParseError::at(
            1,
            1,
            ParseErrorKind::MissingSize,
        ))?;
        Ok(Puzzle { map, moves })
    }

    /// Reads puzzle bytes; text that is not UTF-8 is refused at the first bad byte.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Puzzle, ParseError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Puzzle::parse(text),
            Err(_) => {
                Err(utf8_refusal(bytes).unwrap_or(ParseError::at(1, 1, ParseErrorKind::NotUtf8)))
            }
        }
    }

    /// A puzzle from a map and moves, checked like parsed text: a solid `#` border, exactly
    /// one player, at least 3x3. Errors point at map rows as if the map followed a size line.
    pub fn new(map: Grid<Cell>, moves: Vec<Move>) -> Result<Puzzle, ParseError> {
        check_map(&map)?;
        Ok(Puzzle { map, moves })
    }

    /// The starting map and the moves, taken apart.
    pub fn into_parts(self) -> (Grid<Cell>, Vec<Move>) {
        (self.map, self.moves)
    }

    /// The starting map.
    pub fn map(&self) -> &Grid<Cell> {
        &self.map
    }

    /// The moves, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The player's starting cell.
    pub fn player(&self) -> Pos {
        self.map
            .iter()
            .find(|(_, c)| **c == Cell::Player)
            .map_or(Pos::new(1, 1), |(p, _)| p)
    }

    /// The same map with other moves.
    pub fn with_moves(&self, moves: Vec<Move>) -> Puzzle {
        Puzzle {
            map: self.map.clone(),
            moves,
        }
    }
}

/// The checks [`Puzzle::parse`] makes of the map rows, made on a grid in the same order, so
/// the same map gets the same error: shrinking builds a puzzle on every step, and printing
/// it to parse it again cost more than the candidate's test.
fn check_map(map: &Grid<Cell>) -> Result<(), ParseError> {
    let (cols, rows) = (map.cols(), map.rows());
    if cols < 3 || rows < 3 {
        return Err(ParseError::at(
            1,
            1,
            ParseErrorKind::TooSmall { cols, rows },
        ));
    }
    let mut player = None;
    for r in 0..rows {
        let line = r + 2;
        for (c, &cell) in map.row(r).iter().enumerate() {
            let col = c + 1;
            let on_border = r == 0 || r == rows - 1 || c == 0 || c == cols - 1;
            if on_border && cell != Cell::Wall {
                let found = describe(cell.symbol());
                return Err(ParseError::at(
                    line,
                    col,
                    ParseErrorKind::OpenBorder { found },
                ));
            }
            if cell == Cell::Player {
                if let Some((first_line, first_col)) = player {
                    let kind = ParseErrorKind::SecondPlayer {
                        first_line,
                        first_col,
                    };
                    return Err(ParseError::at(line, col, kind));
                }
                player = Some((line, col));
            }
        }
    }
    match player {
        Some(_) => Ok(()),
        None => Err(ParseError::at(2, 1, ParseErrorKind::NoPlayer)),
    }
}

/// The move of every byte that is a move letter.
const MOVE_OF_BYTE: [Option<Move>; 256] = {
    let mut table = [None; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = Move::from_letter(b as u8 as char);
        b += 1;
    }
    table
};

/// True for a move letter, `U D L R W` (without a branch).
#[inline(always)]
fn is_move_letter(b: u8) -> bool {
    (b == b'U') | (b == b'D') | (b == b'L') | (b == b'R') | (b == b'W')
}

/// The move of a move letter; `W` for the bytes that are none (never asked for them).
/// Written without branches or a table, so that a loop of it compiles to vector selects.
#[inline(always)]
fn move_of_letter(b: u8) -> Move {
    let mut m = Move::Wait;
    if b == b'U' {
        m = Move::Step(Dir::Up);
    }
    if b == b'D' {
        m = Move::Step(Dir::Down);
    }
    if b == b'L' {
        m = Move::Step(Dir::Left);
    }
    if b == b'R' {
        m = Move::Step(Dir::Right);
    }
    m
}

/// True if every byte of `line` is a move letter. The line is read whole, with no early
/// exit, so that the loop compiles to vector instructions.
fn all_move_letters(line: &[u8]) -> bool {
    let mut odd = false;
    for &b in line {
        odd |= !is_move_letter(b);
    }
    !odd
}

/// Reads the move string; whitespace between moves is ignored.
/// `text` is the rest of the input (`whole`) after the map rows.
fn parse_moves(first_line: usize, text: &[u8], whole: &[u8]) -> Result<Vec<Move>, ParseError> {
    let mut moves = Vec::with_capacity(text.len());
    // Most move strings are one line of letters: checked and translated whole.
    let one_line = text
        .strip_suffix(b"\n")
        .map_or(text, |t| t.strip_suffix(b"\r").unwrap_or(t));
    if all_move_letters(one_line) {
        moves.extend(one_line.iter().map(|&b| move_of_letter(b)));
        return Ok(moves);
    }
    // Else lines of letters, each checked and translated whole, or letters and ASCII
    // whitespace, one table look-up a byte.
    let plain = text.split(|&b| b == b'\n').all(|line| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if all_move_letters(line) {
            moves.extend(line.iter().map(|&b| move_of_letter(b)));
            return true;
        }
        line.iter().all(|&b| match MOVE_OF_BYTE[usize::from(b)] {
            Some(m) => {
                moves.push(m);
                true
            }
            None => matches!(b, b'\r' | b' ' | b'\t'),
        })
    });
    if plain {
        return Ok(moves);
    }
    // Something else: read it again, a character at a time, for the error's place.
    let text = as_text(whole, text)?;
    moves.clear();
    let mut line = first_line;
    let mut col = 1;
    for c in text.chars() {
        match c {
            '\n' => {
                line += 1;
                col = 1;
                continue;
            }
            c if c.is_whitespace() => {}
            c => match Move::from_letter(c) {
                Some(m) => moves.push(m),
                None => {
                    let hint = if Move::from_letter(c.to_ascii_uppercase()).is_some() {
                        " (moves are upper case)"
                    } else {
                        ""
                    };
                    return Err(ParseError::at(
                        line,
                        col,
                        ParseErrorKind::BadMove { found: c, hint },
                    ));
                }
            },
        }
        col += 1;
    }
    Ok(moves)
}

/// Writes the puzzle in the exact input format: size line, map rows, move string.
impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.map.cols(), self.map.rows())?;
        for r in 0..self.map.rows() {
            let row: String = self.map.row(r).iter().map(|c| c.symbol()).collect();
            writeln!(f, "{row}")?;
        }
        writeln!(f, "{}", move_string(&self.moves))
    }
}
