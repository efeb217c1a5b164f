import { launch } from './load.mjs';
const b = await launch();
for (const [w, h] of [[412, 823], [1280, 800]]) {
  const p = await b.newPage({ viewport: { width: w, height: h } });
  await p.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__shifts.push({ t: Math.round(e.startTime), v: e.value.toFixed(4), src: e.sources.map((s) => { const n = s.node; return n ? (n.id || n.className || n.nodeName) + ` ${s.previousRect.y}->${s.currentRect.y} h${s.previousRect.height}->${s.currentRect.height}` : '?'; }).join(', ') }); }).observe({ type: 'layout-shift', buffered: true });
  });
  await p.goto(process.argv[2]);
  await p.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  await p.waitForTimeout(2000);
  const s = await p.evaluate(() => window.__shifts);
  console.log(w, 'CLS', s.reduce((a, e) => a + Number(e.v), 0).toFixed(3));
  for (const e of s) console.log('  ', e.t, e.v, e.src);
  await p.close();
}
await b.close();
