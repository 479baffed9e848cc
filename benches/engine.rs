//! `make bench`: the beast engine's speed on generated maps.
//!
//! - `parse`: parse throughput (bytes per second) of a 1000x1000 puzzle, from a `&str`.
//! - `parse_owned`: the same, reading in place from the bytes as `beast` does
//!   (`Puzzle::parse_owned`), plus setting up the game on that map (`Game::from_map`).
//! - `beast_moves`: one beast turn on a 1000x1000 map with 1,000 beasts; divan's item
//!   count is the number of beast moves, so time / items is the cost of one beast move.
//! - `whole_run`: a whole default-rules judge of the 1000x1000 map with 1,000 beasts and
//!   100,000 moves, with the player walled in so that every move is played.
//! - `judge_900`: a whole judge of `beast gen --generator 1 --seed 1 --size 900x900 --beasts 99 --moves 98`
//!   (the map of the comparison with the C answer, `benches/vs-c.sh`), from its bytes.
//! - `play_key`: two keys and a frame of `beast play` on the 40x23 Wikipedia map.
//! - `play_key_1000`: two keys and a frame of `beast play` in an 80x24 window on the
//!   1000x1000 map with 1,000 beasts (target: under 16 ms a key).

use beast_engine::beast::{Game, Move, Puzzle, Rules, play_out, play_out_owned};
use beast_engine::grid::Dir;
use divan::counter::{BytesCount, ItemsCount};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// A `size` x `size` map: solid border, movable walls on a sparse lattice, `beasts` beasts
/// spread evenly, and the player sealed in a 3x3 block of solid wall near the middle.
fn big_map(size: usize, beasts: usize, moves: usize) -> String {
    let mut cells = vec![b' '; size * size];
    for r in 0..size {
        for c in 0..size {
            let border = r == 0 || c == 0 || r == size - 1 || c == size - 1;
            if border {
                cells[r * size + c] = b'#';
            } else if (r * 7 + c * 13) % 29 == 0 {
                cells[r * size + c] = b'~';
            }
        }
    }
    let mid = size / 2;
    for r in mid - 1..=mid + 1 {
        for c in mid - 1..=mid + 1 {
            cells[r * size + c] = b'#';
        }
    }
    cells[mid * size + mid] = b'O';
    // Beasts on a grid of spots away from the player.
    let per_side = (beasts as f64).sqrt().ceil() as usize;
    let step = (size - 2) / (per_side + 1);
    let mut placed = 0;
    'outer: for i in 1..=per_side {
        for j in 1..=per_side {
            if placed == beasts {
                break 'outer;
            }
            let (r, c) = (i * step, j * step);
            if r.abs_diff(mid) > 2 || c.abs_diff(mid) > 2 {
                cells[r * size + c] = b'H';
                placed += 1;
            }
        }
    }
    let mut text = format!("{size} {size}\n");
    for row in cells.chunks(size) {
        text.push_str(std::str::from_utf8(row).expect("ascii"));
        text.push('\n');
    }
    let letters = ['U', 'R', 'D', 'L', 'W'];
    text.extend((0..moves).map(|i| letters[i % letters.len()]));
    text.push('\n');
    text
}

#[divan::bench(sample_count = 20)]
fn parse(bencher: Bencher) {
    let text = big_map(1000, 1000, 100_000);
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| Puzzle::parse(black_box(&text)).expect("valid"));
}

#[divan::bench(sample_count = 20)]
fn parse_owned(bencher: Bencher) {
    let text = big_map(1000, 1000, 100_000);
    bencher
        .counter(BytesCount::new(text.len()))
        .with_inputs(|| text.clone().into_bytes())
        .bench_local_values(|bytes| {
            let (map, _moves) = Puzzle::parse_owned(bytes).expect("valid").into_parts();
            Game::from_map(map, Rules::default())
        });
}

#[divan::bench(sample_count = 20)]
fn judge_900(bencher: Bencher) {
    use beast_engine::judge::generate::{GenOptions, generate};
    let opts = GenOptions {
        cols: 900,
        rows: 900,
        beasts: 99,
        moves: 98,
        ..GenOptions::default()
    };
    let text = generate(1, &opts).expect("generated").to_string();
    bencher
        .counter(BytesCount::new(text.len()))
        .with_inputs(|| text.clone().into_bytes())
        .bench_local_values(|bytes| {
            play_out_owned(Puzzle::parse_owned(bytes).expect("valid"), Rules::default())
                .expect("judged")
        });
}

#[divan::bench(sample_count = 50)]
fn beast_moves(bencher: Bencher) {
    let puzzle = Puzzle::parse(&big_map(1000, 1000, 0)).expect("valid");
    let mut game = Game::new(&puzzle, Rules::default());
    // Warm up: let the beasts leave their lattice and allocate the move log once.
    for _ in 0..20 {
        let _ = game.apply(Move::Step(Dir::Up));
    }
    let beasts = game.beasts().len();
    bencher
        .counter(ItemsCount::new(beasts))
        .with_inputs(|| game.clone())
        .bench_local_refs(|g| {
            // Two turns: the odd one is the player's alone, the even one moves every beast.
            let _ = g.apply(Move::Wait);
            let _ = g.apply(Move::Wait);
        });
}

#[divan::bench(sample_count = 3)]
fn whole_run(bencher: Bencher) {
    let puzzle = Puzzle::parse(&big_map(1000, 1000, 100_000)).expect("valid");
    bencher.bench(|| play_out(black_box(&puzzle), Rules::default()).expect("judged"));
}

/// One key in `beast play` on the 40x23 Wikipedia map: the move through the engine plus a
/// whole new frame (the terminal half then rewrites only the lines that changed).
/// Times two waiting keys and the frame after them, on a fresh copy of `screen` each time.
fn two_waits_and_a_frame(bencher: Bencher, screen: &beast_engine::beast::screen::BeastScreen) {
    use beast_engine::play::{Key, Screen};
    bencher
        .with_inputs(|| screen.clone())
        .bench_local_refs(|s| {
            s.key(Key::Char('.'));
            s.key(Key::Char('.'));
            black_box(s.frame())
        });
}

#[divan::bench(sample_count = 100)]
fn play_key(bencher: Bencher) {
    use beast_engine::beast::Style;
    use beast_engine::beast::screen::BeastScreen;
    let puzzle =
        Puzzle::parse(include_str!("../examples/beast/wikipedia.txt")).expect("the sample");
    let screen = BeastScreen::new(puzzle, Rules::default(), Style::Unicode);
    two_waits_and_a_frame(bencher, &screen);
}

/// One key in `beast play` in an 80x24 window on the 1000x1000 map with 1,000 beasts: the
/// move through the engine plus the frame of the view (only the window is drawn).
#[divan::bench(sample_count = 50)]
fn play_key_1000(bencher: Bencher) {
    use beast_engine::beast::Style;
    use beast_engine::beast::screen::BeastScreen;
    use beast_engine::play::{Screen, Window};
    let puzzle = Puzzle::parse(&big_map(1000, 1000, 0)).expect("valid");
    let mut screen = BeastScreen::new(puzzle, Rules::default(), Style::Unicode);
    screen.resize(Window { cols: 80, rows: 24 });
    two_waits_and_a_frame(bencher, &screen);
}
