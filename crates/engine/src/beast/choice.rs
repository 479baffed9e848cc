//! The beast's choice under our rules as a table lookup: which neighbour a beast takes
//! depends only on the direction class of its offset from the target ([`direction_class`])
//! and on which of its eight neighbours are closed ([`closed_at`]), so [`CHOICES`] holds
//! the answer for every pair, worked out at compile time from the distances themselves.
//! The class of a beast near its target is looked up ([`near_class`]); a beast far from
//! it keeps its class for many turns, and its [`ClassMemo`] checks the class it had.
//!
//! The tie-break order of a beast's neighbours ([`NEIGHBOURS`]) and the ranks an order
//! gives the cells around a beast ([`around_ranks`]) live here too: the table is made from
//! them, and the game's other tie orders use them the same way.

use crate::beast::parse::Cell;
use crate::grid::AROUND;

/// How many classes [`direction_class`] tells apart: nine in each quadrant (four open
/// sectors and the five rays between and around them; an axis shared by two quadrants
/// counts in both) and the target's own cell.
pub const DIRECTIONS: usize = 37;

/// The rank a table entry holds when every neighbour is closed.
pub const NOWHERE: u8 = 8;

/// A beast's eight neighbours in tie-break order: the matrix `1 3 4 / 2 H 5 / 6 8 7`.
pub(super) const NEIGHBOURS: [(isize, isize); 8] = [
    (-1, -1), // 1 up-left
    (0, -1),  // 2 left
    (-1, 0),  // 3 up
    (-1, 1),  // 4 up-right
    (0, 1),   // 5 right
    (1, -1),  // 6 down-left
    (1, 1),   // 7 down-right
    (1, 0),   // 8 down
];

/// The tie rank of each cell of [`AROUND`] under the priority order `neighbours`, if that
/// order ranks each neighbour exactly once.
pub(super) const fn around_ranks(neighbours: &[(isize, isize); 8]) -> Option<[u64; 8]> {
    let mut ranks = [0; 8];
    let mut j = 0;
    while j < 8 {
        let cell = AROUND[j];
        let mut rank = None;
        let mut k = 0;
        while k < 8 {
            if neighbours[k].0 == cell.0 && neighbours[k].1 == cell.1 {
                if rank.is_some() {
                    return None;
                }
                rank = Some(k as u64);
            }
            k += 1;
        }
        match rank {
            Some(k) => ranks[j] = k,
            None => return None,
        }
        j += 1;
    }
    Some(ranks)
}

/// The class of a beast's offset `(dr, dc)` from its target (rows and columns, each below
/// 2^62 in size), such that every offset of one class orders the eight neighbours alike.
///
/// The neighbour at `(a, b)` is `2 * (a * dr + b * dc) + a * a + b * b` farther from the
/// target than the beast, in squared distance. Two neighbours are a step `(u, v)` apart,
/// with `u` and `v` from -2 to 2, so their difference is `2 * (u * dr + v * dc)` plus -1, 0
/// or 1, and its sign is that of `u * dr + v * dc` unless that is 0 (then the squares and
/// the tie ranks decide, the same for the whole class). Those signs are the side of each of
/// the eight lines `dr = 0`, `dc = 0`, `dr = ±dc`, `2dr = ±dc` and `dr = ±2dc` the beast
/// stands on, or the line itself: the quadrant, and where `|dc| / |dr|` lies against 0,
/// 1/2, 1, 2 and infinity.
#[inline(always)]
pub const fn direction_class(dr: i64, dc: i64) -> usize {
    let (r, c) = (dr.unsigned_abs(), dc.unsigned_abs());
    if r | c == 0 {
        return DIRECTIONS - 1;
    }
    let quadrant = (dr < 0) as usize | ((dc < 0) as usize) << 1;
    let angle = (c > 0) as usize + side(2 * c, r) + side(c, r) + side(c, 2 * r) + (r == 0) as usize;
    quadrant * 9 + angle
}

/// 0 if `x` is below `y`, 1 if equal, 2 if above.
#[inline(always)]
const fn side(x: u64, y: u64) -> usize {
    (x >= y) as usize + (x > y) as usize
}

/// An open sector of [`direction_class`] (one of the classes between two rays) as two
/// linear forms of `(dr, dc)`, each given by its coefficients of `dr` and `dc`: the sector
/// is where both are above 0. Its offsets are on the same strict side of each of the eight
/// lines, and the two lines that bound it tell it from every other class.
type Sector = [(i8, i8); 2];

/// [`Sector`] of each class of [`direction_class`] that is a sector, at its number; the rays,
/// the target's own cell and the numbers past the classes, up to the largest a [`ClassMemo`]
/// can hold, have forms that are never both above 0.
static SECTORS: [Sector; 256] = {
    let mut sectors = [[(0, 0); 2]; 256];
    let mut class = 0;
    while class < DIRECTIONS - 1 {
        let (quadrant, angle) = (class / 9, class % 9);
        // With `r = |dr|` and `c = |dc|`, the sectors are 0 < 2c < r, r < 2c and c < r,
        // r < c < 2r, and 2r < c with 0 < r: the forms as coefficients of `r` and `c`.
        let forms = match angle {
            1 => [(0, 1), (1, -2)],
            3 => [(-1, 2), (1, -1)],
            5 => [(-1, 1), (2, -1)],
            7 => [(-2, 1), (1, 0)],
            _ => [(0, 0), (0, 0)],
        };
        // In the quadrant, `r` is `sr * dr` and `c` is `sc * dc`.
        let sr = if quadrant & 1 == 1 { -1 } else { 1 };
        let sc = if quadrant & 2 == 2 { -1 } else { 1 };
        sectors[class] = [
            (forms[0].0 * sr, forms[0].1 * sc),
            (forms[1].0 * sr, forms[1].1 * sc),
        ];
        class += 1;
    }
    sectors
};

/// True if the offset `(dr, dc)` (each below 2^61 in size) is in the sector of the class
/// numbered `class`; false for a class that is no sector, and for a number that is no class.
#[inline(always)]
fn in_sector(class: u8, dr: i64, dc: i64) -> bool {
    let form = |(a, b): (i8, i8)| i64::from(a) * dr + i64::from(b) * dc;
    let [first, second] = SECTORS[usize::from(class)];
    form(first).min(form(second)) > 0
}

/// A beast's [`direction_class`], remembered from an earlier beast turn. A beast far from
/// its target stays in one sector for many turns, and telling whether it still is (two
/// linear forms, [`Sector`]) costs less than working its class out. The remembered class is
/// checked whatever it is, so a memo another beast left is merely missed; a beast on one of
/// the rays has its class worked out every time.
#[derive(Clone, Copy, Debug)]
pub struct ClassMemo(u8);

impl Default for ClassMemo {
    /// Nothing remembered: the target's own class, which is no sector.
    fn default() -> ClassMemo {
        ClassMemo(DIRECTIONS as u8 - 1)
    }
}

impl ClassMemo {
    /// [`direction_class`] of `(dr, dc)` (each below 2^61 in size): looked up near the
    /// target ([`near_class`]); farther away, the remembered class if the offset is still in
    /// its sector, else worked out and remembered. The near lookup comes first: whether a
    /// beast is near hardly changes from one beast to the next, so the test is well guessed,
    /// where a near beast, crossing lines often, would often miss its memo.
    #[inline(always)]
    pub fn class(&mut self, dr: i64, dc: i64) -> usize {
        self.recall(dr, dc).0
    }

    /// [`ClassMemo::class`], and true if the memo held the class.
    #[inline(always)]
    fn recall(&mut self, dr: i64, dc: i64) -> (usize, bool) {
        if let Some(class) = near_class(dr, dc) {
            return (class, false);
        }
        if in_sector(self.0, dr, dc) {
            return (usize::from(self.0), true);
        }
        let class = direction_class(dr, dc);
        self.0 = class as u8;
        (class, false)
    }
}

/// One [`ClassMemo`] for each beast, in rank order: working memory of the beast turn, not
/// part of a game's state, so that any two are equal.
#[derive(Clone, Debug, Default)]
pub struct ClassMemos(pub Vec<ClassMemo>);

impl PartialEq for ClassMemos {
    fn eq(&self, _: &ClassMemos) -> bool {
        true
    }
}

impl Eq for ClassMemos {}

/// How far [`NEAR_CLASSES`] reaches from the target, in rows and in columns.
const NEAR: i64 = 64;

/// True if every offset between two cells of a map of `cols` by `rows` cells is near enough
/// for [`near_class`].
pub fn all_near(cols: usize, rows: usize) -> bool {
    cols.max(rows) <= NEAR as usize
}

/// [`direction_class`] of every offset `(dr, dc)` with both from `-NEAR` to `NEAR - 1`, at
/// `[dr + NEAR][dc + NEAR]`.
static NEAR_CLASSES: [[u8; 2 * NEAR as usize]; 2 * NEAR as usize] = {
    let mut table = [[0; 2 * NEAR as usize]; 2 * NEAR as usize];
    let mut i = 0;
    while i < 2 * NEAR as usize {
        let mut j = 0;
        while j < 2 * NEAR as usize {
            table[i][j] = direction_class(i as i64 - NEAR, j as i64 - NEAR) as u8;
            j += 1;
        }
        i += 1;
    }
    table
};

/// [`direction_class`] of the offset `(dr, dc)` looked up in [`NEAR_CLASSES`], if both are
/// from `-NEAR` to `NEAR - 1`.
#[inline(always)]
pub fn near_class(dr: i64, dc: i64) -> Option<usize> {
    let (i, j) = ((dr + NEAR) as u64, (dc + NEAR) as u64);
    let class = NEAR_CLASSES.get(i as usize)?.get(j as usize)?;
    Some(usize::from(*class))
}

/// An offset of the class `class` of [`direction_class`] (for the classes it never returns,
/// an offset of a neighbouring one).
const fn representative(class: usize) -> (i64, i64) {
    // `(|dr|, |dc|)` for each angle, in the order of the angles.
    const SIZES: [(i64, i64); 9] = [
        (1, 0),
        (3, 1),
        (2, 1),
        (3, 2),
        (1, 1),
        (2, 3),
        (1, 2),
        (1, 3),
        (0, 1),
    ];
    if class == DIRECTIONS - 1 {
        return (0, 0);
    }
    let (r, c) = SIZES[class % 9];
    let quadrant = class / 9;
    let dr = if quadrant & 1 == 1 { -r } else { r };
    let dc = if quadrant & 2 == 2 { -c } else { c };
    (dr, dc)
}

/// The eight cells around the middle of the 3x3 block `up`, `mid`, `down`, in the order
/// of [`AROUND`].
#[inline(always)]
pub fn around_block(up: &[Cell; 3], mid: &[Cell; 3], down: &[Cell; 3]) -> [Cell; 8] {
    [
        up[0], up[1], up[2], mid[0], mid[2], down[0], down[1], down[2],
    ]
}

/// The neighbours of the beast at flat index `at` of `cells` (rows of `stride` cells) that
/// it cannot enter, as bit `j` for [`AROUND`]`[j]`, read as three words of four cells; `None`
/// if its 3x3 block is not all on the map.
#[inline(always)]
pub fn closed_at(cells: &[Cell], at: usize, stride: usize) -> Option<usize> {
    // One check for the block; the three words' own checks depend on `stride` alone, and
    // the compiler makes them once for the whole beast turn.
    let start = at.wrapping_sub(stride + 1);
    let block = cells.get(start..start.wrapping_add(2 * stride + 3))?;
    let word = |four: &[Cell; 4]| u64::from(u32::from_le_bytes(four.map(|c| c as u8)));
    // Up-left to up-right; left, the beast, right; and the cell before down-left, then
    // down-left to down-right: the eight neighbours in the order of `AROUND`.
    let up = word(block.first_chunk()?);
    let mid = word(block.get(stride..)?.first_chunk()?);
    let down = word(block.last_chunk()?);
    let word = up & 0xff_ffff | (mid & 0xff) << 24 | (mid & 0xff_0000) << 16 | (down >> 8) << 40;
    Some(closed_of_word(word))
}

/// The closed cells of the eight cells `word` holds (one a byte), as bit `j` for byte `j`.
#[inline(always)]
fn closed_of_word(word: u64) -> usize {
    const _: () = assert!(
        Cell::Space as u8 == 0
            && Cell::Player as u8 == 4
            && Cell::Wall as u8 & 3 != 0
            && Cell::Movable as u8 & 3 != 0
            && Cell::Beast as u8 & 3 != 0
    );
    // The open cells are those with bits 0 and 1 clear. Adding 0x7f to those two bits sets
    // bit 7 exactly when either is set, and never carries into the next byte.
    let closed = ((word & 0x0303_0303_0303_0303) + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
    // Bit 8j + 7 goes to bit j: the product moves bit 8j to bit 56 + j, with no carries.
    ((closed >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// For each direction class and each set of closed neighbours (as [`closed_at`] gives it),
/// the rank in [`NEIGHBOURS`] of the neighbour a beast takes, or [`NOWHERE`]. The rows past
/// the [`DIRECTIONS`] classes are padding (all [`NOWHERE`]), so that a class masked to six
/// bits indexes the table with no check.
pub type Choices = [[u8; 256]; 64];

/// The tie rank of each cell of [`AROUND`] under our tie order.
pub const OUR_RANKS: [u64; 8] = match around_ranks(&NEIGHBOURS) {
    Some(ranks) => ranks,
    None => panic!("the matrix ranks each neighbour once"),
};

/// [`Choices`] under our tie order.
pub static CHOICES: Choices = choices(OUR_RANKS);

/// [`Choices`] under the tie ranks `ranks` of [`AROUND`]: the open neighbour nearest to the
/// target, squared distance times 8 plus tie rank, from each class's representative.
const fn choices(ranks: [u64; 8]) -> Choices {
    let mut table = [[NOWHERE; 256]; 64];
    let mut class = 0;
    while class < DIRECTIONS {
        let (dr, dc) = representative(class);
        let mut closed = 0;
        while closed < 256 {
            let mut best = u64::MAX;
            let mut j = 0;
            while j < 8 {
                if closed >> j & 1 == 0 {
                    let (a, b) = AROUND[j];
                    let (r, c) = (dr + a as i64, dc + b as i64);
                    let key = ((r * r + c * c) as u64) << 3 | ranks[j];
                    if key < best {
                        best = key;
                    }
                }
                j += 1;
            }
            if best != u64::MAX {
                table[class][closed] = (best & 7) as u8;
            }
            closed += 1;
        }
        class += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beast::chase::nearest_by_squares;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// The 3x3 block with the beast in the middle and the neighbour `AROUND[j]` closed (a
    /// wall, a movable wall or a beast, by `kind`) for each bit `j` of `closed`, and open
    /// (space or the player) otherwise.
    fn block(closed: usize, kind: u32) -> [Cell; 9] {
        let mut cells = [Cell::Space; 9];
        cells[4] = Cell::Beast;
        for (j, &(a, b)) in AROUND.iter().enumerate() {
            let i = ((a + 1) * 3 + b + 1) as usize;
            let pick = (kind >> (2 * j)) as usize;
            cells[i] = if closed >> j & 1 == 1 {
                [Cell::Wall, Cell::Movable, Cell::Beast][pick % 3]
            } else {
                [Cell::Space, Cell::Player][pick % 2]
            };
        }
        cells
    }

    /// The closed neighbours of the beast in the middle of the 3x3 block `cells`.
    fn closed_in(cells: &[Cell; 9]) -> usize {
        closed_at(cells, 4, 3).expect("the block is the whole map")
    }

    #[test]
    fn the_closed_neighbours_are_walls_movable_walls_and_beasts() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for closed in 0..256 {
            for _ in 0..8 {
                let cells = block(closed, rng.next_u32());
                assert_eq!(closed_in(&cells), closed, "{cells:?}");
            }
        }
    }

    #[test]
    fn the_closed_neighbours_are_read_from_the_rows_around_the_beast() {
        // Maps 3 to 70 wide, every cell of any kind: each interior cell's neighbours, the
        // bottom-right one's last word ending at the map's last cell; no block for the
        // cells of the top row and the first of the second.
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for _ in 0..300 {
            let (cols, rows) = (
                3 + rng.next_u32() as usize % 68,
                3 + rng.next_u32() as usize % 4,
            );
            let cells: Vec<Cell> = (0..cols * rows)
                .map(|_| Cell::ALL[rng.next_u32() as usize % 5])
                .collect();
            for r in 1..rows - 1 {
                for c in 1..cols - 1 {
                    let want = AROUND.iter().enumerate().fold(0, |closed, (j, &(a, b))| {
                        let n = cells[(r as isize + a) as usize * cols + (c as isize + b) as usize];
                        closed | usize::from(!matches!(n, Cell::Space | Cell::Player)) << j
                    });
                    assert_eq!(closed_at(&cells, r * cols + c, cols), Some(want));
                }
            }
            for at in 0..=cols {
                assert_eq!(closed_at(&cells, at, cols), None, "{cols}x{rows} at {at}");
            }
        }
    }

    #[test]
    fn a_sector_holds_exactly_the_offsets_of_its_class() {
        let is_sector = |class: usize| class < DIRECTIONS - 1 && class % 9 % 2 == 1;
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let near = (-70..=70).flat_map(|dr| (-70..=70).map(move |dc| (dr, dc)));
        let far = (0..100_000).map(|_| offset(&mut rng));
        for (dr, dc) in near.chain(far.collect::<Vec<_>>()) {
            let class = direction_class(dr, dc);
            for k in 0..=u8::MAX {
                let want = is_sector(k.into()) && usize::from(k) == class;
                assert_eq!(in_sector(k, dr, dc), want, "class {k} at ({dr}, {dc})");
            }
        }
    }

    #[test]
    fn a_memo_gives_the_class_whatever_it_remembers() {
        // Walks of offsets near and far, each step up to 3 rows and columns, with a memo
        // that sometimes remembers another beast's class, or anything at all.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let (mut far, mut held) = (0, 0);
        for _ in 0..2_000 {
            let (mut dr, mut dc) = offset(&mut rng);
            let mut memo = ClassMemo::default();
            for _ in 0..50 {
                if rng.next_u32() % 10 == 0 {
                    memo = ClassMemo(rng.next_u32() as u8);
                }
                let before = memo.0;
                let (class, from_memo) = memo.recall(dr, dc);
                assert_eq!(
                    class,
                    direction_class(dr, dc),
                    "({dr}, {dc}), memo {before}"
                );
                far += usize::from(near_class(dr, dc).is_none());
                held += usize::from(from_memo);
                dr += i64::from(rng.next_u32() % 7) - 3;
                dc += i64::from(rng.next_u32() % 7) - 3;
            }
        }
        // Far from the target, most steps keep the class: the memo is of use.
        assert!(far > 20_000 && held > far * 3 / 4, "held {held} of {far}");
    }

    #[test]
    fn only_maps_within_the_near_table_skip_the_memo() {
        assert!(all_near(64, 64));
        assert!(all_near(3, 40));
        assert!(!all_near(65, 3));
        assert!(!all_near(10, 65));
        for dr in -63..=63 {
            assert!(near_class(dr, -dr).is_some() && near_class(-dr, dr).is_some());
        }
    }

    #[test]
    fn each_class_holds_its_representative() {
        for dr in -40..=40 {
            for dc in -40..=40 {
                let class = direction_class(dr, dc);
                assert!(class < DIRECTIONS);
                assert_eq!(
                    direction_class(representative(class).0, representative(class).1),
                    class
                );
            }
        }
    }

    #[test]
    fn the_near_lookup_gives_the_class_of_each_near_offset() {
        for dr in -NEAR - 3..NEAR + 3 {
            for dc in -NEAR - 3..NEAR + 3 {
                let near = (-NEAR..NEAR).contains(&dr) && (-NEAR..NEAR).contains(&dc);
                let want = near.then(|| direction_class(dr, dc));
                assert_eq!(near_class(dr, dc), want, "({dr}, {dc})");
            }
        }
        for (dr, dc) in [(1 << 29, 5), (-7, -(1 << 29)), (i64::from(i32::MIN), 0)] {
            assert_eq!(near_class(dr, dc), None, "({dr}, {dc})");
        }
    }

    /// Offsets near the eight lines, where the order changes, and anywhere, near and far.
    fn offset(rng: &mut ChaCha8Rng) -> (i64, i64) {
        let far = 1i64 << 29;
        let span = [8, 1000, far][rng.next_u32() as usize % 3];
        let x = (rng.next_u64() % (2 * span as u64)) as i64 - span;
        let y = (rng.next_u64() % 5) as i64 - 2;
        match rng.next_u32() % 10 {
            0 => (x, y),
            1 => (y, x),
            2 => (x, x + y),
            3 => (x, -x + y),
            4 => (x, 2 * x + y),
            5 => (x, -2 * x + y),
            6 => (2 * x + y, x),
            7 => (-2 * x + y, x),
            _ => ((rng.next_u64() % (2 * span as u64)) as i64 - span, x),
        }
    }

    #[test]
    fn the_table_chooses_as_the_squared_distances_do() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        for _ in 0..200_000 {
            let (dr, dc) = offset(&mut rng);
            let closed = rng.next_u32() as usize % 256;
            let cells = block(closed, rng.next_u32());
            let got = CHOICES[direction_class(dr, dc)][closed_in(&cells)];
            let want = nearest_by_squares(&cells, (dr, dc), OUR_RANKS);
            assert_eq!(
                got,
                want.map_or(NOWHERE, |k| k as u8),
                "({dr}, {dc}), {cells:?}"
            );
        }
    }

    #[test]
    fn a_beast_at_its_target_still_moves_by_the_ties() {
        let cells = block(0, 0);
        let want = nearest_by_squares(&cells, (0, 0), OUR_RANKS);
        assert_eq!(
            want,
            Some(1),
            "the four orthogonal cells are nearest; 2 (left) ranks first"
        );
        assert_eq!(CHOICES[direction_class(0, 0)][closed_in(&cells)], 1);
    }
}
