//! Shrinking a failing puzzle to a small one that still fails the same way.
//!
//! The caller says what "still fails" means with a predicate (in `beast check`: the candidate
//! gets the same verdict again). Shrinking is greedy and repeats its passes until none makes
//! progress, in this order:
//!
//! 1. drop moves from the end (halves, then quarters, down to single moves), then single
//!    moves anywhere;
//! 2. remove beasts;
//! 3. turn movable walls into spaces;
//! 4. crop interior rows and columns, which keeps the border solid.
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
}

/// Shrinks `puzzle`, which fails, to a smaller puzzle for which `still_fails` is true, asking
/// `still_fails` at most `budget` times. A predicate may also return `false` to stop early
/// (for example past a deadline): shrinking then ends with the smallest puzzle so far.
pub fn shrink(
    puzzle: &Puzzle,
    budget: usize,
    mut still_fails: impl FnMut(&Puzzle) -> bool,
) -> Shrunk {
    let mut s = Shrinker {
        best: puzzle.clone(),
        tries: 0,
        budget,
        test: &mut still_fails,
    };
    loop {
        let before = (size(&s.best), s.tries);
        s.drop_moves();
        s.remove_cells(Cell::Beast);
        s.remove_cells(Cell::Movable);
        s.crop();
        if size(&s.best) == before.0 || s.tries >= s.budget {
            break;
        }
    }
    Shrunk {
        puzzle: s.best,
        tries: s.tries,
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

struct Shrinker<'a, F: FnMut(&Puzzle) -> bool> {
    best: Puzzle,
    tries: usize,
    budget: usize,
    test: &'a mut F,
}

impl<F: FnMut(&Puzzle) -> bool> Shrinker<'_, F> {
    /// Keeps `candidate` if it still fails.
    fn try_keep(&mut self, candidate: Puzzle) -> bool {
        if self.tries >= self.budget {
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
        while chunk > 0 {
            let moves = self.best.moves();
            if moves.len() >= chunk && self.try_moves(moves[..moves.len() - chunk].to_vec()) {
                continue;
            }
            chunk /= 2;
        }
        let mut i = self.best.moves().len();
        while i > 0 {
            i -= 1;
            let mut moves = self.best.moves().to_vec();
            moves.remove(i);
            self.try_moves(moves);
        }
    }

    /// Turns each `cell` into a space, one at a time, from the bottom right.
    fn remove_cells(&mut self, cell: Cell) {
        let spots: Vec<Pos> = self
            .best
            .map()
            .iter()
            .filter(|(_, c)| **c == cell)
            .map(|(p, _)| p)
            .collect();
        for pos in spots.into_iter().rev() {
            let mut map = self.best.map().clone();
            map[pos] = Cell::Space;
            if let Ok(candidate) = Puzzle::new(map, self.best.moves().to_vec()) {
                self.try_keep(candidate);
            }
        }
    }

    /// Removes interior rows, then interior columns, one at a time.
    fn crop(&mut self) {
        let mut row = self.best.map().rows().saturating_sub(2);
        while row >= 1 && self.best.map().rows() > 3 {
            if let Some(c) = without_row(self.best.map(), row)
                .and_then(|m| Puzzle::new(m, self.best.moves().to_vec()).ok())
            {
                self.try_keep(c);
            }
            row -= 1;
        }
        let mut col = self.best.map().cols().saturating_sub(2);
        while col >= 1 && self.best.map().cols() > 3 {
            if let Some(c) = without_col(self.best.map(), col)
                .and_then(|m| Puzzle::new(m, self.best.moves().to_vec()).ok())
            {
                self.try_keep(c);
            }
            col -= 1;
        }
    }
}

/// The map without row `row`, or `None` if that row holds the player.
fn without_row(map: &Grid<Cell>, row: usize) -> Option<Grid<Cell>> {
    if map.row(row).contains(&Cell::Player) {
        return None;
    }
    let cells = (0..map.rows())
        .filter(|&r| r != row)
        .flat_map(|r| map.row(r).iter().copied())
        .collect();
    Grid::from_cells(map.cols(), map.rows() - 1, cells)
}

/// The map without column `col`, or `None` if that column holds the player.
fn without_col(map: &Grid<Cell>, col: usize) -> Option<Grid<Cell>> {
    if (0..map.rows()).any(|r| map[Pos::new(r, col)] == Cell::Player) {
        return None;
    }
    let cells = map
        .iter()
        .filter(|(p, _)| p.col != col)
        .map(|(_, c)| *c)
        .collect();
    Grid::from_cells(map.cols() - 1, map.rows(), cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::{Ending, Rules, judge};
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
            judge(c, Rules::default()).is_ok_and(|o| o.ending == Ending::Eaten)
        });
        assert!(seen > 10);
    }

    #[test]
    fn a_crush_keeps_what_the_crush_needs() {
        let p = Puzzle::parse("8 5\n########\n#  ~   #\n#O~H~  #\n# ~ H  #\n########\nRWWW\n")
            .expect("valid");
        let crushes = |c: &Puzzle| judge(c, Rules::default()).is_ok_and(|o| o.score >= 2);
        assert!(crushes(&p));
        let s = shrink(&p, DEFAULT_BUDGET, crushes);
        assert!(crushes(&s.puzzle));
        assert_eq!(s.puzzle.moves().len(), 1);
        assert!(s.puzzle.map().cols() <= 5, "{}", s.puzzle);
    }

    #[test]
    fn the_budget_bounds_the_tries() {
        let p = generate(1, &GenOptions::default()).expect("valid");
        let s = shrink(&p, 7, |_| false);
        assert_eq!(s.tries, 7);
        assert_eq!(s.puzzle, p);
    }
}
