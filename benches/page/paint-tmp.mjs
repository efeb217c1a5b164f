import { launch } from './load.mjs';
const b = await launch();
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
await p.goto(process.argv[2]);
await p.waitForFunction(() => document.documentElement.dataset.ready === 'true');
await p.waitForTimeout(1000);
console.log(await p.evaluate(() => {
  const app = window.netcodeLab.app; app.state.playing = false;
  const names = ['views', 'lanes', 'plots', 'comparison'];
  const out = {};
  for (let rep = 0; rep < 3; rep++) {
    const model = app.model; const frames = model.table('frames'); const index = model.frameAt(5, frames);
    const ctx = { model, frames, index, frame: model.frameRow(index, frames), playhead: 5, theme: app.theme, runChanged: true, state: app.state };
    app.painters.forEach((pt, i) => { const t0 = performance.now(); pt.draw(ctx); out[names[i]] = (out[names[i]] ?? []).concat((performance.now() - t0).toFixed(1)); });
    const t0 = performance.now(); app.model._metrics = null; app.model.metrics(); out.metrics = (out.metrics ?? []).concat((performance.now() - t0).toFixed(1));
  }
  return JSON.stringify(out);
}));
await b.close();
