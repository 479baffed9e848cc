//! Move strings: the letters `U D L R`, with any whitespace and newlines between them.

use crate::grid::Dir;

/// A character in a move string that is not a move, with its 1-based line and column
/// (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {col}: {found:?} is not a move ({})", self.why())]
pub struct BadMove {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// The character found.
    pub found: char,
}

impl BadMove {
    /// Why the character is refused, with a hint for lower-case letters.
    pub fn why(&self) -> &'static str {
        if Dir::from_letter(self.found.to_ascii_uppercase()).is_some() {
            "moves are upper case: U, D, L or R"
        } else {
            "use U, D, L or R"
        }
    }
}

/// The moves in `text`, in order; whitespace is skipped, anything else is an error.
pub fn parse_moves(text: &str) -> Result<Vec<Dir>, BadMove> {
    let mut moves = Vec::new();
    for (l, line) in text.lines().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            if ch.is_whitespace() {
                continue;
            }
            let dir = Dir::from_letter(ch).ok_or(BadMove {
                line: l + 1,
                col: c + 1,
                found: ch,
            })?;
            moves.push(dir);
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Dir::{Down, Left, Right, Up};

    #[test]
    fn letters_with_spaces_and_newlines_between_them_are_moves() {
        assert_eq!(parse_moves("RR"), Ok(vec![Right, Right]));
        assert_eq!(
            parse_moves(" R R\r\nD\tL\n\nU\n"),
            Ok(vec![Right, Right, Down, Left, Up])
        );
        assert_eq!(parse_moves(""), Ok(vec![]));
    }

    #[test]
    fn a_bad_character_is_reported_at_its_line_and_column() {
        let err = parse_moves("RR\nDé X").expect_err("X is no move");
        assert_eq!(
            err,
            BadMove {
                line: 2,
                col: 2,
                found: 'é'
            }
        );
        assert_eq!(
            err.to_string(),
            "line 2, column 2: 'é' is not a move (use U, D, L or R)"
        );
    }

    #[test]
    fn a_lower_case_letter_gets_a_hint() {
        let err = parse_moves("Rr").expect_err("lower case");
        assert_eq!((err.line, err.col, err.found), (1, 2, 'r'));
        assert!(err.to_string().contains("upper case"), "{err}");
    }
}
