// The bad-input catalogue (tests/bad-inputs/catalogue.json, see its README) for the page's runner: each entry's
// input built exactly as tests/bad-inputs/catalogue.rs builds it for the Rust runners.
import { readFileSync } from 'node:fs';

export const catalogue = JSON.parse(readFileSync(new URL('../bad-inputs/catalogue.json', import.meta.url), 'utf8'));

/** Whether a trace entry runs at `door` (`cli`, `page`, `binding`; all of them when it names none). */
export const atDoor = (entry, door) => !entry.doors || entry.doors.includes(door);

/** `text` with `@NEST@` and `@LONG@` expanded. */
export function expanded(entry, text) {
  let out = text;
  if (entry.nest) out = out.replace('@NEST@', '['.repeat(entry.nest) + ']'.repeat(entry.nest));
  if (entry.long) out = out.replace('@LONG@', '9'.repeat(entry.long));
  return out;
}

/** A generated trace (too big to commit). */
export function generate({ kind, count }) {
  const head = '{"format":"netcode-lab/trace@1","kind":"snapshots",';
  if (kind === 'snapshots') {
    const rows = [];
    for (let i = 0; i < count; i += 1) rows.push(`{"tick":${i},"serverTime":${i},"arrival":${i},"x":${i},"y":0,"vx":0,"vy":0}`);
    return `${head}"snapshots":[${rows.join(',')}],"sampleAt":[0,1,2]}`;
  }
  if (kind === 'sampleAt') return `${head}"snapshots":[],"sampleAt":[${'0,'.repeat(count).slice(0, -1)}]}`;
  if (kind === 'note') return `${head}"note":"${'n'.repeat(count)}","snapshots":[],"sampleAt":[]}`;
  if (kind === 'arrivals') {
    const rows = ['seq,arrival\n'];
    for (let i = 0; i < count; i += 1) rows.push(`${i},${i}\n`);
    return rows.join('');
  }
  throw new Error(`unknown generator ${kind}`);
}

/** What the page (and the binding's importTrace) must say: the entry's line, or — for an accepted trace of kind
 * "paths", which the views cannot show — that refusal. */
export function errorInTheViews(entry) {
  if (entry.error !== null) return entry.error;
  return /"kind"\s*:\s*"paths"/.test(entry.text ?? '') ? 'kind: only traces of kind "snapshots" can be shown in the views' : null;
}

/** The entry's input as a Buffer. */
export function bytes(entry) {
  if (entry.hex !== undefined) return Buffer.from(entry.hex, 'hex');
  if (entry.generate) return Buffer.from(generate(entry.generate), 'utf8');
  const text = expanded(entry, entry.text);
  if (entry.encoding === 'utf-16le') return Buffer.from(text, 'utf16le');
  if (entry.encoding === 'utf-16be') return Buffer.from(text, 'utf16le').swap16();
  if (entry.encoding) throw new Error(`${entry.id}: unknown encoding ${entry.encoding}`);
  return Buffer.from(text, 'utf8');
}
