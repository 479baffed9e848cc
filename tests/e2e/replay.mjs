// Drives the replay pages (`beast --html`, `beast --html --compare`) in headless Chromium:
// steps through every turn of the Wikipedia sample and compares the page's board, words and
// score with `beast --trace` and `beast --json` for the same moves; checks that the compare
// page's first difference is the first turn where the two readings' traces differ; and
// saves screenshots at 360 px and 1200 px.
//
// Environment: BEAST (the binary), SAMPLE (the Wikipedia puzzle), REPLAY, COMPARE, PIPED
// BIG (the written pages), COMPARE_FLAGS, ARTIFACTS (screenshot folder), CHROMIUM.
import { launch } from './browser.mjs';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const BEAST = process.env.BEAST;
const SAMPLE = process.env.SAMPLE;
const ARTIFACTS = resolve(process.env.ARTIFACTS);
const COMPARE_FLAGS = process.env.COMPARE_FLAGS;

let passed = 0;
let failed = 0;
function assert(name, ok, detail) {
  if (ok) { passed += 1; console.log(`ok   ${name}`); }
  else { failed += 1; console.log(`FAIL ${name}: ${detail}`); }
}

function beast(args, input) {
  const run = spawnSync(BEAST, args, { encoding: 'utf8', input });
  if (run.status !== 0) throw new Error(`beast ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run;
}

/** `beast --trace` as turns: [{ words, board }], turn 0 first. */
function trace(file, flags = []) {
  const err = beast(['--trace', '--style', 'ascii', ...flags, file]).stderr;
  const turns = [];
  for (const block of err.split('\n\n')) {
    const lines = block.split('\n');
    if (!lines[0].startsWith('turn ')) continue;
    turns.push({ words: lines[0], board: lines.slice(1).join('\n') });
  }
  return turns;
}

/** The score after every turn, from `beast --json`'s crushes. */
function scores(file, turns) {
  const json = JSON.parse(beast(['--json', file]).stdout);
  return { json, at: (t) => 2 * json.crushed.filter((c) => c.turn <= t).length };
}

async function pageState(page, i = 0) {
  return page.evaluate((i) => {
    const f = (n) => document.querySelector(`[data-field="${n}"]`).textContent;
    return { turn: f('turn'), words: f(`words-${i}`), score: f(`score-${i}`), state: f(`state-${i}`),
             board: window.boardText(i) };
  }, i);
}

const { page, requests, errors, close } = await launch('replay', { width: 1200, height: 900 });
try {
  const urls = [];
  const open = async (file) => {
    const url = pathToFileURL(resolve(file)).href;
    urls.push(url);
    await page.goto(url);
  };

  // 1. The replay of the Wikipedia sample, turn by turn against --trace and --json.
  await open(process.env.REPLAY);
  const want = trace(SAMPLE);
  const { json, at } = scores(SAMPLE);
  let mismatches = [];
  for (let t = 0; t < want.length; t++) {
    if (t > 0) await page.keyboard.press('ArrowRight');
    const got = await pageState(page);
    const expect = { turn: String(t), words: want[t].words, score: String(at(t)), board: want[t].board };
    for (const k of Object.keys(expect)) {
      if (got[k] !== expect[k]) mismatches.push(`turn ${t} ${k}: page ${JSON.stringify(got[k])}, cli ${JSON.stringify(expect[k])}`);
    }
  }
  assert(`every one of ${want.length - 1} turns matches --trace and --json (board, words, score)`,
         mismatches.length === 0, mismatches.slice(0, 5).join('\n       '));
  const end = await pageState(page);
  assert('the last turn shows the judged outcome', end.state === json.outcome && end.score === String(json.score),
         `${end.state} ${end.score} vs ${json.outcome} ${json.score}`);
  await page.keyboard.press('ArrowRight');
  assert('no step past the last turn', (await pageState(page)).turn === String(want.length - 1), '');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  const back = await pageState(page);
  assert('stepping back undoes a turn exactly', back.board === want[1].board && back.words === want[1].words,
         back.words);
  const highlighted = await page.evaluate(() => document.querySelector('#moves mark')?.textContent);
  assert('the current move is highlighted', highlighted === 'R', String(highlighted));
  const turnNow = () => page.evaluate(() => document.querySelector('[data-field="turn"]').textContent);
  await page.click('#play');
  await page.waitForFunction(() => document.querySelector('[data-field="turn"]').textContent === '4');
  await page.click('#play');
  const paused = await turnNow();
  await page.waitForTimeout(700);
  assert('play runs the turns on, pause stops them', Number(paused) >= 4 && (await turnNow()) === paused,
         `paused at ${paused}, then ${await turnNow()}`);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press('Home');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-field="turn"]').textContent === '2');
  await page.keyboard.press('Space');
  const spaced = await turnNow();
  await page.waitForTimeout(700);
  assert('space plays and pauses', Number(spaced) >= 2 && (await turnNow()) === spaced, `${spaced}, then ${await turnNow()}`);
  await page.evaluate(() => { document.getElementById('slider').value = '10'; document.getElementById('slider').dispatchEvent(new Event('input')); });
  const slid = await pageState(page);
  assert('the slider jumps to a turn', slid.turn === '10' && slid.board === want[10].board, slid.turn);
  await page.keyboard.press('End');
  await page.screenshot({ path: join(ARTIFACTS, 'replay-1200.png'), fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.keyboard.press('Home');
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert('no horizontal scrolling at 360 px', widths[0] <= widths[1], `scrollWidth ${widths[0]} > ${widths[1]}`);
  await page.screenshot({ path: join(ARTIFACTS, 'replay-360.png'), fullPage: true });

  // 2. The compare page: its first difference is where the two traces first differ.
  await page.setViewportSize({ width: 1200, height: 900 });
  await open(process.env.COMPARE);
  const other = trace(SAMPLE, COMPARE_FLAGS.split(' '));
  // Our reading's turn words end with its rule events (`  [push-one, ...]`), which no other
  // reading's trace carries: those marks are no difference in what happened.
  const happened = (words) => words.replace(/\s+\[[a-z0-9, -]+\]$/, '');
  let firstDiff = null;
  for (let t = 0; t < Math.max(want.length, other.length); t++) {
    const a = want[t], b = other[t];
    if (!a || !b || happened(a.words) !== happened(b.words) || a.board !== b.board) { firstDiff = t; break; }
  }
  const pageDiff = await page.evaluate(() => document.querySelector('[data-field="first-difference"]').textContent);
  assert(`the first difference is turn ${firstDiff}, where the traces under ${COMPARE_FLAGS} first differ`,
         pageDiff === String(firstDiff), `page says ${pageDiff}`);
  await page.click('#jump');
  const left = await pageState(page, 0), right = await pageState(page, 1);
  assert('jump goes to the first difference and both boards show the traces there',
         left.turn === pageDiff && left.board === want[firstDiff].board && right.board === other[firstDiff].board,
         `${left.turn}: ${left.words} | ${right.words}`);
  await page.screenshot({ path: join(ARTIFACTS, 'compare-1200.png'), fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: join(ARTIFACTS, 'compare-360.png'), fullPage: true });

  // 3. A page written in a pipe (`beast gen --seed 7 | beast --html -`) ends on --json's score.
  await page.setViewportSize({ width: 1200, height: 900 });
  await open(process.env.PIPED);
  const gen = beast(['gen', '--seed', '7']).stdout;
  const genJson = JSON.parse(beast(['--json', '-'], gen).stdout);
  await page.keyboard.press('End');
  const last = await pageState(page);
  assert('the piped page ends on the judged score and outcome',
         last.score === String(genJson.score) && last.state === genJson.outcome,
         `${last.state} ${last.score} vs ${genJson.outcome} ${genJson.score}`);

  // 4. A 1000x1000 map with 1,000 beasts: the page is cut at a stated turn and still steps.
  const started = Date.now();
  await open(process.env.BIG);
  const cutText = await page.evaluate(() => document.getElementById('cut').textContent);
  const m = cutText.match(/stops at turn (\d+)/);
  assert('the 1000x1000 page says where it was cut', m !== null, cutText);
  await page.keyboard.press('End');
  const bigEnd = await pageState(page);
  assert('the cut page ends on its stated turn', m && bigEnd.turn === m[1], `${bigEnd.turn} vs ${cutText}`);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert('the 1000x1000 page opens and steps in under 10 s', Date.now() - started < 10000,
         `${Date.now() - started} ms`);
  await page.click('#zoomin');
  await page.screenshot({ path: join(ARTIFACTS, 'big-1200.png') });

  const outside = requests.filter((u) => !urls.includes(u));
  assert('no request beyond the pages themselves', outside.length === 0, outside.join(', '));
  assert('no script errors', errors.length === 0, errors.join(' | '));
  const size = readFileSync(process.env.REPLAY).length;
  console.log(`     the sample page is ${size} bytes; screenshots in ${ARTIFACTS}`);
} finally {
  await close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
