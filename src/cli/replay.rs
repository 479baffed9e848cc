//! `beast --html`: the replay page. The engine's [`replay`] computes the frames; this module
//! writes them as compact JSON into the self-contained page `replay.html`, alone or beside
//! the same game under other readings (`--compare`).

use beast_engine::beast::replay::{self, Frame, Limits, Replay, first_difference};
use beast_engine::beast::{Cell, Puzzle, Rules, Status, render};
use beast_engine::judge::report;
use serde_json::{Value, json};

/// The page template; `__TITLE__` and `__DATA__` are filled in, once each, by [`fill`].
const TEMPLATE: &str = include_str!("replay.html");

/// The page for `puzzle` under `rules`, beside the game under `compare` flags if given.
pub fn page_for(
    puzzle: &Puzzle,
    rules: Rules,
    compare: Option<(&str, Rules)>,
    title: &str,
) -> anyhow::Result<String> {
    let ours_label = if rules == Rules::OURS {
        "ours".to_string()
    } else {
        "the readings given".to_string()
    };
    let limits = limits(compare.is_some());
    let mut games = vec![(ours_label, replay::replay(puzzle, rules, limits)?)];
    if let Some((label, other)) = compare {
        games.push((label.to_string(), replay::replay(puzzle, other, limits)?));
    }
    let difference = match &games[..] {
        [(_, a), (_, b)] => first_difference(a, b),
        _ => None,
    };
    Ok(page(title, puzzle, &games, difference))
}

/// Two games share the page's budget.
fn limits(two: bool) -> Limits {
    let whole = Limits::default();
    match two {
        true => Limits {
            max_bytes: whole.max_bytes / 2,
        },
        false => whole,
    }
}

/// The whole page.
pub fn page(
    title: &str,
    puzzle: &Puzzle,
    games: &[(String, Replay)],
    first_difference: Option<u64>,
) -> String {
    let cells = [
        Cell::Space,
        Cell::Wall,
        Cell::Movable,
        Cell::Beast,
        Cell::Player,
    ];
    let style_glyphs =
        |style| -> Vec<&str> { cells.iter().map(|&c| render::glyph(c, style).0).collect() };
    let colors: Vec<String> = cells
        .iter()
        .map(|&c| format!("{:?}", render::glyph(c, render::Style::Ascii).1).to_lowercase())
        .collect();
    let results: Vec<String> = games
        .iter()
        .map(|(label, r)| {
            let said = result_words(r);
            if games.len() > 1 {
                format!("{label}: {said}")
            } else {
                said
            }
        })
        .collect();
    let cuts: Vec<String> = games
        .iter()
        .filter_map(|(label, r)| {
            let cut = r.cut?;
            let whose = if games.len() > 1 {
                format!("{label}: ")
            } else {
                String::new()
            };
            Some(format!(
                "{whose}the page stops at turn {} of a longer game: more frames would pass \
                 the page's limit of {} MB. `beast FILE` judges the whole game.",
                cut.turn,
                cut.max_bytes as f64 / 1e6
            ))
        })
        .collect();
    let data = json!({
        "title": title,
        "moves": beast_engine::beast::move_string(puzzle.moves()),
        "glyphs": {
            "ascii": style_glyphs(render::Style::Ascii),
            "unicode": style_glyphs(render::Style::Unicode),
            "colors": colors,
        },
        "result": results.join("; "),
        "cut": if cuts.is_empty() { Value::Null } else { Value::from(cuts.join(" ")) },
        "first_difference": first_difference,
        "games": games.iter().map(|(label, r)| game_json(label, puzzle, r)).collect::<Vec<_>>(),
    });
    // The title as HTML text; the data as JSON whose `<` cannot end the script early.
    let title = report::html_text(&format!("beast replay: {title}"));
    fill(
        TEMPLATE,
        &[
            ("__TITLE__", &title),
            ("__DATA__", &report::script_json(&data)),
        ],
    )
}

/// `template` with each placeholder replaced by its value, in one pass over the template:
/// a value is never searched for placeholders, so no text in one (a file name holding
/// `__DATA__`) can take another's place.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut page =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some((at, (key, value))) = values
        .iter()
        .filter_map(|kv| rest.find(kv.0).map(|at| (at, kv)))
        .min_by_key(|(at, _)| *at)
    {
        page += &rest[..at];
        page += value;
        rest = &rest[at + key.len()..];
    }
    page += rest;
    page
}

/// `won: score 8 after 29 turns`, or what is known of a cut game.
fn result_words(r: &Replay) -> String {
    match (r.ending, r.score, r.turns) {
        (Some(ending), Some(score), Some(turns)) => {
            format!("{}: score {score} after {turns} turns", ending.name())
        }
        _ => "not played to its end".to_string(),
    }
}

/// One game: the map at turn 0 as cell codes, and the frames as compact arrays.
fn game_json(label: &str, puzzle: &Puzzle, r: &Replay) -> Value {
    let start: String = r
        .start
        .cells()
        .iter()
        .map(|&c| char::from(b'0' + c as u8))
        .collect();
    let player = r.start.index(puzzle.player());
    let beasts = r
        .start
        .cells()
        .iter()
        .filter(|&&c| c == Cell::Beast)
        .count();
    json!({
        "label": label,
        "cols": r.start.cols(),
        "rows": r.start.rows(),
        "start": start,
        "player": player,
        "beasts": beasts,
        "ending": r.ending.map(|e| e.name()),
        "frames": r.frames.iter().map(|f| frame_json(&r.start, f)).collect::<Vec<_>>(),
    })
}

/// `[turn, move index or -1, status (0 playing, 1 won, 2 eaten), score, beasts left,
/// player cell, crushed cell or -1, eaten cell or -1, [cell, code, ...], [from, to, ...],
/// words]`, cells as row-major indices.
fn frame_json(map: &beast_engine::grid::Grid<Cell>, f: &Frame) -> Value {
    let index = |p| map.index(p) as i64;
    let status = match f.step.status {
        Status::Playing => 0,
        Status::Won => 1,
        Status::Eaten => 2,
    };
    let changes: Vec<u64> = f
        .changes
        .iter()
        .flat_map(|&(i, c)| [i as u64, c as u64])
        .collect();
    let moves: Vec<i64> = f
        .beast_moves
        .iter()
        .flat_map(|&(a, b)| [index(a), index(b)])
        .collect();
    json!([
        f.step.turn,
        f.move_index.map_or(-1, |i| i as i64),
        status,
        f.score,
        f.beasts_left,
        index(f.player),
        f.crushed.map_or(-1, index),
        f.step.eaten_at.map_or(-1, index),
        changes,
        moves,
        f.words,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_in_a_value_is_never_filled() {
        let page = fill(
            "<t>__TITLE__</t><d>__DATA__</d>",
            &[("__TITLE__", "__DATA__"), ("__DATA__", "1")],
        );
        assert_eq!(page, "<t>__DATA__</t><d>1</d>");
    }
}
