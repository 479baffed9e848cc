// Drives the Ring Collector page (`beast ring --html`) in headless Chromium and, after every
// step, compares the page's status with `beast ring --json` run on the same scenario and moves.
//
// Environment: BEAST (the binary), PAGE (the written page), ARTIFACTS (screenshot folder),
// CHROMIUM (default /usr/bin/chromium).
import { launch } from './browser.mjs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const BEAST = process.env.BEAST;
const PAGE = resolve(process.env.PAGE);
const ARTIFACTS = resolve(process.env.ARTIFACTS);

let passed = 0;
let failed = 0;

/** `beast ring --json` on a scenario (or null) and a move string. Exit 0 or 1 are both fine. */
function cli(scenario, moves) {
  const args = ['ring', '--json'];
  if (scenario) args.push('--scenario', scenario);
  if (moves) args.push(moves);
  const run = spawnSync(BEAST, args, { encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) {
    throw new Error(`beast ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  }
  return JSON.parse(run.stdout);
}

/** Every status field of the page, plus its dots and whether it says STAGED. */
async function pageStatus(page) {
  return page.evaluate(() => {
    const f = (name) => document.querySelector(`[data-field="${name}"]`).textContent;
    return {
      player: f('player'), guard: f('guard'), next_guard: f('next_guard'),
      turn: f('turn'), score: f('score'), remaining: f('remaining'),
      state: f('state'), message: f('message'), history: f('history'), mode: f('mode'),
      dots: [...document.querySelectorAll('#board [data-dot]')].map((c) => c.dataset.pos),
      marked_next: [...document.querySelectorAll('#board [data-next]')].map((c) => c.dataset.pos),
      route: [...document.querySelectorAll('#board [data-route]')].map((c) => c.dataset.pos).sort(),
    };
  });
}

/** What the page should show for the CLI's JSON. */
function expected(json, scenario) {
  const cell = ([r, c]) => `(${r},${c})`;
  return {
    player: cell(json.player), guard: cell(json.guard), next_guard: cell(json.next_guard),
    turn: String(json.turn), score: String(json.score), remaining: String(json.remaining),
    state: json.state, message: json.message, history: json.history,
    mode: scenario ? `STAGED scenario: ${scenario}` : 'Original game',
    dots: json.dots.map(([r, c]) => `${r},${c}`),
    // The board marks the next cell (unless the guard stands still on it) and the route.
    marked_next: json.next_guard.join(',') === json.guard.join(',') ? [] : [json.next_guard.join(',')],
    route: json.patrol.map(([r, c]) => `${r},${c}`).sort(),
  };
}

/** Compares the page with `beast ring --json` for `scenario` and `moves`; counts the step. */
async function check(page, name, scenario, moves) {
  const want = expected(cli(scenario, moves), scenario);
  const got = await pageStatus(page);
  const diffs = Object.keys(want).filter((k) => JSON.stringify(want[k]) !== JSON.stringify(got[k]));
  if (diffs.length === 0) {
    passed += 1;
    console.log(`ok   ${name}: ${got.state}, turn ${got.turn}, score ${got.score}, ` +
                `${got.remaining} left, "${got.message}"`);
  } else {
    failed += 1;
    console.log(`FAIL ${name}`);
    for (const k of diffs) {
      console.log(`       ${k}: page ${JSON.stringify(got[k])}, cli ${JSON.stringify(want[k])}`);
    }
  }
}

function assert(name, ok, detail) {
  if (ok) { passed += 1; console.log(`ok   ${name}`); }
  else { failed += 1; console.log(`FAIL ${name}: ${detail}`); }
}

const { page, requests, errors, close } = await launch('chromium', { width: 360, height: 740 });
try {
  const url = pathToFileURL(PAGE).href;
  await page.goto(url);

  const click = (sel) => page.click(sel);
  const move = (d) => click(`[data-move="${d}"]`);
  const scenario = (s) => click(`[data-scenario="${s}"]`);

  await check(page, 'start', null, '');
  await move('R');
  await check(page, 'Right from the start (button)', null, 'R');

  // Each staged scenario, its losing move, and a move refused after the ending.
  const staged = [['shared-destination', 'R'], ['exchanged-edge', 'L'], ['final-item', 'R']];
  for (const [name, then] of staged) {
    await scenario(name);
    await check(page, `load ${name}`, name, '');
    await move(then);
    await check(page, `${name} then ${then}`, name, then);
    await move('D');
    await check(page, `${name}: D refused after the ending`, name, `${then}D`);
  }

  await click('#reset');
  await check(page, 'reset after a staged loss', null, '');
  await move('U');
  await check(page, 'blocked Up from the start', null, 'U');
  await move('R');
  await check(page, 'Right after the blocked Up', null, 'UR');
  await click('#reset');
  await check(page, 'reset', null, '');

  // Arrow keys on the focused board; a held key (repeat) is not a fresh action.
  await page.focus('#board');
  await page.keyboard.down('ArrowRight');
  await page.keyboard.down('ArrowRight'); // repeat: true
  await page.keyboard.down('ArrowRight'); // repeat: true
  await page.keyboard.up('ArrowRight');
  await check(page, 'held ArrowRight moves once', null, 'R');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown',
                     'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft']) {
    await page.keyboard.press(key);
  }
  await check(page, 'arrow keys RRRDDLLLL', null, 'RRRRDDLLLL');
  await page.keyboard.press('ArrowUp');
  await check(page, 'arrow Up collects the last dot: won', null, 'RRRRDDLLLLU');
  await page.keyboard.press('ArrowUp');
  await check(page, 'Up refused after the win', null, 'RRRRDDLLLLUU');

  // The 360-px phone view: a staged position mid-game, no sideways scrolling.
  await click('#reset');
  await move('R');
  await scenario('final-item');
  await check(page, 'final-item loaded for the screenshot', 'final-item', '');
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert('no horizontal scrolling at 360 px', widths[0] <= widths[1], `scrollWidth ${widths[0]} > ${widths[1]}`);
  const shot = join(ARTIFACTS, 'ring-360.png');
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`     screenshot: ${shot}`);

  const outside = requests.filter((u) => u !== url);
  assert('no request beyond the page itself', outside.length === 0, outside.join(', '));
  assert('no script errors', errors.length === 0, errors.join(' | '));
} finally {
  await close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
