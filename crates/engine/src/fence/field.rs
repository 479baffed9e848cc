//! The field and its rules: setup from a seed, building fences, claiming pens, the extra move,
//! refusals and the end of the game (RULES.md section 2). Plain data in, plain data out:
//! [`Field::apply`] has the shape of every game ([`Playable`]), and the words are made in
//! [`super::render`].
//!
//! Fences are numbered in the fence order of RULES.md: every horizontal fence row by row,
//! left to right, then every vertical fence row by row. Built fences are a bitset over those
//! numbers, and each pen keeps a count of its built sides.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::notation::{self, Fence, NotationError, Orient, Post};
use crate::grid::Dimensions;
use crate::play::Playable;

/// The size of a field in pens, from 1x1 to 25x25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    cols: u8,
    rows: u8,
}

/// Why a size was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// Not of the form `WxH`.
    #[error("`{0}` is not a size: write columns x rows, like 4x4")]
    Malformed(String),
    /// A side outside 1..=25.
    #[error("{cols}x{rows} is out of range: each side is 1 to 25 pens")]
    OutOfRange {
        /// Columns asked for.
        cols: usize,
        /// Rows asked for.
        rows: usize,
    },
}

impl Size {
    /// The largest number of pens on one side (26 post columns are the letters a to z).
    pub const MAX: usize = 25;
    /// The default field: 4 x 4 pens, 40 fences.
    pub const DEFAULT: Size = Size { cols: 4, rows: 4 };

    /// A size of `cols` x `rows` pens, each side 1 to 25.
    pub fn new(cols: usize, rows: usize) -> Result<Size, SizeError> {
        match (u8::try_from(cols), u8::try_from(rows)) {
            (Ok(c), Ok(r))
                if (1..=Self::MAX).contains(&cols) && (1..=Self::MAX).contains(&rows) =>
            {
                Ok(Size { cols: c, rows: r })
            }
            _ => Err(SizeError::OutOfRange { cols, rows }),
        }
    }

    /// Columns of pens.
    pub fn cols(self) -> usize {
        usize::from(self.cols)
    }

    /// Rows of pens.
    pub fn rows(self) -> usize {
        usize::from(self.rows)
    }

    /// Number of pens.
    pub fn pens(self) -> usize {
        self.cols() * self.rows()
    }

    /// Number of fences: `cols * (rows + 1)` horizontal plus `rows * (cols + 1)` vertical.
    pub fn fences(self) -> usize {
        self.horizontals() + self.rows() * (self.cols() + 1)
    }

    fn horizontals(self) -> usize {
        self.cols() * (self.rows() + 1)
    }

    /// True if `post` is one of the `(cols + 1) x (rows + 1)` posts.
    pub fn has_post(self, post: Post) -> bool {
        usize::from(post.col) <= self.cols() && usize::from(post.row) <= self.rows()
    }

    /// The number of `fence` in fence order, or `None` when it is off this field.
    pub fn index(self, fence: Fence) -> Option<usize> {
        let (c, r) = (usize::from(fence.post.col), usize::from(fence.post.row));
        match fence.orient {
            Orient::Across if c < self.cols() && r <= self.rows() => Some(r * self.cols() + c),
            Orient::Down if c <= self.cols() && r < self.rows() => {
                Some(self.horizontals() + r * (self.cols() + 1) + c)
            }
            _ => None,
        }
    }

    /// The fence numbered `index` in fence order (`index < self.fences()`).
    pub fn fence(self, index: usize) -> Fence {
        let (post, across) = if index < self.horizontals() {
            ((index % self.cols(), index / self.cols()), true)
        } else {
            let j = index - self.horizontals();
            ((j % (self.cols() + 1), j / (self.cols() + 1)), false)
        };
        // Fits: columns and rows are at most 26 here.
        let post = Post::new(post.0 as u16, post.1 as u16);
        if across {
            Fence::across(post)
        } else {
            Fence::down(post)
        }
    }

    /// The pens on either side of fence `index`: above and below, or left and right.
    pub(super) fn pens_of(self, index: usize) -> [Option<usize>; 2] {
        let (w, h) = (self.cols(), self.rows());
        if index < self.horizontals() {
            let (r, c) = (index / w, index % w);
            [
                (r > 0).then(|| (r - 1) * w + c),
                (r < h).then_some(r * w + c),
            ]
        } else {
            let j = index - self.horizontals();
            let (r, c) = (j / (w + 1), j % (w + 1));
            [(c > 0).then(|| r * w + c - 1), (c < w).then_some(r * w + c)]
        }
    }

    /// The four fences of pen `pen`: top, bottom, left, right.
    pub(super) fn fences_of(self, pen: usize) -> [usize; 4] {
        let w = self.cols();
        let (r, c) = (pen / w, pen % w);
        let left = self.horizontals() + r * (w + 1) + c;
        [r * w + c, (r + 1) * w + c, left, left + 1]
    }

    /// The name of pen `pen` (row-major index): its top-left post.
    pub fn pen(self, pen: usize) -> Pen {
        Pen(Post::new(
            (pen % self.cols()) as u16,
            (pen / self.cols()) as u16,
        ))
    }
}

impl Default for Size {
    fn default() -> Size {
        Size::DEFAULT
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

impl std::str::FromStr for Size {
    type Err = SizeError;
    fn from_str(s: &str) -> Result<Size, SizeError> {
        let d: Dimensions = s
            .parse()
            .map_err(|_| SizeError::Malformed(s.trim().to_string()))?;
        Size::new(d.cols, d.rows)
    }
}

/// A pen, named by its top-left post.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pen(pub Post);

impl fmt::Display for Pen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player, who moves first.
    You,
    /// The farmer, who follows the rule in [`crate::fence::farmer`].
    Farmer,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::You => Side::Farmer,
            Side::Farmer => Side::You,
        }
    }

    /// `"you"` or `"farmer"`, as in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Side::You => "you",
            Side::Farmer => "farmer",
        }
    }

    /// `Y` or `F`, the owner mark in the text art.
    pub fn mark(self) -> char {
        match self {
            Side::You => 'Y',
            Side::Farmer => 'F',
        }
    }
}

/// The step of the farmer's rule that chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleStep {
    /// The fence completed a pen.
    Close,
    /// The fence gave no pen its third side.
    Safe,
    /// The fence gave away the fewest pens.
    Fewest,
}

impl RuleStep {
    /// `close`, `safe` or `fewest`.
    pub fn name(self) -> &'static str {
        match self {
            RuleStep::Close => "close",
            RuleStep::Safe => "safe",
            RuleStep::Fewest => "fewest",
        }
    }
}

impl fmt::Display for RuleStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The move of Fence Posts: a side builds a fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Build {
    /// Who builds.
    pub by: Side,
    /// The fence.
    pub fence: Fence,
}

/// One built fence: what a build did, as kept in the game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// Who built it.
    pub by: Side,
    /// The fence.
    pub fence: Fence,
    /// The pens it completed, in row-major order (none, one or two).
    pub claimed: Vec<Pen>,
    /// The step of the farmer's rule that chose it; `None` for a move chosen by a caller.
    pub step: Option<RuleStep>,
}

/// Why a build was refused. The field is left as it was. Its words (`Display`) are made in
/// [`super::render`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Unreadable text, or two posts that are not neighbours.
    Malformed(#[from] NotationError),
    /// A post that is not on this field.
    OffGrid {
        /// The first post as written.
        from: Post,
        /// The second post as written.
        to: Post,
        /// The field's size.
        size: Size,
    },
    /// The fence is already there.
    AlreadyBuilt(Fence),
    /// The other side is to move.
    OutOfTurn {
        /// The side whose turn it is.
        to_move: Side,
    },
    /// Every fence is built.
    GameOver,
}

/// One side's haul: sheep and pens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Sheep in the side's pens.
    pub sheep: u32,
    /// Pens the side has claimed.
    pub pens: u32,
}

/// Who won a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The player has more sheep, or as many sheep and more pens.
    You,
    /// The farmer has more sheep, or as many sheep and more pens.
    Farmer,
    /// Same sheep and same pens: a draw.
    Neither,
}

/// Built fences and the number of built sides of each pen: the part of the field the
/// farmer's rule looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Board {
    pub(super) size: Size,
    /// Built sides of each pen, 0 to 4, row-major.
    pub(super) sides: Vec<u8>,
    /// One bit per fence number.
    built: Vec<u64>,
    count: usize,
}

impl Board {
    fn new(size: Size) -> Board {
        Board {
            size,
            sides: vec![0; size.pens()],
            built: vec![0; size.fences().div_ceil(64)],
            count: 0,
        }
    }

    /// True if fence `i` is built.
    pub(super) fn is_built(&self, i: usize) -> bool {
        self.built[i / 64] >> (i % 64) & 1 == 1
    }

    /// Number of built fences.
    pub(super) fn count(&self) -> usize {
        self.count
    }

    /// Builds unbuilt fence `i`, adding a side to each of its pens.
    pub(super) fn set(&mut self, i: usize) {
        debug_assert!(!self.is_built(i));
        self.built[i / 64] |= 1 << (i % 64);
        self.count += 1;
        for p in self.size.pens_of(i).into_iter().flatten() {
            self.sides[p] += 1;
        }
    }

    /// Takes back built fence `i`.
    pub(super) fn unset(&mut self, i: usize) {
        debug_assert!(self.is_built(i));
        self.built[i / 64] &= !(1 << (i % 64));
        self.count -= 1;
        for p in self.size.pens_of(i).into_iter().flatten() {
            self.sides[p] -= 1;
        }
    }

    /// The one unbuilt fence of a pen with three sides.
    pub(super) fn missing(&self, pen: usize) -> Option<usize> {
        self.size
            .fences_of(pen)
            .into_iter()
            .find(|&f| !self.is_built(f))
    }

    /// Every unbuilt fence number, in fence order.
    pub(super) fn unbuilt(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.size.fences()).filter(|&i| !self.is_built(i))
    }
}

/// A game of Fence Posts: the sheep, the fences, who owns which pen, whose turn it is, the
/// seeded stream for the farmer's tie-breaks, and the log of every move.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub(super) seed: u64,
    pub(super) sheep: Vec<u8>,
    pub(super) owner: Vec<Option<Side>>,
    pub(super) board: Board,
    pub(super) to_move: Option<Side>,
    pub(super) rng: ChaCha8Rng,
    pub(super) log: Vec<Built>,
}

impl Field {
    /// A new game: `size` pens, each with `next_u32() % 9 + 1` sheep drawn in row-major order
    /// from `ChaCha8Rng::seed_from_u64(seed)`, no fence built, the player to move.
    pub fn start(seed: u64, size: Size) -> Field {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let sheep = (0..size.pens())
            .map(|_| (rng.next_u32() % 9 + 1) as u8)
            .collect();
        Field {
            seed,
            sheep,
            owner: vec![None; size.pens()],
            board: Board::new(size),
            to_move: Some(Side::You),
            rng,
            log: Vec::new(),
        }
    }

    /// The seed the game started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The field's size in pens.
    pub fn size(&self) -> Size {
        self.board.size
    }

    /// Sheep in pen `pen` (row-major index).
    pub fn sheep(&self, pen: usize) -> u32 {
        u32::from(self.sheep[pen])
    }

    /// Who owns pen `pen`, if anyone.
    pub fn owner(&self, pen: usize) -> Option<Side> {
        self.owner[pen]
    }

    /// How many of pen `pen`'s four sides are built.
    pub fn sides(&self, pen: usize) -> u8 {
        self.board.sides[pen]
    }

    /// Who moves next, or `None` once the game is over.
    pub fn to_move(&self) -> Option<Side> {
        self.to_move
    }

    /// True once every fence is built.
    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }

    /// True if `fence` is on this field and built.
    pub fn is_built(&self, fence: Fence) -> bool {
        self.size()
            .index(fence)
            .is_some_and(|i| self.board.is_built(i))
    }

    /// Every unbuilt fence, in fence order.
    pub fn fences(&self) -> Vec<Fence> {
        self.board.unbuilt().map(|i| self.size().fence(i)).collect()
    }

    /// Every built fence, in fence order.
    pub fn built(&self) -> Vec<Fence> {
        (0..self.size().fences())
            .filter(|&i| self.board.is_built(i))
            .map(|i| self.size().fence(i))
            .collect()
    }

    /// Every move so far, in order.
    pub fn log(&self) -> &[Built] {
        &self.log
    }

    /// The sheep and pens `side` has claimed.
    pub fn score(&self, side: Side) -> Score {
        let mut score = Score::default();
        for (pen, owner) in self.owner.iter().enumerate() {
            if *owner == Some(side) {
                score.sheep += self.sheep(pen);
                score.pens += 1;
            }
        }
        score
    }

    /// `build.by` builds `build.fence`: it claims every pen the fence completes and moves
    /// again if there was one, else the turn passes.
    pub fn apply(&mut self, build: Build) -> Result<Built, Refusal> {
        let Build { by, fence } = build;
        self.check_turn(by)?;
        let index = self.size().index(fence).ok_or(Refusal::OffGrid {
            from: fence.post,
            to: fence.end(),
            size: self.size(),
        })?;
        if self.board.is_built(index) {
            return Err(Refusal::AlreadyBuilt(fence));
        }
        Ok(self.build_index(by, index, None))
    }

    /// Like [`Field::apply`], reading the fence from notation such as `a1-b1`. Text that is
    /// not a fence is refused as malformed; a post off the field as off the grid.
    pub fn apply_text(&mut self, by: Side, text: &str) -> Result<Built, Refusal> {
        self.check_turn(by)?;
        let (from, to) = notation::parse_posts(text)?;
        if !self.size().has_post(from) || !self.size().has_post(to) {
            return Err(Refusal::OffGrid {
                from,
                to,
                size: self.size(),
            });
        }
        let fence = Fence::between(from, to)?;
        self.apply(Build { by, fence })
    }

    /// Refuses a move by `side` when the game is over or it is the other side's turn.
    pub(super) fn check_turn(&self, side: Side) -> Result<(), Refusal> {
        match self.to_move {
            None => Err(Refusal::GameOver),
            Some(to_move) if to_move != side => Err(Refusal::OutOfTurn { to_move }),
            Some(_) => Ok(()),
        }
    }

    /// Builds fence `index` for `side`, with the claims, the log entry and the turn.
    pub(super) fn build_index(
        &mut self,
        side: Side,
        index: usize,
        step: Option<RuleStep>,
    ) -> Built {
        self.board.set(index);
        let size = self.size();
        let mut claimed = Vec::new();
        for pen in size.pens_of(index).into_iter().flatten() {
            if self.board.sides[pen] == 4 {
                self.owner[pen] = Some(side);
                claimed.push(size.pen(pen));
            }
        }
        self.to_move = if self.board.count() == size.fences() {
            None
        } else if claimed.is_empty() {
            Some(side.other())
        } else {
            Some(side)
        };
        let built = Built {
            by: side,
            fence: size.fence(index),
            claimed,
            step,
        };
        self.log.push(built.clone());
        built
    }

    /// The winner once the game is over: more sheep wins, then more pens, else a draw.
    pub fn winner(&self) -> Option<Winner> {
        if !self.is_over() {
            return None;
        }
        let (you, farmer) = (self.score(Side::You), self.score(Side::Farmer));
        Some(
            match (you.sheep, you.pens).cmp(&(farmer.sheep, farmer.pens)) {
                std::cmp::Ordering::Greater => Winner::You,
                std::cmp::Ordering::Less => Winner::Farmer,
                std::cmp::Ordering::Equal => Winner::Neither,
            },
        )
    }
}

impl Playable for Field {
    type Move = Build;
    type Event = Built;
    type Refusal = Refusal;

    fn apply(&mut self, build: Build) -> Result<Built, Refusal> {
        Field::apply(self, build)
    }
}

/// The field after a move, with the field before kept: tests compare the two.
#[cfg(test)]
impl Field {
    pub(crate) fn with_text(&self, side: Side, text: &str) -> Result<Field, Refusal> {
        let mut next = self.clone();
        next.apply_text(side, text)?;
        Ok(next)
    }

    pub(crate) fn with_build(&self, by: Side, fence: Fence) -> Result<Field, Refusal> {
        let mut next = self.clone();
        next.apply(Build { by, fence })?;
        Ok(next)
    }

    pub(crate) fn with_reply(&self) -> Result<Field, Refusal> {
        let mut next = self.clone();
        next.reply()?;
        Ok(next)
    }

    pub(crate) fn with_rule_move(&self, side: Side) -> Result<Field, Refusal> {
        let mut next = self.clone();
        next.rule_move(side)?;
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fence::notation::parse_fence;
    use crate::fence::render::{result_line, status_line};

    fn fence(text: &str) -> Fence {
        parse_fence(text).expect("test fence")
    }

    /// Builds `moves` in order, each by whoever is to move.
    pub(crate) fn play(seed: u64, size: Size, moves: &[&str]) -> Field {
        moves.iter().fold(Field::start(seed, size), |f, m| {
            let side = f.to_move().expect("game not over");
            f.with_text(side, m).expect("legal test move")
        })
    }

    fn size(cols: usize, rows: usize) -> Size {
        Size::new(cols, rows).expect("test size")
    }

    #[test]
    fn default_field_is_4x4_pens_with_40_fences() {
        let f = Field::start(1, Size::default());
        assert_eq!((f.size().cols(), f.size().rows()), (4, 4));
        assert_eq!(f.fences().len(), 40);
        assert_eq!(size(25, 25).fences(), 1300);
    }

    #[test]
    fn sizes_run_from_1x1_to_25x25() {
        assert_eq!("1x1".parse::<Size>(), Ok(size(1, 1)));
        assert_eq!(" 25X3 ".parse::<Size>(), Ok(size(25, 3)));
        assert!(matches!(
            "0x4".parse::<Size>(),
            Err(SizeError::OutOfRange { .. })
        ));
        assert!(matches!(
            "26x1".parse::<Size>(),
            Err(SizeError::OutOfRange { .. })
        ));
        assert!(matches!(
            "4by4".parse::<Size>(),
            Err(SizeError::Malformed(_))
        ));
    }

    #[test]
    fn sheep_are_drawn_per_pen_in_row_major_order_from_the_seed() {
        let f = Field::start(7, size(3, 2));
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for pen in 0..6 {
            assert_eq!(f.sheep(pen), rng.next_u32() % 9 + 1, "pen {pen}");
        }
    }

    #[test]
    fn every_pen_holds_1_to_9_sheep() {
        let f = Field::start(99, size(25, 25));
        assert!((0..625).all(|p| (1..=9).contains(&f.sheep(p))));
    }

    #[test]
    fn the_same_seed_gives_the_same_field() {
        assert_eq!(Field::start(5, size(4, 4)), Field::start(5, size(4, 4)));
        let differs = (0..16)
            .any(|p| Field::start(5, size(4, 4)).sheep(p) != Field::start(6, size(4, 4)).sheep(p));
        assert!(differs, "seeds 5 and 6 should not give the same sheep");
    }

    #[test]
    fn the_player_moves_first() {
        assert_eq!(Field::start(1, size(2, 2)).to_move(), Some(Side::You));
    }

    #[test]
    fn fences_are_listed_horizontal_rows_then_vertical_rows() {
        let names: Vec<String> = Field::start(1, size(2, 1))
            .fences()
            .iter()
            .map(|f| f.to_string())
            .collect();
        assert_eq!(
            names,
            [
                "a1-b1", "b1-c1", "a2-b2", "b2-c2", "a1-a2", "b1-b2", "c1-c2"
            ]
        );
    }

    #[test]
    fn a_built_fence_leaves_the_list_of_fences() {
        let f = play(1, size(2, 1), &["b1-c1"]);
        assert!(!f.fences().contains(&fence("b1-c1")));
        assert_eq!(f.fences().len(), 6);
        assert_eq!(f.built(), vec![fence("b1-c1")]);
    }

    #[test]
    fn a_fence_that_completes_nothing_passes_the_turn() {
        let f = play(1, size(2, 2), &["a1-b1"]);
        assert_eq!(f.to_move(), Some(Side::Farmer));
        assert!(f.log()[0].claimed.is_empty());
    }

    #[test]
    fn a_single_close_claims_the_pen_and_its_sheep_and_gives_an_extra_move() {
        // You: a1-b1, farmer: a2-b2, you: c1-c2, farmer: a1-a2 (pen a1 now has 3 sides).
        let before = play(3, size(2, 1), &["a1-b1", "a2-b2", "c1-c2", "a1-a2"]);
        assert_eq!(before.to_move(), Some(Side::You));
        let after = before.with_text(Side::You, "b1-b2").expect("legal");
        assert_eq!(after.owner(0), Some(Side::You));
        assert_eq!(after.owner(1), None);
        assert_eq!(
            after.log().last().map(|m| m.claimed.clone()),
            Some(vec![Pen(Post::new(0, 0))])
        );
        assert_eq!(
            after.score(Side::You),
            Score {
                sheep: before.sheep(0),
                pens: 1
            }
        );
        assert_eq!(after.to_move(), Some(Side::You), "extra move after a close");
    }

    #[test]
    fn a_double_close_claims_both_pens() {
        let moves = ["a1-b1", "a2-b2", "a1-a2", "b1-c1", "b2-c2", "c1-c2"];
        let before = play(4, size(2, 1), &moves);
        let after = before.with_text(Side::You, "b1-b2").expect("legal");
        let claimed = &after.log().last().expect("a move").claimed;
        assert_eq!(claimed, &vec![Pen(Post::new(0, 0)), Pen(Post::new(1, 0))]);
        assert_eq!(after.score(Side::You).pens, 2);
        assert_eq!(
            after.score(Side::You).sheep,
            before.sheep(0) + before.sheep(1)
        );
    }

    /// The refusal's variant, named as in RULES.md.
    fn kind(r: &Refusal) -> &'static str {
        match r {
            Refusal::Malformed(_) => "malformed",
            Refusal::OffGrid { .. } => "off grid",
            Refusal::AlreadyBuilt(_) => "already built",
            Refusal::OutOfTurn { .. } => "out of turn",
            Refusal::GameOver => "game over",
        }
    }

    fn refused(f: &Field, side: Side, text: &str) -> Refusal {
        let before = f.clone();
        let r = f.with_text(side, text).expect_err("should be refused");
        assert_eq!(f, &before, "a refusal leaves the field unchanged");
        r
    }

    #[test]
    fn a_malformed_fence_is_refused_with_its_reason() {
        let f = play(1, size(4, 4), &["a1-b1"])
            .with_text(Side::Farmer, "c3-c4")
            .expect("legal");
        let r = refused(&f, Side::You, "a1b1");
        assert_eq!(kind(&r), "malformed");
        assert!(r.to_string().contains("`a1b1` is not a fence"), "{r}");
        let r = refused(&f, Side::You, "a1-c1");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("malformed", "a1-c1 joins posts that are not neighbours")
        );
    }

    #[test]
    fn a_fence_off_the_grid_is_refused_with_its_reason() {
        let f = Field::start(1, size(4, 4));
        let r = refused(&f, Side::You, "a1-z9");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("off grid", "a1-z9 is off the 4x4 grid")
        );
        let r = refused(&f, Side::You, "E5-F5");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("off grid", "e5-f5 is off the 4x4 grid")
        );
        let r = f
            .with_build(Side::You, Fence::down(Post::new(4, 4)))
            .expect_err("off");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("off grid", "e5-e6 is off the 4x4 grid")
        );
    }

    #[test]
    fn a_fence_already_built_is_refused_with_its_reason() {
        let f = play(1, size(4, 4), &["a1-b1", "c3-c4"]);
        let r = refused(&f, Side::You, "B1-A1");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("already built", "a1-b1 is already built")
        );
    }

    #[test]
    fn a_move_out_of_turn_is_refused_with_its_reason() {
        let f = Field::start(1, size(4, 4));
        let r = refused(&f, Side::Farmer, "a1-b1");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("out of turn", "it is your turn, not the farmer's")
        );
        let f = play(1, size(4, 4), &["a1-b1"]);
        let r = refused(&f, Side::You, "b1-c1");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("out of turn", "it is the farmer's turn, not yours")
        );
    }

    #[test]
    fn a_move_after_the_game_is_over_is_refused_with_its_reason() {
        let f = play(1, size(1, 1), &["a1-b1", "a2-b2", "a1-a2", "b1-b2"]);
        assert!(f.is_over());
        assert_eq!(f.to_move(), None);
        let r = refused(&f, Side::You, "a1-b1");
        assert_eq!(
            (kind(&r), r.to_string().as_str()),
            ("game over", "the game is over: every fence is built")
        );
    }

    /// A finished 2x1 game: you close pen a1, the farmer pen b1 (closes played by hand; this
    /// is about the result, not the farmer's rule).
    fn split_2x1(seed: u64) -> Field {
        let moves = [
            "b1-b2", "a1-b1", "b1-c1", "a1-a2", "a2-b2", "c1-c2", "b2-c2",
        ];
        let f = play(seed, size(2, 1), &moves);
        assert_eq!(
            (f.owner(0), f.owner(1)),
            (Some(Side::You), Some(Side::Farmer))
        );
        f
    }

    /// The first seed whose field of `cols` x 1 pens satisfies `pred` on its sheep.
    fn seed_where(cols: usize, pred: impl Fn(&[u32]) -> bool) -> u64 {
        (0..10_000)
            .find(|&s| {
                let f = Field::start(s, size(cols, 1));
                pred(&(0..cols).map(|p| f.sheep(p)).collect::<Vec<_>>())
            })
            .expect("a seed in range")
    }

    #[test]
    fn the_game_ends_when_every_fence_is_built() {
        let f = split_2x1(1);
        assert!(f.is_over());
        assert!(f.fences().is_empty());
        assert_eq!(f.log().len(), 7);
        assert!(split_2x1(1).with_text(Side::You, "a1-b1").is_err());
    }

    #[test]
    fn more_sheep_wins_for_you() {
        let f = split_2x1(seed_where(2, |s| s[0] > s[1]));
        let (a, b) = (f.sheep(0), f.sheep(1));
        assert_eq!(f.winner(), Some(Winner::You));
        let want = format!("You win: {a} sheep in 1 pen to the farmer's {b} sheep in 1 pen.");
        assert_eq!(result_line(&f), Some(want));
    }

    #[test]
    fn more_sheep_wins_for_the_farmer() {
        let f = split_2x1(seed_where(2, |s| s[0] < s[1]));
        let (a, b) = (f.sheep(0), f.sheep(1));
        assert_eq!(f.winner(), Some(Winner::Farmer));
        let want = format!("The farmer wins: {b} sheep in 1 pen to your {a} sheep in 1 pen.");
        assert_eq!(result_line(&f), Some(want));
    }

    #[test]
    fn equal_sheep_and_equal_pens_is_a_draw() {
        let f = split_2x1(seed_where(2, |s| s[0] == s[1]));
        assert_eq!(f.winner(), Some(Winner::Neither));
        assert_eq!(
            result_line(&f),
            Some(format!("Draw: {} sheep in 1 pen each.", f.sheep(0)))
        );
    }

    #[test]
    fn a_tie_in_sheep_goes_to_more_pens() {
        // 3x1: you close a1 and b1, the farmer c1, and a1 + b1 hold as many sheep as c1.
        let seed = seed_where(3, |s| s[0] + s[1] == s[2]);
        let moves = [
            "b1-b2", "c1-c2", "a1-b1", "b1-c1", "b2-c2", "c1-d1", "a1-a2", "a2-b2", "c2-d2",
            "d1-d2",
        ];
        let f = play(seed, size(3, 1), &moves);
        let owners: Vec<_> = (0..3).map(|p| f.owner(p)).collect();
        assert_eq!(
            owners,
            [Some(Side::You), Some(Side::You), Some(Side::Farmer)]
        );
        let c = f.sheep(2);
        assert_eq!(f.winner(), Some(Winner::You));
        let want = format!("You win: {c} sheep in 2 pens to the farmer's {c} sheep in 1 pen.");
        assert_eq!(result_line(&f), Some(want));
    }

    #[test]
    fn before_the_end_there_is_no_result_but_a_status() {
        let f = play(1, size(2, 1), &["a1-b1"]);
        assert_eq!(result_line(&f), None);
        assert_eq!(
            status_line(&f),
            "The farmer's move. You have 0 sheep in 0 pens, the farmer 0 sheep in 0 pens."
        );
    }
}
