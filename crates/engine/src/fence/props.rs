//! Property tests over random games: the sheep add up, every game lasts exactly as many builds
//! as there are fences, and the farmer never breaks its rule. The rule is checked against a
//! slow, independent reading of RULES.md that replays whole fields through `build`.

use proptest::prelude::*;

use super::field::{Field, Side, Size, Step};
use super::notation::Fence;

/// The four fences of pen (col, row), from the fence geometry alone.
fn pen_fences(col: u16, row: u16) -> [Fence; 4] {
    use super::notation::Post;
    [
        Fence::across(Post::new(col, row)),
        Fence::across(Post::new(col, row + 1)),
        Fence::down(Post::new(col, row)),
        Fence::down(Post::new(col + 1, row)),
    ]
}

/// Built sides of every pen, counted from `is_built`.
fn sides(f: &Field) -> Vec<usize> {
    let size = f.size();
    (0..size.pens())
        .map(|p| {
            let (c, r) = ((p % size.cols()) as u16, (p / size.cols()) as u16);
            pen_fences(c, r).iter().filter(|&&x| f.is_built(x)).count()
        })
        .collect()
}

/// The pens the player takes after `by` builds `fence`: the player closes any pen with three
/// sides, one after another, for as long as one is left. Played with `build` on copies.
fn slow_given_away(f: &Field, by: Side, fence: Fence) -> usize {
    let mut g = f.build(by, fence).expect("candidate is legal");
    let mut taken = 0;
    loop {
        let s = sides(&g);
        let Some(p) = s.iter().position(|&n| n == 3) else {
            return taken;
        };
        let size = g.size();
        let (c, r) = ((p % size.cols()) as u16, (p / size.cols()) as u16);
        let last = *pen_fences(c, r)
            .iter()
            .find(|&&x| !g.is_built(x))
            .expect("a pen with three sides misses one fence");
        let by = g.to_move().expect("not over while a pen is open");
        // Whoever is to move, the closes count for "the player" of the definition.
        g = g.build(by, last).expect("legal close");
        taken += g.log().last().map_or(0, |m| m.claimed.len());
    }
}

/// The fences each step of the rule would allow in `f`, and which step applies.
fn allowed(f: &Field, side: Side) -> (Step, Vec<Fence>) {
    let open = f.fences();
    let before = sides(f);
    let close: Vec<Fence> = open
        .iter()
        .copied()
        .filter(|&x| {
            let g = f.build(side, x).expect("legal");
            !g.log().last().expect("a move").claimed.is_empty()
        })
        .collect();
    if !close.is_empty() {
        return (Step::Close, close);
    }
    let safe: Vec<Fence> = open
        .iter()
        .copied()
        .filter(|&x| {
            let after = sides(&f.build(side, x).expect("legal"));
            !before.iter().zip(&after).any(|(&b, &a)| b == 2 && a == 3)
        })
        .collect();
    if !safe.is_empty() {
        return (Step::Safe, safe);
    }
    let counts: Vec<usize> = open.iter().map(|&x| slow_given_away(f, side, x)).collect();
    let min = counts.iter().copied().min().unwrap_or(0);
    let fewest = open
        .iter()
        .zip(&counts)
        .filter(|(_, n)| **n == min)
        .map(|(x, _)| *x)
        .collect();
    (Step::Fewest, fewest)
}

/// A game on `size` where the player builds the fence at `choices[k] % open` and the farmer
/// replies; every farmer move is checked against the slow rule from the field before it.
fn checked_game(seed: u64, size: Size, choices: &[usize]) -> Result<Field, TestCaseError> {
    let mut f = Field::start(seed, size);
    let mut k = 0;
    while let Some(side) = f.to_move() {
        if side == Side::You {
            let open = f.fences();
            let pick = choices.get(k).copied().unwrap_or(0) % open.len();
            k += 1;
            f = f.build(side, open[pick]).expect("listed fence is legal");
            continue;
        }
        let g = f.rule_move(Side::Farmer).expect("farmer's turn");
        let m = g.log().last().expect("a move").clone();
        let (step, fences) = allowed(&f, Side::Farmer);
        prop_assert_eq!(m.step, Some(step), "{:?} in {:?}", m, f.built());
        prop_assert!(fences.contains(&m.fence), "{:?} not in {:?}", m, fences);
        f = g;
    }
    Ok(f)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(
        seed in any::<u64>(),
        cols in 1usize..=5,
        rows in 1usize..=4,
        choices in proptest::collection::vec(any::<usize>(), 0..40),
    ) {
        let size = Size::new(cols, rows).expect("in range");
        let f = checked_game(seed, size, &choices)?;
        prop_assert!(f.is_over());
        prop_assert_eq!(f.log().len(), size.fences());
        let (you, farmer) = (f.score(Side::You), f.score(Side::Farmer));
        prop_assert_eq!(you.sheep + farmer.sheep, f.total_sheep());
        prop_assert_eq!((you.pens + farmer.pens) as usize, size.pens());
    }

    #[test]
    fn reply_plays_the_same_moves_as_single_rule_moves(seed in any::<u64>(), first in 0usize..40) {
        let start = Field::start(seed, Size::DEFAULT);
        let f = start.build(Side::You, start.fences()[first]).expect("legal");
        let mut g = f.clone();
        while g.to_move() == Some(Side::Farmer) {
            g = g.rule_move(Side::Farmer).expect("farmer's turn");
        }
        prop_assert_eq!(f.reply().expect("farmer's turn"), g);
    }
}
