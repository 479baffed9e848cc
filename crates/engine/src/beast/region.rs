//! The player's region while he waits: the cells reachable from his cell by king steps
//! through cells that are not walls (spaces, beasts, the player), as beasts travel while no
//! wall moves. A beast outside it can never reach him.
//!
//! The fill works on one bit a cell, 64 cells to a word. It first sweeps the whole map down
//! and up, a word at a time, which settles an open map in a few sweeps; a map whose paths
//! turn back many times is left to a scanline fill over runs of open cells, which finds the
//! ends of a run and the runs beside it with a few word operations, not one a cell.

use super::Cell;
use crate::grid::{Grid, Pos};

/// The player's region of a map, for the cells beasts can stand on.
pub(crate) struct Region {
    /// One bit a cell by flat index: set for a cell of the region.
    reached: Vec<u64>,
    /// How many cells the region holds.
    cells: u64,
}

/// The state of [`Region::by_runs`].
struct RunFill {
    /// One bit a cell by flat index: set for an open cell not reached yet. The fill starts
    /// with every open cell set and clears each run it reaches.
    unreached: Vec<u64>,
    /// How many cells have been reached.
    cells: u64,
}

/// How many sweeps [`Region::by_sweeps`] may take before the run fill takes over.
const SWEEPS: usize = 16;

impl Region {
    /// The region of the player at `player` on `map`: by sweeps when a few settle it, as
    /// on open maps, else by runs.
    pub(crate) fn of(map: &Grid<Cell>, player: Pos) -> Region {
        let seed = map.index(player);
        match Region::by_sweeps(map.cells(), map.cols(), seed) {
            Some(region) => region,
            None => Region::by_runs(map.cells(), map.cols(), seed),
        }
    }

    /// The region of the open cell `seed` of `cells`, a map `cols` wide, by sweeps over
    /// the whole map a word at a time, down and up in turn, or `None` if [`SWEEPS`] sweeps
    /// do not settle it. A word takes in the reached cells beside its
    /// cells (above, below, diagonal, and the cells just before and after it) and fills
    /// the runs of open cells they touch. A path through the map that turns back up or down
    /// many times needs a sweep a turn.
    ///
    /// The open cells of a word are worked out from `cells` each time they are needed:
    /// keeping them would cost another bit a cell.
    fn by_sweeps(cells: &[Cell], cols: usize, seed: usize) -> Option<Region> {
        // `reached` has `pad` clear words before and after the map's, so that the rows
        // above and below every word of the map, and the words on either side, are in it.
        let pad = cols / 64 + 3;
        let words = cells.len().div_ceil(64);
        let mut reached = vec![0; pad + words + pad];
        // Every word of `reached` holds whole runs of its open cells, so that a word whose
        // neighbours add nothing is left as it is.
        let (w, bit) = (seed / 64, 1 << (seed % 64));
        let open = open_word(cells, w);
        reached[pad + w] = fill_up(bit, open) | fill_down(bit, open);
        // The row above a word's cells starts `cols` cells before it, so `up` words before
        // it and `shift` bits into that word; the row below, `down` words after it and
        // `64 - shift` bits in (or at its start when `cols` is a whole number of words).
        let (up, down, shift) = match cols % 64 {
            0 => (cols / 64, cols / 64, 0),
            r => (cols / 64 + 1, cols / 64, 64 - r),
        };
        let below = (64 - shift) % 64;
        for sweep in 0..SWEEPS {
            let mut changed = false;
            for step in 0..words {
                let w = if sweep % 2 == 0 {
                    step
                } else {
                    words - 1 - step
                };
                let near = reached[pad + w]
                    | reached[pad + w - 1] >> 63
                    | reached[pad + w + 1] << 63
                    | around(&reached, pad + w - up, shift)
                    | around(&reached, pad + w + down, below);
                // Nothing beside the word's reached cells: nothing to add, and its open
                // cells need not be worked out.
                if near & !reached[pad + w] == 0 {
                    continue;
                }
                let open = open_word(cells, w);
                let seeds = near & open;
                if seeds != reached[pad + w] {
                    reached[pad + w] = fill_up(seeds, open) | fill_down(seeds, open);
                    changed = true;
                }
            }
            if !changed {
                let size = reached.iter().map(|w| u64::from(w.count_ones())).sum();
                reached.truncate(pad + words);
                reached.drain(..pad);
                return Some(Region {
                    reached,
                    cells: size,
                });
            }
        }
        None
    }

    /// The region of the open cell `seed` of `cells`, a map `cols` wide, by a scanline fill over runs of open cells along a row: the seed's run is reached first,
    /// and each run reached reaches the runs beside it in the rows above and below (one
    /// more cell at each end, for the diagonals). A run is reached once, when it is found,
    /// and waits on a stack until its neighbours are looked at. The solid border stops
    /// every run and keeps the rows above and below a run on the map.
    fn by_runs(cells: &[Cell], cols: usize, seed: usize) -> Region {
        let mut fill = RunFill {
            unreached: open_bits(cells),
            cells: 0,
        };
        let mut runs = vec![fill.reach(fill.first_of(seed), seed)];
        while let Some((first, last)) = runs.pop() {
            // Rows 0 and `rows - 1` are solid wall, so a run has a row on each side.
            fill.reach_runs_within(first - cols - 1, last - cols + 1, &mut runs);
            fill.reach_runs_within(first + cols - 1, last + cols + 1, &mut runs);
        }
        let mut reached = fill.unreached;
        for (w, word) in reached.iter_mut().enumerate() {
            *word = open_word(cells, w) & !*word;
        }
        Region {
            reached,
            cells: fill.cells,
        }
    }

    /// How many cells the region holds.
    pub(crate) fn len(&self) -> u64 {
        self.cells
    }

    /// True if the cell at flat index `i` is in the region.
    pub(crate) fn holds(&self, i: usize) -> bool {
        self.reached[i / 64] >> (i % 64) & 1 == 1
    }
}

impl RunFill {
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
    (0..cells.len().div_ceil(64))
        .map(|w| open_word(cells, w))
        .collect()
}

/// Word `w` of [`open_bits`]: the open bits of cells `64 * w` to `64 * w + 63`, bits past
/// the last cell clear.
fn open_word(cells: &[Cell], w: usize) -> u64 {
    let start = (w * 64).min(cells.len());
    match cells[start..].first_chunk::<64>() {
        Some(chunk) => chunk
            .chunks_exact(8)
            .enumerate()
            .fold(0, |word, (k, eight)| word | open_eight(eight) << (8 * k)),
        None => cells[start..]
            .iter()
            .enumerate()
            .fold(0, |m, (j, &c)| m | u64::from(is_open(c)) << j),
    }
}

/// The 64 cells of `words` from bit `shift` of word `w` on, each with the cells just
/// before and after it: bit `j` is set if any of the bits `at + j - 1`, `at + j` and
/// `at + j + 1` is, for `at = 64 * w + shift`. Words `w - 1` to `w + 1` must be in `words`.
fn around(words: &[u64], w: usize, shift: usize) -> u64 {
    let pair = u128::from(words[w]) | u128::from(words[w + 1]) << 64;
    let before = u128::from(words[w - 1] >> 63);
    let cells = (pair >> shift) as u64;
    let after = (pair >> (shift + 1)) as u64;
    let before = ((pair << 1 | before) >> shift) as u64;
    before | cells | after
}

/// The cells of `open` from each cell of `seeds` (a part of `open`) up to the end of its
/// run toward the higher bits. Adding a seed to its run carries through the run's cells
/// above it and clears them; a seed above another in the same run is set again by the
/// carry, hence the final `| seeds`.
fn fill_up(seeds: u64, open: u64) -> u64 {
    open & !open.wrapping_add(seeds) | seeds
}

/// The cells of `open` from each cell of `seeds` (a part of `open`) down to the start of
/// its run toward the lower bits, by doubling steps: after the step of `n`, every seed has
/// spread `2n - 1` cells while the cells passed over are open.
fn fill_down(mut seeds: u64, mut open: u64) -> u64 {
    for n in [1, 2, 4, 8, 16, 32] {
        seeds |= open & seeds >> n;
        open &= open >> n;
    }
    seeds
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

    /// The region by the definition: a breadth-first search by king steps through cells
    /// that are not walls.
    fn region_by_search(map: &Grid<Cell>, player: Pos) -> Vec<usize> {
        let mut seen = vec![false; map.cells().len()];
        let mut queue = std::collections::VecDeque::from([player]);
        seen[map.index(player)] = true;
        while let Some(p) = queue.pop_front() {
            for (dr, dc) in crate::grid::AROUND {
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

    /// Random maps with a solid border, mostly small; every fifth is wider than two words
    /// with fewer walls, so that runs cross word boundaries.
    fn random_maps() -> impl Iterator<Item = String> {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        (0..500).map(move |case| {
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
            text
        })
    }

    /// The map of `text` and its player's cell.
    fn map_of(text: &str) -> (Grid<Cell>, Pos) {
        let (map, _) = Puzzle::parse(text).expect("valid").into_parts();
        let player = map.cells().iter().position(|&c| c == Cell::Player);
        let player = map.pos(player.expect("a player"));
        (map, player)
    }

    /// The open cells `region` holds, checked against its size.
    fn cells_of(region: &Region, map: &Grid<Cell>) -> Vec<usize> {
        let cells: Vec<usize> = (0..map.cells().len())
            .filter(|&i| region.holds(i))
            .collect();
        assert_eq!(region.len(), cells.len() as u64, "the region's size");
        cells
    }

    #[test]
    fn both_fills_find_the_cells_reached_by_king_steps_through_open_cells() {
        let mut settled = 0;
        for text in random_maps() {
            let (map, player) = map_of(&text);
            let want = region_by_search(&map, player);
            let seed = map.index(player);
            let by_runs = Region::by_runs(map.cells(), map.cols(), seed);
            assert_eq!(cells_of(&by_runs, &map), want, "by runs\n{text}");
            if let Some(by_sweeps) = Region::by_sweeps(map.cells(), map.cols(), seed) {
                assert_eq!(cells_of(&by_sweeps, &map), want, "by sweeps\n{text}");
                settled += 1;
            }
            assert_eq!(cells_of(&Region::of(&map, player), &map), want, "{text}");
        }
        assert!(settled > 450, "sweeps settled only {settled} of 500 maps");
    }

    #[test]
    fn a_path_that_turns_back_again_and_again_is_left_to_the_run_fill() {
        // Twenty corridors, joined in turn at the bottom and at the top:
        // #########
        // #O# #   #
        // # # # # # ...
        // #   #   #
        // #########
        let (cols, rows) = (41, 8);
        let mut text = format!("{cols} {rows}\n");
        for r in 0..rows {
            for c in 0..cols {
                let border = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
                let wall = c % 2 == 0 && if c % 4 == 2 { r < rows - 2 } else { r > 1 };
                text.push(match (r, c) {
                    (1, 1) => 'O',
                    _ if border || wall => '#',
                    _ => ' ',
                });
            }
            text.push('\n');
        }
        let (map, player) = map_of(&text);
        let seed = map.index(player);
        assert!(
            Region::by_sweeps(map.cells(), cols, seed).is_none(),
            "{text}"
        );
        let want = region_by_search(&map, player);
        // Twenty corridors of `rows - 2` cells and the nineteen cells that join them.
        assert_eq!(want.len(), 20 * (rows - 2) + 19, "{text}");
        assert_eq!(cells_of(&Region::of(&map, player), &map), want, "{text}");
    }

    #[test]
    fn the_fills_along_a_word_stop_at_the_ends_of_the_runs() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..2000 {
            let open = rng.next_u64() | rng.next_u64();
            let seeds = rng.next_u64() & rng.next_u64() & rng.next_u64() & open;
            let (mut up, mut down) = (seeds, seeds);
            for j in 1..64 {
                up |= (up << 1) & open & (1 << j);
                down |= (down >> 1) & open & (1 << (63 - j));
            }
            assert_eq!(fill_up(seeds, open), up, "{open:064b} {seeds:064b}");
            assert_eq!(fill_down(seeds, open), down, "{open:064b} {seeds:064b}");
        }
    }

    #[test]
    fn around_reads_each_cell_with_its_two_neighbours() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let words: Vec<u64> = (0..4).map(|_| rng.next_u64() & rng.next_u64()).collect();
        let bit = |i: usize| words[i / 64] >> (i % 64) & 1;
        for shift in 0..64 {
            let at = 64 + shift;
            let want = (0..64).fold(0, |m, j| {
                m | (bit(at + j - 1) | bit(at + j) | bit(at + j + 1)) << j
            });
            assert_eq!(around(&words, 1, shift), want, "shift {shift}");
        }
    }

    #[test]
    fn eight_cells_at_once_agree_with_one_at_a_time() {
        // Every row of eight cells there is: 5^8 of them.
        for n in 0..5usize.pow(8) {
            let eight: Vec<Cell> = (0..8).map(|j| Cell::ALL[n / 5usize.pow(j) % 5]).collect();
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
            let cells: Vec<Cell> = (0..len).map(|i| Cell::ALL[i * 7 % 5]).collect();
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
