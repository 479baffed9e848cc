//! Shrinking a failing puzzle to a small one that still fails the same way.
//!
//! The caller says what "still fails" means with a predicate (in `beast check`: the candidate
//! gets the same verdict again). Shrinking is greedy and repeats its passes until none makes
//! progress, in this order:
//!
//! 1. drop moves from the end (halves, then quarters, down to single moves), then runs of
//!    moves anywhere (longest first, down to single moves, then pairs again);
//! 2. crop blocks of interior rows and columns, halves first, and clear every movable or
//!    solid interior wall at once: large cuts that cost few asks (a crash shrinks fast);
//! 3. remove beasts;
//! 4. turn movable walls into spaces, then solid walls inside the border;
//! 5. crop interior rows and columns, which keeps the border solid: one at a time; and when
//!    a whole round makes no progress, two adjacent ones, or a row with a column.
//!
//! Every candidate is a valid [`Puzzle`]; the predicate never sees anything else.

use crate::beast::{Cell, Move, Puzzle};
use crate::grid::{Grid, Pos};

/// The most times [`shrink`] asks the predicate by default; each ask usually runs a process.
pub const DEFAULT_BUDGET: usize = 2_000;

/// What shrinking did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The smallest failing puzzle found (the original if nothing smaller fails).
    pub puzzle: Puzzle,
    /// How many times the predicate was asked.
    pub tries: usize,
    /// True if the budget of asks or `keep_going` ended it before it was done.
    pub stopped: bool,
}

/// Shrinks `puzzle`, which fails, to a smaller puzzle for which `still_fails` is true, asking
/// `still_fails` at most `budget` times.
pub fn shrink(puzzle: &Puzzle, budget: usize, still_fails: impl FnMut(&Puzzle) -> bool) -> Shrunk {
    shrink_within(puzzle, budget, || true, still_fails)
}

/// [`shrink`] that also stops, with the smallest puzzle so far, as soon as `keep_going`
/// says `false` (a deadline): it is asked before each candidate is made, so a stopped
/// shrink does no more work even on a huge puzzle.
pub fn shrink_within(
    puzzle: &Puzzle,
    budget: usize,
    mut keep_going: impl FnMut() -> bool,
    mut still_fails: impl FnMut(&Puzzle) -> bool,
) -> Shrunk {
    let mut s = Shrinker {
        best: puzzle.clone(),
        tries: 0,
        budget,
        stopped: false,
        keep_going: &mut keep_going,
        test: &mut still_fails,
    };
    while !s.stopped() {
        let before = size(&s.best);
        s.drop_moves();
        s.crop_blocks(Axis::Row);
        s.crop_blocks(Axis::Col);
        s.clear_all(Cell::Movable);
        s.clear_all(Cell::Wall);
        s.remove_cells(Cell::Beast);
        s.remove_cells(Cell::Movable);
        s.remove_cells(Cell::Wall);
        s.crop();
        if size(&s.best) == before {
            // Stuck: the costlier crops, then stop unless they helped.
            s.crop_pairs();
            if size(&s.best) == before {
                break;
            }
        }
    }
    Shrunk {
        puzzle: s.best,
        tries: s.tries,
        stopped: s.stopped,
    }
}

/// A measure that strictly decreases with every accepted step.
fn size(p: &Puzzle) -> (usize, usize, usize) {
    let busy = p
        .map()
        .cells()
        .iter()
        .filter(|c| matches!(c, Cell::Beast | Cell::Movable))
        .count();
    (p.map().cols() * p.map().rows(), p.moves().len(), busy)
}

struct Shrinker<'a, K: FnMut() -> bool, F: FnMut(&Puzzle) -> bool> {
    best: Puzzle,
    tries: usize,
    budget: usize,
    stopped: bool,
    keep_going: &'a mut K,
    test: &'a mut F,
}

impl<K: FnMut() -> bool, F: FnMut(&Puzzle) -> bool> Shrinker<'_, K, F> {
    /// True once the budget is spent or `keep_going` said no; asked before each candidate.
    fn stopped(&mut self) -> bool {
        if !self.stopped && (self.tries >= self.budget || !(self.keep_going)()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Keeps `candidate` if it still fails.
    fn try_keep(&mut self, candidate: Puzzle) -> bool {
        if self.stopped() {
            return false;
        }
        self.tries += 1;
        if (self.test)(&candidate) {
            self.best = candidate;
            true
        } else {
            false
        }
    }

    fn try_moves(&mut self, moves: Vec<Move>) -> bool {
        let candidate = self.best.with_moves(moves);
        self.try_keep(candidate)
    }

    fn drop_moves(&mut self) {
        let mut chunk = self.best.moves().len().div_ceil(2);
        while chunk > 0 && !self.stopped() {
            let moves = self.best.moves();
            if moves.len() >= chunk && self.try_moves(moves[..moves.len() - chunk].to_vec()) {
                continue;
            }
            chunk /= 2;
        }
        // Then runs of moves anywhere, longest first, down to single moves; pairs again at
        // the end since they keep the beasts' even turns in step.
        let mut width = self.best.moves().len() / 2;
        while width > 0 && !self.stopped() {
            self.drop_runs(width);
            width /= 2;
        }
        self.drop_runs(2);
    }

    /// Tries removing each run of `width` moves, from the last.
    fn drop_runs(&mut self, width: usize) {
        if width == 0 {
            return;
        }
        let mut start = (self.best.moves().len() + 1).saturating_sub(width);
        while start > 0 && !self.stopped() {
            start -= 1;
            let moves = self.best.moves();
            if start + width > moves.len() {
                continue;
            }
            let mut kept = moves[..start].to_vec();
            kept.extend_from_slice(&moves[start + width..]);
            self.try_moves(kept);
        }
    }

    /// Removes blocks of interior lines along `axis`: halves of the interior first, then
    /// quarters, down to blocks of two.
    fn crop_blocks(&mut self, axis: Axis) {
        let mut span = axis.len(self.best.map()).saturating_sub(2) / 2;
        while span >= 2 && !self.stopped() {
            let mut at = axis.len(self.best.map()).saturating_sub(1 + span);
            while at >= 1 && !self.stopped() {
                let map = cut(self.best.map(), axis, at, span);
                self.try_map(map);
                at = at.saturating_sub(span);
            }
            span /= 2;
        }
    }

    /// Turns every interior `cell` into a space at once.
    fn clear_all(&mut self, cell: Cell) {
        let (rows, cols) = (self.best.map().rows(), self.best.map().cols());
        let mut map = self.best.map().clone();
        let mut changed = false;
        for (p, c) in self.best.map().iter() {
            if *c == cell && p.row > 0 && p.col > 0 && p.row + 1 < rows && p.col + 1 < cols {
                map[p] = Cell::Space;
                changed = true;
            }
        }
        if changed {
            self.try_map(Some(map));
        }
    }

    /// Turns each interior `cell` into a space, one at a time, from the bottom right.
    fn remove_cells(&mut self, cell: Cell) {
        let (rows, cols) = (self.best.map().rows(), self.best.map().cols());
        let spots: Vec<Pos> = self
            .best
            .map()
            .iter()
            .filter(|(p, c)| {
                **c == cell && p.row > 0 && p.col > 0 && p.row + 1 < rows && p.col + 1 < cols
            })
            .map(|(p, _)| p)
            .collect();
        for pos in spots.into_iter().rev() {
            if self.stopped() {
                return;
            }
            let mut map = self.best.map().clone();
            map[pos] = Cell::Space;
            if let Ok(candidate) = Puzzle::new(map, self.best.moves().to_vec()) {
                self.try_keep(candidate);
            }
        }
    }

    /// Removes interior rows, then interior columns, one at a time.
    fn crop(&mut self) {
        self.crop_lines(Axis::Row, 1);
        self.crop_lines(Axis::Col, 1);
    }

    /// Removes two adjacent rows or columns at a time, then a row with a column: these keep
    /// more of the geometry (the beasts' parity, diagonal distances) than single lines.
    fn crop_pairs(&mut self) {
        self.crop_lines(Axis::Row, 2);
        self.crop_lines(Axis::Col, 2);
        let mut row = self.best.map().rows().saturating_sub(2);
        while row >= 1 && !self.stopped() {
            let mut col = self.best.map().cols().saturating_sub(2);
            while col >= 1 && row + 1 < self.best.map().rows() && !self.stopped() {
                let map = cut(self.best.map(), Axis::Row, row, 1)
                    .and_then(|m| cut(&m, Axis::Col, col, 1));
                self.try_map(map);
                col -= 1;
            }
            row -= 1;
        }
    }

    /// Tries removing `span` adjacent interior lines along `axis` at each place, from the
    /// last.
    fn crop_lines(&mut self, axis: Axis, span: usize) {
        let mut at = axis.len(self.best.map()).saturating_sub(1 + span);
        while at >= 1 && !self.stopped() {
            let map = cut(self.best.map(), axis, at, span);
            self.try_map(map);
            at -= 1;
        }
    }

    fn try_map(&mut self, map: Option<Grid<Cell>>) {
        if let Some(c) = map.and_then(|m| Puzzle::new(m, self.best.moves().to_vec()).ok()) {
            self.try_keep(c);
        }
    }
}

/// Rows or columns.
#[derive(Clone, Copy)]
enum Axis {
    Row,
    Col,
}

impl Axis {
    fn len(self, map: &Grid<Cell>) -> usize {
        match self {
            Axis::Row => map.rows(),
            Axis::Col => map.cols(),
        }
    }

    fn of(self, pos: Pos) -> usize {
        match self {
            Axis::Row => pos.row,
            Axis::Col => pos.col,
        }
    }
}

/// The map without the `span` interior lines from `at` along `axis`, or `None` if they are
/// not all interior, would leave fewer than 3 lines, or hold the player.
fn cut(map: &Grid<Cell>, axis: Axis, at: usize, span: usize) -> Option<Grid<Cell>> {
    let len = axis.len(map);
    if at == 0 || at + span >= len || len - span < 3 {
        return None;
    }
    let gone = |p: Pos| (at..at + span).contains(&axis.of(p));
    if map.iter().any(|(p, c)| gone(p) && *c == Cell::Player) {
        return None;
    }
    let cells = map
        .iter()
        .filter(|(p, _)| !gone(*p))
        .map(|(_, c)| *c)
        .collect();
    let (cols, rows) = match axis {
        Axis::Row => (map.cols(), map.rows() - span),
        Axis::Col => (map.cols() - span, map.rows()),
    };
    Grid::from_cells(cols, rows, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::{Ending, Rules, play_out};
    use crate::judge::generate::{GenOptions, generate};

    fn count(p: &Puzzle, cell: Cell) -> usize {
        p.map().cells().iter().filter(|&&c| c == cell).count()
    }

    #[test]
    fn moves_are_dropped_from_the_end_and_one_at_a_time() {
        let p = Puzzle::parse("5 3\n#####\n#O~H#\n#####\nWWRWWLLW\n").expect("valid");
        // Fails while an R remains.
        let s = shrink(&p, DEFAULT_BUDGET, |c| {
            c.moves().contains(&Move::Step(crate::grid::Dir::Right))
        });
        assert_eq!(s.puzzle.moves(), &[Move::Step(crate::grid::Dir::Right)]);
    }

    #[test]
    fn beasts_walls_rows_and_columns_go_when_not_needed() {
        let p = generate(5, &GenOptions::default()).expect("valid");
        // "Fails" whenever there is at least one beast: shrinks to a 4x4 map at most with one.
        let s = shrink(&p, DEFAULT_BUDGET, |c| count(c, Cell::Beast) >= 1);
        assert_eq!(count(&s.puzzle, Cell::Beast), 1);
        assert_eq!(count(&s.puzzle, Cell::Movable), 0);
        assert!(s.puzzle.moves().is_empty());
        assert!(
            s.puzzle.map().cols() * s.puzzle.map().rows() <= 16,
            "{}",
            s.puzzle
        );
    }

    #[test]
    fn every_candidate_is_a_valid_puzzle_with_a_solid_border() {
        let p = generate(9, &GenOptions::default()).expect("valid");
        let mut seen = 0;
        shrink(&p, DEFAULT_BUDGET, |c| {
            seen += 1;
            let text = c.to_string();
            assert_eq!(Puzzle::parse(&text).as_ref(), Ok(c), "{text}");
            play_out(c, Rules::default()).is_ok_and(|o| o.ending == Ending::Eaten)
        });
        assert!(seen > 10);
    }

    #[test]
    fn a_crush_keeps_what_the_crush_needs() {
        let p = Puzzle::parse("8 5\n########\n#  ~   #\n#O~H~  #\n# ~ H  #\n########\nRWWW\n")
            .expect("valid");
        let crushes = |c: &Puzzle| play_out(c, Rules::default()).is_ok_and(|o| o.score >= 2);
        assert!(crushes(&p));
        let s = shrink(&p, DEFAULT_BUDGET, crushes);
        assert!(crushes(&s.puzzle));
        assert_eq!(s.puzzle.moves().len(), 1);
        assert!(s.puzzle.map().cols() <= 5, "{}", s.puzzle);
    }

    #[test]
    fn a_stopped_shrink_makes_no_more_candidates() {
        let p = generate(3, &GenOptions::default()).expect("valid");
        let mut asked = 0;
        let mut made = 0;
        let s = shrink_within(
            &p,
            DEFAULT_BUDGET,
            || {
                asked += 1;
                asked < 5
            },
            |_| {
                made += 1;
                true
            },
        );
        assert!(s.stopped);
        assert!(made < 5, "{made} candidates after the stop");
    }

    #[test]
    fn the_budget_bounds_the_tries() {
        let p = generate(1, &GenOptions::default()).expect("valid");
        let s = shrink(&p, 7, |_| false);
        assert_eq!(s.tries, 7);
        assert_eq!(s.puzzle, p);
    }
}
