//! The beast's choice under our rules as a table lookup: which neighbour a beast takes
//! depends only on the direction class of its offset from the target ([`direction_class`])
//! and on which of its eight neighbours are closed ([`closed_around`]), so [`CHOICES`] holds
//! the answer for every pair, worked out at compile time from the distances themselves.
//! The beast turn looks up the class of a beast near its target ([`near_class`]); one
//! farther away compares its neighbours' distances (`game::nearest_by_keys`), which costs
//! less than working out its class.

use crate::beast::game::{NEIGHBOURS, around_ranks};
use crate::beast::parse::Cell;
use crate::grid::AROUND;

/// How many classes [`direction_class`] tells apart: nine in each quadrant (four open
/// sectors and the five rays between and around them; an axis shared by two quadrants
/// counts in both) and the target's own cell.
pub const DIRECTIONS: usize = 37;

/// The rank a table entry holds when every neighbour is closed.
pub const NOWHERE: u8 = 8;

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

/// How far [`NEAR_CLASSES`] reaches from the target, in rows and in columns.
const NEAR: i64 = 64;

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

/// The neighbours in the 3x3 block `up`, `mid`, `down` that a beast cannot enter, as bit `j`
/// for [`AROUND`]`[j]`.
#[inline(always)]
pub fn closed_around(up: &[Cell; 3], mid: &[Cell; 3], down: &[Cell; 3]) -> usize {
    const _: () = assert!(
        Cell::Space as u8 == 0
            && Cell::Player as u8 == 4
            && Cell::Wall as u8 & 3 != 0
            && Cell::Movable as u8 & 3 != 0
            && Cell::Beast as u8 & 3 != 0
    );
    let bytes = around_block(up, mid, down).map(|c| c as u8);
    let word = u64::from_le_bytes(bytes);
    // The open cells are those with bits 0 and 1 clear. Adding 0x7f to those two bits sets
    // bit 7 exactly when either is set, and never carries into the next byte.
    let closed = ((word & 0x0303_0303_0303_0303) + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
    // Bit 8j + 7 goes to bit j: the product moves bit 8j to bit 56 + j, with no carries.
    ((closed >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// For each direction class and each set of closed neighbours (as [`closed_around`] gives
/// it), the rank in [`NEIGHBOURS`] of the neighbour a beast takes, or [`NOWHERE`].
pub type Choices = [[u8; 256]; DIRECTIONS];

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
    let mut table = [[NOWHERE; 256]; DIRECTIONS];
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
    use crate::beast::game::nearest_by_squares;
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

    fn rows(cells: &[Cell; 9]) -> (&[Cell; 3], &[Cell; 3], &[Cell; 3]) {
        let row = |i: usize| cells[i..i + 3].try_into().expect("three cells");
        (row(0), row(3), row(6))
    }

    #[test]
    fn the_closed_neighbours_are_walls_movable_walls_and_beasts() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for closed in 0..256 {
            for _ in 0..8 {
                let cells = block(closed, rng.next_u32());
                let (up, mid, down) = rows(&cells);
                assert_eq!(closed_around(up, mid, down), closed, "{cells:?}");
            }
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
            let (up, mid, down) = rows(&cells);
            let got = CHOICES[direction_class(dr, dc)][closed_around(up, mid, down)];
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
        let (up, mid, down) = rows(&cells);
        let want = nearest_by_squares(&cells, (0, 0), OUR_RANKS);
        assert_eq!(
            want,
            Some(1),
            "the four orthogonal cells are nearest; 2 (left) ranks first"
        );
        assert_eq!(
            CHOICES[direction_class(0, 0)][closed_around(up, mid, down)],
            1
        );
    }
}
