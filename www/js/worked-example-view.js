// Draws seed 002's worked example: the world track, the three timeline lanes and the rendered-x curve.
// All numbers come from Rust through Float64Array views over wasm memory; views are rebuilt on every draw
// because a growing wasm memory detaches old ones. Every word comes from `t()` (zh / en), the status with its
// glyph as on the playground, and the core's reason is re-worded from its numbers (`reasonText`).

import { COLORS, FONT, theme as themeColors, line, text as label, square, circle, diamond, ratio } from './canvas.js';
import { t } from './strings/i18n.js';
import { statusText } from './readouts.js';

const STATUS_READY = 1;
const FRAME = { local: 0, renderTime: 1, status: 2, x: 3, left: 4, right: 5, factor: 6, delay: 7 };

function readFrame(playground) {
  const view = playground.frameView();
  const frame = {};
  for (const [name, index] of Object.entries(FRAME)) frame[name] = view[index];
  return frame;
}

function readRows(view, width) {
  const rows = [];
  for (let i = 0; i + width <= view.length; i += width) rows.push(Array.from(view.subarray(i, i + width)));
  return rows;
}

export class ExampleView {
  constructor(canvas, Playground) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.Playground = Playground;
    // The aspect ratio lives on the canvas (as canvas.js `surface` keeps it), so an embed can make it flatter.
    canvas.dataset.aspect ??= String(canvas.height / canvas.width);
  }

  get aspect() {
    return Number(this.canvas.dataset.aspect);
  }

  fitToScreen() {
    const dpr = ratio(); // the screen's, or 2 while a PNG is drawn (canvas.js withExportRatio)
    const cssWidth = this.canvas.clientWidth || this.canvas.width;
    const cssHeight = Math.round(cssWidth * this.aspect);
    if (this.canvas.width !== Math.round(cssWidth * dpr) || this.canvas.height !== Math.round(cssHeight * dpr)) {
      this.canvas.width = Math.round(cssWidth * dpr);
      this.canvas.height = Math.round(cssHeight * dpr);
    }
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { w: cssWidth, h: cssHeight };
  }

  draw(playground) {
    const frame = readFrame(playground);
    const snapshots = readRows(playground.snapshotsView(), 4).map(([tick, serverTime, arrival, x]) => ({ tick, serverTime, arrival, x }));
    const curve = readRows(playground.curveView(), 3);
    const { w, h } = this.fitToScreen();
    const ctx = this.ctx;
    const theme = themeColors();
    ctx.clearRect(0, 0, w, h);

    const left = 150;
    const right = w - 24;
    const t0 = playground.windowStart;
    const t1 = playground.windowEnd;
    const tx = (t) => left + ((t - t0) / (t1 - t0)) * (right - left);
    const arrived = snapshots.filter((s) => s.arrival <= frame.local);

    this.drawTrack(ctx, theme, { left, right, top: 14, frame, snapshots, arrived });
    this.drawLanes(ctx, theme, { left, right, top: 120, tx, frame, snapshots, arrived });
    this.drawCurve(ctx, theme, { left, right, top: 300, bottom: h - 26, tx, frame, curve });
    this.drawAxis(ctx, theme, { left, right, y: h - 14, tx, t0, t1 });
    this.updateReadout(frame, playground);
  }

  drawTrack(ctx, theme, { left, right, top, frame, snapshots, arrived }) {
    const y = top + 52;
    const xs = (x) => left + ((x + 0.25) / 2.5) * (right - left);
    label(ctx, theme.ink, fit(ctx, t('we.world'), left - 20, 12), 12, top + 12);
    label(ctx, theme.muted, fit(ctx, t('we.xPosition'), left - 20, 12), 12, top + 28, 12);
    ctx.strokeStyle = theme.line;
    ctx.lineWidth = 1;
    line(ctx, xs(-0.25), y, xs(2.25), y);
    for (const s of snapshots) {
      const has = arrived.includes(s);
      square(ctx, xs(s.x), y, 9, COLORS.snapshot, has);
      label(ctx, has ? theme.ink : theme.muted, t(has ? 'we.tick' : 'we.tickNotYet', { tick: s.tick }), xs(s.x), y + 24, 12, 'center');
    }
    if (frame.status === STATUS_READY) {
      diamond(ctx, xs(frame.x), y, 10, COLORS.render);
      label(ctx, COLORS.render, t('we.rendered', { x: frame.x.toFixed(2) }), xs(frame.x), y - 16, 12, 'center');
    } else {
      const { glyph, name } = statusText(this.Playground.statusName(frame.status));
      label(ctx, COLORS.render, t('we.nothing', { status: `${glyph} ${name}` }), xs(0.6), y - 16, 12);
    }
  }

  drawLanes(ctx, theme, { left, right, top, tx, frame, snapshots, arrived }) {
    const lanes = { send: top + 20, arrival: top + 80, render: top + 140 };
    label(ctx, theme.ink, fit(ctx, t('lane.serverSend'), left - 20, 12), 12, lanes.send + 4);
    label(ctx, theme.ink, fit(ctx, t('we.arrivalLocal'), left - 20, 12), 12, lanes.arrival + 4);
    label(ctx, theme.ink, fit(ctx, t('lane.render'), left - 20, 12), 12, lanes.render + 4);
    ctx.strokeStyle = theme.line;
    for (const y of Object.values(lanes)) line(ctx, left, y, right, y);

    // The runway: from the render cursor to the newest snapshot that has arrived (buffer depth in time).
    const newest = Math.max(...arrived.map((s) => s.serverTime));
    if (arrived.length > 0) {
      const from = tx(frame.renderTime);
      const to = tx(newest);
      ctx.fillStyle = to >= from ? 'rgba(128,128,128,0.25)' : 'rgba(230,159,0,0.35)';
      ctx.fillRect(Math.min(from, to), lanes.render - 7, Math.abs(to - from), 14);
    }
    for (const s of snapshots) {
      ctx.strokeStyle = COLORS.arrival;
      ctx.lineWidth = 1;
      line(ctx, tx(s.serverTime), lanes.send, tx(s.arrival), lanes.arrival);
      square(ctx, tx(s.serverTime), lanes.send, 8, COLORS.snapshot, true);
      circle(ctx, tx(s.arrival), lanes.arrival, 5, COLORS.arrival, arrived.includes(s));
      label(ctx, theme.muted, String(s.tick), tx(s.serverTime) - 10, lanes.send - 10, 11);
      square(ctx, tx(s.serverTime), lanes.render, 6, COLORS.snapshot, arrived.includes(s));
    }
    if (Number.isFinite(frame.left) && Number.isFinite(frame.right)) {
      const l = snapshots.find((s) => s.tick === frame.left);
      const r = snapshots.find((s) => s.tick === frame.right);
      ctx.strokeStyle = COLORS.render;
      ctx.lineWidth = 2;
      line(ctx, tx(l.serverTime), lanes.render + 14, tx(r.serverTime), lanes.render + 14);
    }
    diamond(ctx, tx(frame.renderTime), lanes.render, 8, COLORS.render);
    ctx.strokeStyle = theme.ink;
    ctx.setLineDash([4, 3]);
    line(ctx, tx(frame.local), top - 4, tx(frame.local), lanes.render + 24);
    ctx.setLineDash([]);
    label(ctx, theme.ink, t('lane.now'), tx(frame.local), top - 8, 11, 'center'); // above the tick numbers
    ctx.strokeStyle = COLORS.render;
    ctx.lineWidth = 1;
    line(ctx, tx(frame.renderTime), lanes.render + 20, tx(frame.local), lanes.render + 20);
    label(ctx, COLORS.render, t('lane.delayShort', { ms: Math.round(frame.delay * 1000) }), tx(frame.renderTime), lanes.render + 34, 11);
  }

  drawCurve(ctx, theme, { left, right, top, bottom, tx, frame, curve }) {
    label(ctx, theme.ink, fit(ctx, t('we.renderedX'), left - 20, 12), 12, top + 10);
    label(ctx, theme.muted, fit(ctx, t('we.overLocalTime'), left - 20, 12), 12, top + 26, 12);
    const y = (x) => bottom - (x / 2) * (bottom - top - 8);
    ctx.strokeStyle = theme.line;
    ctx.lineWidth = 1;
    line(ctx, left, y(0), right, y(0));
    line(ctx, left, y(2), right, y(2));
    // Stretches where the sample is not Ready: shaded and named (status is never colour alone).
    for (const run of statusRuns(curve)) {
      if (run.status === STATUS_READY) continue;
      ctx.fillStyle = 'rgba(230,159,0,0.18)';
      ctx.fillRect(tx(run.from), top, tx(run.to) - tx(run.from), bottom - top);
      const { glyph, name } = statusText(this.Playground.statusName(run.status));
      const width = tx(run.to) - tx(run.from);
      const text = fit(ctx, [t('we.noPosition', { status: `${glyph} ${name}` }), glyph], Math.max(width - 4, 14), 12);
      label(ctx, theme.muted, text, (tx(run.from) + tx(run.to)) / 2, top + 20, 12, 'center');
    }
    ctx.strokeStyle = COLORS.render;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    let pen = false;
    for (const [local, , x] of curve) {
      if (Number.isFinite(x)) {
        pen ? ctx.lineTo(tx(local), y(x)) : ctx.moveTo(tx(local), y(x));
        pen = true;
      } else {
        pen = false;
      }
    }
    ctx.stroke();
    if (frame.status === STATUS_READY) diamond(ctx, tx(frame.local), y(frame.x), 6, COLORS.render);
  }

  drawAxis(ctx, theme, { left, right, y, tx, t0, t1 }) {
    ctx.strokeStyle = theme.muted;
    line(ctx, left, y - 8, right, y - 8);
    for (let t = Math.ceil(t0 * 20) / 20; t <= t1 + 1e-9; t += 0.05) {
      line(ctx, tx(t), y - 11, tx(t), y - 5);
      label(ctx, theme.muted, t.toFixed(2), tx(t) - 12, y + 6, 11);
    }
    label(ctx, theme.muted, t('we.seconds'), right, y - 14, 11, 'right');
  }

  updateReadout(frame, playground) {
    const code = this.Playground.statusName(frame.status);
    const { glyph, name } = statusText(code);
    const where = frame.status === STATUS_READY
      ? t('we.readoutWhere', { x: frame.x.toFixed(3), left: frame.left, right: frame.right, factor: frame.factor.toFixed(2) })
      : t('we.readoutNone');
    document.getElementById('readout').textContent =
      t('we.readout', { local: frame.local.toFixed(3), render: frame.renderTime.toFixed(3), status: `${glyph} ${name}`, where });
    const status = document.getElementById('status');
    status.textContent = `${glyph} ${name}`;
    status.dataset.status = code;
    document.getElementById('reason').textContent = reasonText(playground.reason) || '—';
  }
}

/** The first candidate that fits in `max` px at `size` (the lane names share a 150 px column). */
function fit(ctx, candidates, max, size) {
  ctx.font = `${size}px ${FONT}`;
  const list = Array.isArray(candidates) ? candidates : [candidates];
  return list.find((c) => ctx.measureText(c).width <= max) ?? list[list.length - 1];
}

/**
 * The core's reason (src/buffer/reason.rs, `impl Display for Reason`) in the current language: its numbers are
 * read back out of the English sentence and put into `we.why.*`; a sentence of another shape (a clock's own
 * text) is shown as the core wrote it.
 */
export function reasonText(reason) {
  if (!reason) return '';
  const forms = [
    [/^no snapshot received yet$/, 'we.why.noSnapshot', []],
    [/^(\d+) of (\d+) snapshots needed to start$/, 'we.why.priming', ['held', 'needed']],
    [/^render time (\S+) s is (\S+) ms before the oldest snapshot \(tick (\d+), (\S+) s\)$/, 'we.why.beforeOldest', ['render', 'ms', 'tick', 'time']],
    [/^render time (\S+) s is (\S+) ms past the newest snapshot \(tick (\d+), (\S+) s\); recent arrival interval (?:(\S+) ms|unknown)(?:; interpolation delay (\S+) ms)?$/, 'we.why.pastNewest', ['render', 'ms', 'tick', 'time', 'interval', 'delay']],
    [/^ticks (\d+) and (\d+) belong to lifetime generations (\d+) and (\d+): no interpolation across a respawn$/, 'we.why.respawn', ['left', 'right', 'lg', 'rg']],
    [/^tick (\d+) is a teleport: no interpolation across the discontinuity$/, 'we.why.teleport', ['tick']],
    [/^ticks (\d+) and (\d+) are (\S+) ms apart, more than (\S+) × the (\S+) ms send interval$/, 'we.why.wideBracket', ['left', 'right', 'span', 'factor', 'interval']],
    [/^render time is (\S+), not a finite number$/, 'we.why.notFinite', ['render']],
  ];
  for (const [re, key, names] of forms) {
    const m = reason.match(re);
    if (!m) continue;
    const vars = Object.fromEntries(names.map((n, i) => [n, m[i + 1]]));
    if (key === 'we.why.pastNewest') {
      vars.interval = vars.interval === undefined ? t('we.why.unknown') : `${vars.interval} ms`;
      vars.delay = vars.delay === undefined ? t('we.why.unknown') : `${vars.delay} ms`;
    }
    return t(key, vars);
  }
  return reason;
}

/** Consecutive curve rows with the same status, as {status, from, to} in local time. */
function statusRuns(curve) {
  const runs = [];
  for (const [local, status] of curve) {
    const last = runs[runs.length - 1];
    if (last && last.status === status) last.to = local;
    else runs.push({ status, from: local, to: local });
  }
  return runs;
}
