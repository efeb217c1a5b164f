import { launch } from './load.mjs';
const b = await launch();
const [url, out, w, h, full] = process.argv.slice(2);
const p = await b.newPage({ viewport: { width: Number(w), height: Number(h) } });
await p.goto(url);
await p.waitForFunction(() => document.documentElement.dataset.ready === 'true');
await p.waitForTimeout(800);
await p.screenshot({ path: out, fullPage: full === 'full' });
await b.close();
