//! `cargo bench --bench diff`: the unified diff shown with a WA, on outputs the judge must
//! survive. Every case stays bounded (a few KiB are diffed); the 1 MiB case took over 120 s
//! before the diff was capped.
//!
//! - `wrong_mebibyte`: 1 MiB of `8\n` against the expected `aHHHH!\n0\n`: no line in
//!   common, the quadratic worst case of a whole-text diff.
//! - `wrong_64k`: the same with 64 KiB.
//! - `late_difference`: 1 MiB of equal lines, then one differing line.
//! - `one_long_line`: 1 MiB on one line with no newline.

use beast_engine::judge::verdict::unified_diff;
use divan::counter::BytesCount;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// Benches the diff of `expected` against `got`, counting the bytes of `got`.
fn bench_diff(bencher: Bencher, expected: &[u8], got: &[u8]) {
    bencher
        .counter(BytesCount::new(got.len()))
        .bench(|| unified_diff(black_box(expected), black_box(got)));
}

#[divan::bench]
fn wrong_mebibyte(bencher: Bencher) {
    bench_diff(bencher, b"aHHHH!\n0\n", "8\n".repeat(1 << 19).as_bytes());
}

#[divan::bench]
fn wrong_64k(bencher: Bencher) {
    bench_diff(bencher, b"aHHHH!\n0\n", "8\n".repeat(1 << 15).as_bytes());
}

#[divan::bench]
fn late_difference(bencher: Bencher) {
    let same = "7\n".repeat(1 << 19);
    let expected = format!("{same}8\n");
    let got = format!("{same}9\n");
    bench_diff(bencher, expected.as_bytes(), got.as_bytes());
}

#[divan::bench]
fn one_long_line(bencher: Bencher) {
    bench_diff(bencher, b"8\n", "8".repeat(1 << 20).as_bytes());
}
