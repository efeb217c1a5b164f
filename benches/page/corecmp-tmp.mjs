import { launch } from '/work/i14/benches/page/load.mjs';
import { measureCore } from '/work/i14/benches/page/core.mjs';
const b = await launch();
for (const [name, url] of process.argv.slice(2).map((a) => a.split('='))) {
  const r = await measureCore(b, url);
  console.log(name, Object.entries(r).map(([k, v]) => `${k.slice(0, 40)}: ${v.min.toFixed(2)}`).join(' | '));
}
await b.close();
