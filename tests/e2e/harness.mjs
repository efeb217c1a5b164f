// Shared set-up for the end-to-end tests: Debian's (or any local) Chromium driven by playwright-core.
// `cargo xtask test` serves www/ and passes NETCODE_LAB_URL, CHROMIUM and NETCODE_LAB_ARTIFACTS.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const BASE_URL = process.env.NETCODE_LAB_URL ?? 'http://127.0.0.1:8080/';
const ARTIFACTS = process.env.NETCODE_LAB_ARTIFACTS ?? 'artifacts/e2e';

const CHROME_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: CHROME_ARGS });
}

/**
 * A page that records console errors, missing strings (i18n warnings), page errors and every request that leaves
 * the test server.
 * `problems()` lists what went wrong; most tests assert it is empty.
 */
export async function openPage(browser, { path = '', viewport = { width: 1280, height: 800 }, before } = {}) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  const foreign = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
    // A string-table key with no string (i18n.js shows a word in its place and warns once): a bug too.
    if (m.type() === 'warning' && m.text().startsWith('i18n:')) errors.push(`console.warn: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => { if (!r.url().startsWith(BASE_URL) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreign.push(r.url()); });
  if (before) await before(page);
  await page.goto(new URL(path, BASE_URL).href);
  return { page, errors, foreign, problems: () => [...errors, ...foreign.map((u) => `request to another host: ${u}`)] };
}

/** Waits for the whole page: the first frame (`data-ready`) and what is built after it (`data-complete`). */
export async function waitReady(page) {
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true' || document.documentElement.dataset.failed === 'true');
  const failed = await page.evaluate(() => document.documentElement.dataset.failed === 'true');
  if (failed) throw new Error(`page failed: ${await page.textContent('#banner')}`);
}

/**
 * Figures below the fold are drawn only as they come near the viewport (scheduler.js `deferred`, offscreen.js):
 * waits for those near it now (drawn by the page itself, one figure per task, as they scroll in), then has the page
 * draw those still far off screen (`drawDeferred`, as a figure's PNG does), so a canvas read next shows this run.
 */
export async function figuresDrawn(page) {
  await page.waitForFunction(() => {
    const painters = window.netcodeLab?.app?.scheduler?.painters;
    return !painters || !painters.some((p) => p.deferred && (p.onScreen || p.catchingUp));
  });
  await page.evaluate(() => window.netcodeLab?.app?.drawDeferred?.());
}

/**
 * A page function (it runs in the page; pass it as `paintedPixels.toString()` where a test builds its own): the
 * pixels of `canvas` that are not transparent, and a checksum that changes when the drawing changes.
 */
export function paintedPixels(canvas) {
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  let checksum = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] !== 0) painted += 1;
    checksum = (checksum * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2] + 17 * data[i + 3]) % 2147483647;
  }
  return { painted, total: data.length / 4, checksum };
}

/** Pixels of a canvas that are not transparent, and a checksum that changes when the drawing changes. */
export async function canvasStats(page, selector) {
  await figuresDrawn(page);
  return page.$eval(selector, paintedPixels);
}

export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The playground's URL hash once it has caught up with the last change (writes are throttled during drags). */
export async function urlHash(page) {
  await page.waitForFunction(() => window.netcodeLab?.app?.scheduler?.urlCaughtUp ?? true);
  return page.evaluate(() => location.hash);
}
