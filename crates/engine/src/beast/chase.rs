//! The beasts' half of a turn on the flat map, free of guessed branches: a whole beast turn
//! under all our rules by the table of choices ([`beast_turn_ours`], the hot path), and a
//! beast's nearest open neighbour by a distance measure ([`nearest_open`]) for the tie
//! orders and measures of the other readings. These read and write the map's cells and the
//! beasts' cells only; [`Game`](super::game::Game) decides which one a turn takes.

use crate::beast::choice::{
    CHOICES, ClassMemo, NOWHERE, all_near, around_block, closed_at, direction_class, near_class,
};
#[cfg(test)]
use crate::beast::measure::Euclidean;
use crate::beast::measure::Measure;
use crate::beast::parse::Cell;
use crate::grid::Pos;

/// The nearest open neighbour of a beast at flat index `at` under our tie orders, as
/// (distance, rank), with `(dr, dc)` the beast's offset from its target; `None` when every
/// neighbour is closed. Branch-free: each neighbour's key is its distance times 8 plus its
/// rank, or `u64::MAX` when it is not open, so the smallest key is the nearest open cell
/// with ties going to the higher priority. The three rows of the 3x3 block around the
/// beast are three slices, in the order of [`AROUND`](crate::grid::AROUND).
#[inline(always)]
pub(super) fn nearest_open<M: Measure>(
    cells: &[Cell],
    at: usize,
    stride: usize,
    (dr, dc): (i64, i64),
    ranks: [u64; 8],
) -> Option<(u64, usize)> {
    let (Some(up), Some(mid), Some(down)) = (
        three(cells, at.wrapping_sub(stride + 1)),
        three(cells, at.wrapping_sub(1)),
        three(cells, at + stride - 1),
    ) else {
        return None;
    };
    let around = around_block(up, mid, down);
    let (r, c) = (
        [M::part(dr - 1), M::part(dr), M::part(dr + 1)],
        [M::part(dc - 1), M::part(dc), M::part(dc + 1)],
    );
    let distance = [
        M::join(r[0], c[0]),
        M::join(r[0], c[1]),
        M::join(r[0], c[2]),
        M::join(r[1], c[0]),
        M::join(r[1], c[2]),
        M::join(r[2], c[0]),
        M::join(r[2], c[1]),
        M::join(r[2], c[2]),
    ];
    let keys: [u64; 8] = std::array::from_fn(|j| {
        let open = (around[j] == Cell::Space) | (around[j] == Cell::Player);
        let closed = u64::from(!open).wrapping_neg();
        (distance[j] << 3 | ranks[j]) | closed
    });
    // A tree of minimums, not a chain: short enough that the compiler keeps conditional
    // moves instead of turning them into guessed branches.
    let key = (keys[0].min(keys[1]).min(keys[2].min(keys[3])))
        .min(keys[4].min(keys[5]).min(keys[6].min(keys[7])));
    (key != u64::MAX).then_some((key >> 3, (key & 7) as usize))
}

/// The neighbour a beast at the middle of the 3x3 block `cells` takes by [`nearest_open`]
/// and the squared distances, for the tests of the table of choices.
#[cfg(test)]
pub(super) fn nearest_by_squares(
    cells: &[Cell; 9],
    (dr, dc): (i64, i64),
    ranks: [u64; 8],
) -> Option<usize> {
    nearest_open::<Euclidean>(cells, 4, 3, (dr, dc), ranks).map(|(_, k)| k)
}

/// Each beast's flat cell on rows of `stride` cells, shifted left 8 bits, and the class
/// of its direction to `target` in the low bits, in `plan`. With `FAR`, the map is too big
/// for every class to be looked up, and a beast far from its target asks its memo.
#[inline(never)]
fn plan_beasts<const FAR: bool>(
    beasts: &[Pos],
    memos: &mut [ClassMemo],
    plan: &mut [u64; PLAN],
    stride: usize,
    target: Pos,
) {
    let (tr, tc) = (target.row as i64, target.col as i64);
    for ((planned, beast), memo) in plan.iter_mut().zip(beasts).zip(memos) {
        let at = beast.row * stride + beast.col;
        let (dr, dc) = (beast.row as i64 - tr, beast.col as i64 - tc);
        let class = match FAR {
            true => memo.class(dr, dc),
            false => near_class(dr, dc).unwrap_or_else(|| direction_class(dr, dc)),
        };
        *planned = (at as u64) << 8 | class as u64;
    }
}

/// How many beasts [`beast_turn_ours`] plans at a time.
const PLAN: usize = 256;

/// The beasts' moves of one beast turn under all our rules, on `cells` (rows of `stride`
/// cells), with `player` the player's flat cell: each beast of `beasts` in turn takes the
/// step its choice ([`CHOICES`]) names in `steps`, and the choice is written to its slot
/// in `log`. `log` and `memos` are as long as `beasts`. Returns the index of the beast that
/// ate the player, if one did (those after it have not moved).
///
/// A chunk of beasts is planned first ([`plan_beasts`]): each one's flat cell and the class
/// of its direction to `target`, which no beast's move in the turn changes. The moves then
/// only read the cells around each beast, and the work of one does not wait on the plan of
/// the next.
#[inline(never)]
pub(super) fn beast_turn_ours(
    cells: &mut [Cell],
    beasts: &mut [Pos],
    log: &mut [u8],
    memos: &mut [ClassMemo],
    stride: usize,
    (target, player): (Pos, usize),
    steps: &[(isize, isize, isize); 16],
) -> Option<usize> {
    debug_assert!(log.len() == beasts.len() && memos.len() == beasts.len());
    // A beast's 3x3 block is on the map only if the map is 3 cells wide and 3 high; and
    // then no block is longer than the map, which lets the compiler check the three rows
    // of a block once for the whole turn.
    if stride < 3 || stride > cells.len().saturating_sub(3) / 2 {
        log.fill(NOWHERE);
        return None;
    }
    let far = !all_near(stride, cells.len() / stride);
    let mut plan = [0u64; PLAN];
    let chunks = beasts.chunks_mut(PLAN).zip(log.chunks_mut(PLAN));
    for (c, ((beasts, log), memos)) in chunks.zip(memos.chunks_mut(PLAN)).enumerate() {
        match far {
            true => plan_beasts::<true>(beasts, memos, &mut plan, stride, target),
            false => plan_beasts::<false>(beasts, memos, &mut plan, stride, target),
        }
        for (j, ((beast, slot), &planned)) in beasts.iter_mut().zip(log).zip(&plan).enumerate() {
            let at = (planned >> 8) as usize;
            let choice = match closed_at(cells, at, stride) {
                Some(closed) => CHOICES[planned as usize & 63][closed],
                None => NOWHERE,
            };
            *slot = choice;
            let (sr, sc, flat) = steps[usize::from(choice & 15)];
            beast.row = beast.row.wrapping_add_signed(sr);
            beast.col = beast.col.wrapping_add_signed(sc);
            let to = at.wrapping_add_signed(flat);
            cells[at] = Cell::Space;
            cells[to] = Cell::Beast;
            if to == player {
                return Some(c * PLAN + j);
            }
        }
    }
    None
}

/// The three cells from flat index `start`, if on the map.
#[inline]
fn three(cells: &[Cell], start: usize) -> Option<&[Cell; 3]> {
    cells.get(start..start.checked_add(3)?)?.try_into().ok()
}
