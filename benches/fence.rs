//! Fence Posts benchmarks: a whole farmer-vs-farmer game, where the farmer's rule plays both
//! sides, on the default 4x4 field (target under 1 ms) and on 25x25 (1,300 fences, target
//! under 1 s). Run with `cargo bench --bench fence`.

use beast_engine::fence::{Field, Size};

fn main() {
    divan::main();
}

/// Plays the farmer's rule for whichever side is to move until every fence is built.
fn farmer_vs_farmer(seed: u64, size: Size) -> Field {
    let mut field = Field::start(seed, size);
    while let Some(side) = field.to_move() {
        field = field.rule_move(side).expect("the side to move may move");
    }
    field
}

#[divan::bench(args = [1, 2, 3])]
fn farmer_vs_farmer_4x4(seed: u64) -> Field {
    farmer_vs_farmer(divan::black_box(seed), Size::DEFAULT)
}

#[divan::bench(args = [1, 2, 3], sample_count = 10, sample_size = 1)]
fn farmer_vs_farmer_25x25(seed: u64) -> Field {
    let size = Size::new(25, 25).expect("25x25 is in range");
    farmer_vs_farmer(divan::black_box(seed), size)
}
