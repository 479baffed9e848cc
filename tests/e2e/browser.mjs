// What both page tests share: a headless Chromium on a profile of its own, and a page whose
// requests and script errors are recorded for the "no load, no error" checks.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Starts Chromium at `viewport`; returns its context, first page, the URLs it requested,
// the errors it reported, and `close`, which ends it and removes its profile.
export async function launch(name, viewport) {
  const userDataDir = mkdtempSync(join(tmpdir(), `beast-e2e-${name}-`));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
    deviceScaleFactor: 1,
  });
  const page = context.pages()[0] ?? await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const close = async () => {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, page, requests, errors, close };
}
