import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
const page = await context.newPage();
await browser.startTracing(page, { categories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
await page.goto(process.argv[2]);
await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
const ready = await page.evaluate(() => performance.now());
const buf = await browser.stopTracing();
const events = JSON.parse(buf.toString()).traceEvents;
const main = events.filter(e => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map(e => e.tid);
const sums = new Map();
for (const e of events) if (main.includes(e.tid) && e.ph === 'X' && e.dur) sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
console.log('ready', ready.toFixed(0));
console.log([...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(1).padStart(8)} ms ${k}`).join('\n'));
// long top-level tasks
const tasks = events.filter(e => main.includes(e.tid) && e.name === 'RunTask' && e.dur > 30000).map(e => (e.dur/1000).toFixed(0));
console.log('tasks>30ms', tasks.join(' '));
await browser.close();
