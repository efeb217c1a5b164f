// The packet inspector (page guide §3 and §6): point at, tap or focus a snapshot on the timeline lanes and
// its whole chain lights up —
//   ■ sent (server lane) → ○ arrived (arrival lane) → ■ on the render lane, where the render cursor plays it,
// the same snapshot in the Server view (where the entity was) and the Remote view (the ■ the buffer holds) —
// and a sentence under the lanes gives its numbers: send and arrival time, the one-way delay split into the
// link's base latency and this packet's jitter (seed 002 "到达时间"), what the buffer did with it, how long it
// waited before the render time reached it (the render delay at work, seed 000 §4.3.2), and whether it is in
// the interpolation pair right now, with α. A lost packet says the buffer never sees it.
// Hover shows; a tap pins (tap empty space to let go). Keyboard: focus the lanes (Tab), ← → pick the previous
// or next packet (the playhead follows when paused and it is out of the window), Esc lets go. The pin is a
// tick, so it survives a slider change: drag the jitter and watch the same packet's fate change.
// While the step-through shows a step, it owns the highlight and the inspector stays quiet.
import { reader, lowerBound, bracketOf, tickRows } from './views/view-kit.js';
import { t } from './strings/i18n.js';
import { getZoom } from './canvas.js';

/** How near (CSS px) the pointer must come to a packet's ■ → ○ line to pick it. */
const PICK_RADIUS = 9;
/** How far past its arrival to look for the frame whose render time reaches a snapshot (s). */
const PLAY_SEARCH = 4;

/** Row of snapshot `tick` in the current run, or −1. */
export function tickRow(model, tick) {
  return tickRows(model).get(tick) ?? -1;
}

/**
 * Everything the inspector says about snapshot row `i` at frame `index`: `{tick, serverTime, sent, arrival,
 * duplicate, lost, oneWay, base, jitter, outcome, outOfOrder, playedAt, wait, pair, alpha}` (times in s;
 * `playedAt` is the local time the render time reached the snapshot's server time, NaN if not within the run).
 */
export function packetFacts(model, frames, index, i) {
  const snaps = model.table('snapshots');
  const s = reader(snaps);
  const tick = s(i, 'tick');
  const serverTime = s(i, 'serverTime');
  const sent = s(i, 'sent');
  const arrival = s(i, 'arrival');
  const outcomeCode = s(i, 'outcome');
  const base = model.imported ? NaN : model.params.network.downlink.latency;
  const oneWay = arrival - sent;
  const playedAt = playedAtOf(frames, serverTime, Number.isFinite(arrival) ? Math.min(sent, arrival) : sent);
  const bracket = bracketOf(model, frames, index);
  const pair = bracket.left?.tick === tick ? 'left' : bracket.right?.tick === tick ? 'right' : null;
  return {
    tick, serverTime, sent, arrival, duplicate: s(i, 'duplicateArrival'), lost: Number.isNaN(arrival),
    oneWay, base, jitter: oneWay - base,
    outcome: Number.isNaN(outcomeCode) ? null : model.codes.snapshotOutcome[outcomeCode],
    outOfOrder: s(i, 'outOfOrder') === 1,
    playedAt, wait: playedAt - arrival,
    pair, alpha: pair ? bracket.alpha : NaN,
  };
}

/** The local time of the first frame, from `from` on, whose render time has reached `serverTime`. */
function playedAtOf(frames, serverTime, from) {
  const at = reader(frames);
  const start = lowerBound(frames, 'local', from);
  for (let j = start; j < frames.rows; j++) {
    const local = at(j, 'local');
    if (local > from + PLAY_SEARCH) break;
    if (at(j, 'renderTime') >= serverTime) return local;
  }
  return NaN;
}

const ms = (s) => Math.round(s * 1000);
const sec = (s) => s.toFixed(3);

/** The inspector's sentence for `f` (packetFacts), in the current language. */
export function describe(f) {
  const parts = [t('inspect.head', { tick: f.tick }), t('inspect.sent', { t: sec(f.sent) })];
  if (f.lost) {
    parts.push(t('inspect.lost'));
    return parts.join(' · ');
  }
  const delay = Number.isFinite(f.base)
    ? t('inspect.oneWaySplit', { ms: ms(f.oneWay), base: ms(f.base), jitter: `${f.jitter >= 0 ? '+' : '−'}${Math.abs(ms(f.jitter))}` })
    : t('inspect.oneWay', { ms: ms(f.oneWay) });
  parts.push(`${t('inspect.arrived', { t: sec(f.arrival) })} (${delay})`);
  if (f.outOfOrder) parts.push(t('inspect.outOfOrder'));
  if (f.outcome && f.outcome !== 'inserted') parts.push(t(`inspect.outcome.${f.outcome}`));
  if (Number.isFinite(f.duplicate)) parts.push(t('inspect.duplicate', { t: sec(f.duplicate) }));
  if (f.outcome === null || f.outcome === 'inserted') {
    if (!Number.isFinite(f.playedAt)) parts.push(t('inspect.notPlayed'));
    else if (f.wait >= 0) parts.push(t('inspect.played', { t: sec(f.playedAt), ms: ms(f.wait) }));
    else parts.push(t('inspect.tooLate', { ms: ms(-f.wait) }));
  }
  if (f.pair) parts.push(t(`inspect.pair.${f.pair}`, { alpha: Number.isFinite(f.alpha) ? f.alpha.toFixed(2) : '—' }));
  return parts.join(' · ');
}

/** The packet nearest to (x, y) on the lanes (CSS px), or null: distance to its ■ → ○ line (■ → ✕ when lost). */
export function pick(model, geometry, x, y) {
  const { L, t0, t1 } = geometry;
  const X = (tt) => L.left + ((tt - t0) / (t1 - t0)) * (L.right - L.left);
  const snaps = model.table('snapshots');
  const s = reader(snaps);
  const latency = model.imported ? 0 : model.params.network.downlink.latency;
  let best = null;
  for (let i = lowerBound(snaps, 'sent', t0 - 1); i < snaps.rows; i++) {
    const sent = s(i, 'sent');
    if (sent > t1) break;
    const arrival = s(i, 'arrival');
    const end = Number.isNaN(arrival) ? sent + latency : arrival;
    const d = segmentDistance(x, y, X(sent), L.y.send, X(end), L.y.arrival);
    if (d <= PICK_RADIUS && (!best || d < best.d)) best = { i, tick: s(i, 'tick'), d };
  }
  return best;
}

function segmentDistance(px, py, x0, y0, x1, y1) {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  const u = len2 > 0 ? Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2)) : 0;
  return Math.hypot(px - (x0 + u * dx), py - (y0 + u * dy));
}

/**
 * Wires the lanes canvas and the sentence under it. `current()` is the packet shown (`{tick, i}` or null) for the
 * lanes and views to draw (the page puts it in the scene: `scene.inspected`); `draw(scene)` keeps the sentence up to
 * date. `host`: `model()`, `playhead()`, `playing()`, `seek(t)`, `redraw()`, `highlight()` (the step-through's
 * subject, which wins over the inspector) and `lanes()` (the lanes as last drawn: their window and layout).
 */
export function mount(host) {
  const canvas = document.getElementById('lanes');
  const row = document.getElementById('inspector');
  let hovered = null; // tick under the pointer
  let pinned = null; // tick tapped or chosen with the keys
  let text = null;
  canvas.tabIndex = 0;

  const geometry = () => {
    const last = host.lanes();
    if (!last?.window || !last.layout) return null;
    return { L: last.layout, t0: last.window[0], t1: last.window[1] };
  };
  const at = (event) => {
    const rect = canvas.getBoundingClientRect();
    const z = getZoom(); // present mode draws the lanes zoomed: back to the drawing's own px
    return [(event.clientX - rect.left) / z, (event.clientY - rect.top) / z];
  };
  const redraw = () => host.redraw();
  const quiet = () => Boolean(host.highlight()); // the step-through owns the highlight

  canvas.addEventListener('pointermove', (event) => {
    const g = geometry();
    if (!g || quiet()) return;
    const hit = pick(host.model(), g, ...at(event));
    const tick = hit?.tick ?? null;
    canvas.style.cursor = hit ? 'pointer' : '';
    if (tick !== hovered) {
      hovered = tick;
      if (!host.playing()) redraw();
    }
  });
  canvas.addEventListener('pointerleave', () => {
    if (hovered === null) return;
    hovered = null;
    if (!host.playing()) redraw();
  });
  canvas.addEventListener('click', (event) => {
    const g = geometry();
    if (!g || quiet()) return;
    pinned = pick(host.model(), g, ...at(event))?.tick ?? null;
    redraw();
  });
  canvas.addEventListener('keydown', (event) => {
    if (quiet() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Escape' && (pinned !== null || hovered !== null)) {
      pinned = hovered = null;
      event.preventDefault();
      return redraw();
    }
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    step(event.key === 'ArrowRight' ? 1 : -1);
  });

  /** The previous or next packet (from the pinned one, or from the newest sent by the playhead). */
  function step(direction) {
    const model = host.model();
    const snaps = model.table('snapshots');
    if (!snaps.rows) return;
    const from = pinned !== null ? tickRow(model, pinned) : -1;
    const i = from >= 0
      ? Math.max(0, Math.min(snaps.rows - 1, from + direction))
      : Math.max(0, lowerBound(snaps, 'sent', host.playhead() + 1e-9) - 1);
    pinned = reader(snaps)(i, 'tick');
    const g = geometry();
    const sent = reader(snaps)(i, 'sent');
    if (!host.playing() && g && (sent < g.t0 || sent > host.playhead())) {
      host.seek(sent + (g.t1 - g.t0) * 0.25); // in view, a little after it was sent
    } else {
      redraw();
    }
  }

  return {
    /** The packet to show: the hovered one, else the pinned one (null while the step-through shows a step). */
    current() {
      if (quiet()) return null;
      const tick = hovered ?? pinned;
      if (tick === null) return null;
      const i = tickRow(host.model(), tick);
      return i < 0 ? null : { tick, i };
    },
    pinned: () => pinned,
    draw({ model, frames, index }) {
      const c = this.current();
      const next = c ? describe(packetFacts(model, frames, index, c.i)) : t('inspect.hint');
      const tick = c ? String(c.tick) : '';
      if (row.dataset.tick !== tick) row.dataset.tick = tick; // an attribute set, even to its value, restyles the row
      if (next !== text) row.textContent = text = next;
    },
  };
}
