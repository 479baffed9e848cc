//! The player's region while he waits: the cells reachable from his cell by king steps
//! through cells that are not walls (spaces, beasts, the player), as beasts travel while no
//! wall moves. A beast outside it can never reach him.
//!
//! The fill works on one bit a cell, 64 cells to a word, so that finding the ends of a run
//! of open cells and the runs beside it costs a few word operations, not one a cell.

use super::Cell;
use crate::grid::{Grid, Pos};

/// The player's region of a map, for the cells beasts can stand on.
pub(crate) struct Region {
    /// One bit a cell by flat index: set for an open cell outside the region. The fill
    /// starts with every open cell set and clears each run it reaches.
    unreached: Vec<u64>,
    /// How many cells the region holds.
    cells: u64,
}

impl Region {
    /// The region of the player at `player` on `map`. The solid border stops every run
    /// and keeps the rows above and below a run on the map.
    ///
    /// A scanline fill over runs of open cells along a row: the player's run is reached
    /// first, and each run reached reaches the runs beside it in the rows above and below
    /// (one more cell at each end, for the diagonals). A run is reached once, when it is
    /// found, and waits on a stack until its neighbours are looked at.
    pub(crate) fn of(map: &Grid<Cell>, player: Pos) -> Region {
        let cols = map.cols();
        let mut region = Region {
            unreached: open_bits(map.cells()),
            cells: 0,
        };
        let seed = map.index(player);
        let mut runs = vec![region.reach(region.first_of(seed), seed)];
        while let Some((first, last)) = runs.pop() {
            // Rows 0 and `rows - 1` are solid wall, so a run has a row on each side.
            region.reach_runs_within(first - cols - 1, last - cols + 1, &mut runs);
            region.reach_runs_within(first + cols - 1, last + cols + 1, &mut runs);
        }
        region
    }

    /// How many cells the region holds.
    pub(crate) fn len(&self) -> u64 {
        self.cells
    }

    /// True if the open cell at flat index `i` (a beast's, say) is in the region.
    pub(crate) fn holds(&self, i: usize) -> bool {
        self.unreached[i / 64] >> (i % 64) & 1 == 0
    }

    /// Reaches every run with an unreached open cell within `lo..=hi` and pushes it on
    /// `runs`. Only a run found at `lo` may begin before it: any other begins where the
    /// cell before it is closed or reached.
    #[inline(always)]
    fn reach_runs_within(&mut self, lo: usize, hi: usize, runs: &mut Vec<(usize, usize)>) {
        let mut i = lo;
        while i <= hi {
            let ahead = self.unreached[i / 64] >> (i % 64);
            if ahead == 0 {
                i = (i / 64 + 1) * 64;
                continue;
            }
            let start = i + ahead.trailing_zeros() as usize;
            if start > hi {
                break;
            }
            let first = if start == lo {
                self.first_of(start)
            } else {
                start
            };
            let (_, last) = self.reach(first, start);
            runs.push((first, last));
            // The cell after a run is closed.
            i = last + 2;
        }
    }

    /// The first cell of the run of unreached open cells through `seed`; the border ends
    /// the search.
    fn first_of(&self, seed: usize) -> usize {
        let (mut w, bit) = (seed / 64, seed % 64);
        let mut closed = !self.unreached[w] & ((1 << bit) - 1);
        while closed == 0 {
            w -= 1;
            closed = !self.unreached[w];
        }
        w * 64 + (64 - closed.leading_zeros() as usize)
    }

    /// Reaches the run of unreached open cells from `first` (its first cell) through
    /// `seed`, and returns its first and last cells.
    #[inline(always)]
    fn reach(&mut self, first: usize, seed: usize) -> (usize, usize) {
        let (mut w, bit) = (seed / 64, seed % 64);
        let mut closed = !self.unreached[w] & ((u64::MAX << bit) << 1);
        while closed == 0 {
            w += 1;
            closed = !self.unreached[w];
        }
        let last = w * 64 + closed.trailing_zeros() as usize - 1;
        self.cells += (last - first + 1) as u64;
        let (a, b) = (first / 64, last / 64);
        let low = u64::MAX << (first % 64);
        let high = u64::MAX >> (63 - last % 64);
        if a == b {
            self.unreached[a] &= !(low & high);
        } else {
            self.unreached[a] &= !low;
            for word in &mut self.unreached[a + 1..b] {
                *word = 0;
            }
            self.unreached[b] &= !high;
        }
        (first, last)
    }
}

/// One bit a cell: set where the cell is open (not a wall), 64 cells to a word.
fn open_bits(cells: &[Cell]) -> Vec<u64> {
    let mut words = Vec::with_capacity(cells.len().div_ceil(64));
    let mut chunks = cells.chunks_exact(64);
    for chunk in &mut chunks {
        let mut word = 0;
        for (k, eight) in chunk.chunks_exact(8).enumerate() {
            word |= open_eight(eight) << (8 * k);
        }
        words.push(word);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let word = rest
            .iter()
            .enumerate()
            .fold(0, |m, (j, &c)| m | u64::from(is_open(c)) << j);
        words.push(word);
    }
    words
}

/// Whether a cell is open: not a solid or movable wall.
fn is_open(c: Cell) -> bool {
    !matches!(c, Cell::Wall | Cell::Movable)
}

/// The open bits of eight cells, the first in bit 0. With the cells as the bytes of a word,
/// a cell is a wall when its bits 0 and 1 differ and bit 2 is clear (`Wall` is 1,
/// `Movable` 2; `Space` 0, `Beast` 3, `Player` 4 are open); a multiply gathers the eight
/// bit-0s into one byte.
fn open_eight(eight: &[Cell]) -> u64 {
    const LOW: u64 = 0x0101_0101_0101_0101;
    let x = u64::from_le_bytes(std::array::from_fn(|j| eight[j] as u8));
    let open = !((x ^ x >> 1) & !(x >> 2)) & LOW;
    open.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::Puzzle;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// The eight king steps.
    const NEIGHBOURS: [(isize, isize); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    /// The region by the definition: a breadth-first search by king steps through cells
    /// that are not walls.
    fn region_by_search(map: &Grid<Cell>, player: Pos) -> Vec<usize> {
        let mut seen = vec![false; map.cells().len()];
        let mut queue = std::collections::VecDeque::from([player]);
        seen[map.index(player)] = true;
        while let Some(p) = queue.pop_front() {
            for (dr, dc) in NEIGHBOURS {
                let Some(n) = p.offset(dr, dc).filter(|&n| map.contains(n)) else {
                    continue;
                };
                if !matches!(map[n], Cell::Wall | Cell::Movable) && !seen[map.index(n)] {
                    seen[map.index(n)] = true;
                    queue.push_back(n);
                }
            }
        }
        (0..seen.len()).filter(|&i| seen[i]).collect()
    }

    #[test]
    fn the_scanline_region_is_the_region_of_king_steps_through_open_cells() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for case in 0..500 {
            // Every fifth map is wider than two words, with fewer walls: runs then cross
            // word boundaries.
            let wide = case % 5 == 0;
            let (cols, rows) = (3 + case % 17 + usize::from(wide) * 140, 3 + case % 11);
            let walls = if wide { 2 } else { 5 };
            let mut text = format!("{cols} {rows}\n");
            let player = (1 + case % (rows - 2), 1 + case % (cols - 2));
            for r in 0..rows {
                for c in 0..cols {
                    let border = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
                    let roll = rng.next_u32() % 10;
                    text.push(match roll {
                        _ if border => '#',
                        _ if (r, c) == player => 'O',
                        _ if roll + 1 < walls => '~',
                        _ if roll + 1 == walls => '#',
                        5 => 'H',
                        _ => ' ',
                    });
                }
                text.push('\n');
            }
            let puzzle = Puzzle::parse(&text).expect("valid");
            let map = puzzle.map();
            let player = map.pos(
                map.cells()
                    .iter()
                    .position(|&c| c == Cell::Player)
                    .expect("O"),
            );
            let region = Region::of(map, player);
            let cells: Vec<usize> = (0..map.cells().len())
                .filter(|&i| is_open(map.cells()[i]) && region.holds(i))
                .collect();
            assert_eq!(region.len(), cells.len() as u64, "{text}");
            assert_eq!(cells, region_by_search(map, player), "{text}");
        }
    }

    const CELLS: [Cell; 5] = [
        Cell::Space,
        Cell::Wall,
        Cell::Movable,
        Cell::Beast,
        Cell::Player,
    ];

    #[test]
    fn eight_cells_at_once_agree_with_one_at_a_time() {
        // Every row of eight cells there is: 5^8 of them.
        for n in 0..5usize.pow(8) {
            let eight: Vec<Cell> = (0..8).map(|j| CELLS[n / 5usize.pow(j) % 5]).collect();
            let one_by_one = eight
                .iter()
                .enumerate()
                .fold(0, |m, (j, &c)| m | u64::from(is_open(c)) << j);
            assert_eq!(open_eight(&eight), one_by_one, "{eight:?}");
        }
    }

    #[test]
    fn open_bits_cover_a_partial_last_word() {
        for len in [1, 63, 64, 65, 130] {
            let cells: Vec<Cell> = (0..len).map(|i| CELLS[i * 7 % 5]).collect();
            let words = open_bits(&cells);
            assert_eq!(words.len(), len.div_ceil(64));
            for (i, &c) in cells.iter().enumerate() {
                assert_eq!(words[i / 64] >> (i % 64) & 1 == 1, is_open(c), "cell {i}");
            }
            if len % 64 != 0 {
                assert_eq!(words[len / 64] >> (len % 64), 0, "bits past the end");
            }
        }
    }
}
