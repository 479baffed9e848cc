//! Fence notation: posts like `a1` (column letter, row number from 1 at the top) and fences
//! like `a1-b1`, parsed leniently (spaces, upper case, either post first) and always printed
//! in canonical form (lower case, top or left post first).

use std::fmt;

/// The largest row number notation accepts; larger numbers are malformed, smaller ones that
/// miss the field are refused later as off the grid.
const MAX_ROW_NUMBER: u32 = u16::MAX as u32;

/// A post, zero-based: column 0 is `a`, row 0 is row number 1 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Post {
    /// Column, 0 for `a` up to 25 for `z`.
    pub col: u16,
    /// Row, 0 for the top row (`1` in notation).
    pub row: u16,
}

impl Post {
    /// The post at `col`, `row` (zero-based).
    pub const fn new(col: u16, row: u16) -> Post {
        Post { col, row }
    }
}

impl fmt::Display for Post {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match u8::try_from(self.col).ok().filter(|c| *c < 26) {
            Some(c) => write!(f, "{}{}", char::from(b'a' + c), u32::from(self.row) + 1),
            None => write!(f, "?{}", u32::from(self.row) + 1),
        }
    }
}

/// Which way a fence runs from its top or left post.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orient {
    /// Horizontal: to the post on the right (`a1-b1`).
    Across,
    /// Vertical: to the post below (`a1-a2`).
    Down,
}

/// A fence between two neighbouring posts, stored as its top or left post and a direction.
/// Whether it lies on a given field is checked by the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fence {
    /// The top or left post.
    pub post: Post,
    /// Which way the fence runs from `post`.
    pub orient: Orient,
}

impl Fence {
    /// The horizontal fence from `post` to the post on its right.
    pub const fn across(post: Post) -> Fence {
        Fence {
            post,
            orient: Orient::Across,
        }
    }

    /// The vertical fence from `post` to the post below it.
    pub const fn down(post: Post) -> Fence {
        Fence {
            post,
            orient: Orient::Down,
        }
    }

    /// The fence joining `a` and `b` in either order, or an error when they are not
    /// neighbours.
    pub fn between(a: Post, b: Post) -> Result<Fence, NotationError> {
        let (first, second) = if (a.row, a.col) <= (b.row, b.col) {
            (a, b)
        } else {
            (b, a)
        };
        if first.row == second.row && first.col.checked_add(1) == Some(second.col) {
            Ok(Fence::across(first))
        } else if first.col == second.col && first.row.checked_add(1) == Some(second.row) {
            Ok(Fence::down(first))
        } else if a == b {
            Err(NotationError::SamePost { post: a })
        } else {
            Err(NotationError::NotNeighbours { a, b })
        }
    }

    /// The far post: right of or below [`Fence::post`].
    pub fn end(self) -> Post {
        match self.orient {
            Orient::Across => Post::new(self.post.col.saturating_add(1), self.post.row),
            Orient::Down => Post::new(self.post.col, self.post.row.saturating_add(1)),
        }
    }
}

impl fmt::Display for Fence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.post, self.end())
    }
}

impl std::str::FromStr for Fence {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Fence, NotationError> {
        parse_fence(s)
    }
}

/// What is wrong with a piece of fence notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing but spaces.
    #[error("no fence given: write two posts joined by `-`, like a1-b1")]
    Empty,
    /// Not exactly one `-` between two posts.
    #[error("`{text}` is not a fence: write two posts joined by one `-`, like a1-b1")]
    NoDash {
        /// The text as given.
        text: String,
    },
    /// One side of the `-` is not a post.
    #[error("`{post}` is not a post: {why}")]
    BadPost {
        /// The offending part, as given.
        post: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// Both ends are the same post.
    #[error("{post}-{post} joins a post to itself")]
    SamePost {
        /// The post.
        post: Post,
    },
    /// The posts are valid but not next to each other.
    #[error("{a}-{b} joins posts that are not neighbours")]
    NotNeighbours {
        /// The first post as given.
        a: Post,
        /// The second post as given.
        b: Post,
    },
}

/// Parses one post such as `a1` or ` C12 `.
pub fn parse_post(text: &str) -> Result<Post, NotationError> {
    let t = text.trim();
    let bad = |why| NotationError::BadPost {
        post: t.to_string(),
        why,
    };
    let mut chars = t.chars();
    let letter = match chars.next() {
        None => return Err(bad("a post is a column letter a..z then a row number")),
        Some(c) if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
        Some(_) => return Err(bad("it must start with a column letter a..z")),
    };
    let digits = chars.as_str();
    if digits.is_empty() {
        return Err(bad("the row number after the column letter is missing"));
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("after the column letter only a row number may follow"));
    }
    let number = digits
        .parse::<u32>()
        .ok()
        .filter(|n| *n <= MAX_ROW_NUMBER)
        .ok_or_else(|| bad("the row number is far too large"))?;
    if number == 0 {
        return Err(bad("rows are numbered from 1"));
    }
    // Both conversions are in range: a letter gives 0..26, the number was checked above.
    Ok(Post::new(
        u16::from(letter as u8 - b'a'),
        u16::try_from(number - 1).map_err(|_| bad("the row number is far too large"))?,
    ))
}

/// Parses the two posts of a fence such as `a1-b1`, `B1 - a1`, without checking that they are
/// neighbours (so that a field can first say a post is off the grid).
pub fn parse_posts(text: &str) -> Result<(Post, Post), NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let mut parts = t.split('-');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(a), Some(b), None) => Ok((parse_post(a)?, parse_post(b)?)),
        _ => Err(NotationError::NoDash {
            text: t.to_string(),
        }),
    }
}

/// Parses a fence such as `a1-b1`, `a2 - a1` or `B1-C1`.
pub fn parse_fence(text: &str) -> Result<Fence, NotationError> {
    let (a, b) = parse_posts(text)?;
    Fence::between(a, b)
}

/// Splits a list of moves into one piece of text per fence. Fences are separated by commas,
/// semicolons or white space (including newlines); spaces around a `-` stay inside the fence;
/// `#` starts a comment that runs to the end of the line.
pub fn split_moves(text: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        for token in line.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
            if token.is_empty() {
                continue;
            }
            if current.is_empty() || current.ends_with('-') || token.starts_with('-') {
                current.push_str(token);
            } else {
                moves.push(std::mem::take(&mut current));
                current.push_str(token);
            }
        }
    }
    if !current.is_empty() {
        moves.push(current);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(col: u16, row: u16) -> Post {
        Post::new(col, row)
    }

    #[test]
    fn a1_is_the_top_left_post_and_b1_is_to_its_right() {
        assert_eq!(parse_post("a1"), Ok(post(0, 0)));
        assert_eq!(parse_post("b1"), Ok(post(1, 0)));
        assert_eq!(parse_post("a2"), Ok(post(0, 1)));
        assert_eq!(parse_post("z26"), Ok(post(25, 25)));
    }

    #[test]
    fn a_fence_may_be_written_either_way_round_with_spaces_and_upper_case() {
        let want = Fence::across(post(0, 0));
        for text in ["a1-b1", "b1-a1", " A1 - B1 ", "B1-a1"] {
            assert_eq!(parse_fence(text), Ok(want), "{text}");
        }
        assert_eq!(parse_fence("a2-a1"), Ok(Fence::down(post(0, 0))));
    }

    #[test]
    fn a_fence_prints_in_canonical_form() {
        assert_eq!(Fence::across(post(0, 0)).to_string(), "a1-b1");
        assert_eq!(Fence::down(post(2, 9)).to_string(), "c10-c11");
        assert_eq!(
            parse_fence(" D3 - C3").map(|f| f.to_string()),
            Ok("c3-d3".into())
        );
    }

    #[test]
    fn canonical_notation_round_trips_for_every_fence_of_a_large_field() {
        for row in 0..26 {
            for col in 0..26 {
                for fence in [Fence::across(post(col, row)), Fence::down(post(col, row))] {
                    if fence.end().col > 25 {
                        continue;
                    }
                    let text = fence.to_string();
                    assert_eq!(parse_fence(&text), Ok(fence), "{text}");
                }
            }
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let msg = |t: &str| parse_fence(t).map_err(|e| e.to_string()).unwrap_err();
        assert!(msg("").contains("no fence given"));
        assert!(msg("a1b1").contains("`a1b1` is not a fence"));
        assert!(msg("a1-b1-c1").contains("one `-`"));
        assert!(msg("11-b1").contains("must start with a column letter"));
        assert!(msg("a-b1").contains("row number after the column letter is missing"));
        assert!(msg("a0-b0").contains("numbered from 1"));
        assert!(msg("a1x-b1").contains("only a row number"));
        assert!(msg("a99999999-a1").contains("far too large"));
        assert_eq!(msg("a1-a1"), "a1-a1 joins a post to itself");
        assert_eq!(msg("a1-c1"), "a1-c1 joins posts that are not neighbours");
        assert_eq!(msg("b2-a1"), "b2-a1 joins posts that are not neighbours");
    }

    #[test]
    fn off_field_posts_still_parse_so_the_field_can_say_off_the_grid() {
        assert_eq!(parse_posts("a1-z9"), Ok((post(0, 0), post(25, 8))));
    }

    #[test]
    fn moves_split_on_commas_spaces_and_lines_keeping_spaced_dashes() {
        let text = "a1-b1, b1 - c1\n# a comment\nA2 -B2;c3- c4  d1-d2 # trailing\n";
        assert_eq!(
            split_moves(text),
            vec!["a1-b1", "b1-c1", "A2-B2", "c3-c4", "d1-d2"]
        );
        assert!(split_moves("  \n# nothing\n").is_empty());
    }
}
