// Lighthouse's mobile preset (its default: simulated Slow 4G, 4× CPU, a 412 px phone) against the served page.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROME_ARGS } from './load.mjs';

export async function measureLighthouse(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_ARGS.map((f) => (f === '--headless' ? '--headless=new' : f)),
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port, output: 'json', logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    const lhr = result.lhr;
    const audit = (id) => lhr.audits[id];
    const score = (c) => Math.round((lhr.categories[c]?.score ?? NaN) * 100);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      cls: audit('cumulative-layout-shift').numericValue,
      tbt: audit('total-blocking-time').numericValue,
      tti: audit('interactive').numericValue,
      fcp: audit('first-contentful-paint').numericValue,
      lcp: audit('largest-contentful-paint').numericValue,
      uncompressedKiB: (audit('uses-text-compression').details?.items ?? []).reduce((sum, item) => sum + (item.totalBytes ?? 0), 0) / 1024,
      totalKiB: audit('total-byte-weight').numericValue / 1024,
      speedIndex: audit('speed-index').numericValue,
      // The main thread's long tasks as Lighthouse counts them (simulated 4× CPU): start, duration, script.
      longTasks: (audit('long-tasks').details?.items ?? []).map((t) => ({ start: Math.round(t.startTime), ms: Math.round(t.duration), url: String(t.url ?? '').replace(/^https?:\/\/[^/]+\//, '/') })),
      failed: Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1 && ['accessibility', 'best-practices'].some((c) => lhr.categories[c]?.auditRefs.some((r) => r.id === a.id && r.weight > 0))).map((a) => a.id),
    };
  } finally {
    await chrome.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureLighthouse(process.argv[2] ?? 'http://127.0.0.1:8080/');
  const { longTasks, ...figures } = result;
  console.log(JSON.stringify(figures));
  for (const t of longTasks) console.log(`${String(t.start).padStart(6)} ms  ${String(t.ms).padStart(5)} ms  ${t.url}`);
}
