// The playground: load the core, build the controls, re-run on every change, redraw every frame.
import { showError, showNotice, hasFailed, watchForErrors } from './banner.js';
import { Model, getPath, setPath } from './model.js';
import { byId, applyValue, parseHash, formatHash, quoted } from './params.js';
import { drawStatus, drawCounters, drawMetrics, countersAt } from './readouts.js';
import { theme } from './canvas.js';
import { eventsFromExtras, eventsToExtras } from './events.js';
// --- teaching hooks (issue 8): languages, lessons, step-through — see teach.js ---
import { t as tr } from './strings/i18n.js'; // `t` is a local name in applyHash

import { loadCore } from './core.js';
// --- engines (issue 13): the Engines panel, its ghosts, the league table in the simulation worker ---
import * as engines from './engines/engines.js';
import { SimWorker } from './worker-client.js';
// --- beside the articles (issue 15): present mode, the phone's controls button, embed code and PNG per figure ---
import { watchPainter } from './offscreen.js';
import { boot, bootTask, bootPhase, firstPaint, NEEDS_FULL_CORE } from './boot.js';

watchForErrors();

/** Resolves in a new task: what was built so far can be painted, and input handled, before the next part. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Changes closer together than this (ms) are a drag: what is not the frame's own waits for the pause. */
const DRAG_GAP = 150;

const KEY_MAP = {
  KeyA: 'left', ArrowLeft: 'left', KeyD: 'right', ArrowRight: 'right',
  KeyW: 'up', ArrowUp: 'up', KeyS: 'down', ArrowDown: 'down',
};

class App {
  constructor(core) {
    this.core = core;
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.state = { playhead: 0, playing: false, speed: 1, keys: { left: false, right: false, up: false, down: false } };
    /** Whether the run starts playing at the reader's first interaction (see `playOnFirstInteraction`). */
    this.autoplay = !reducedMotion;
    this.model = new Model(core);
    /** Heavy re-simulation that is not the frame's own (the delay sweep, the league table) runs here, on its own core. */
    this.worker = new SimWorker();
    this.lastDraw = { runId: -1 };
    this.frameTimes = [];
    /** Changes closer together than this (ms) are a drag (tests may lengthen it, to be sure what counts as one). */
    this.dragGap = DRAG_GAP;
    /** Milliseconds per applied change: re-simulation + what follows it (a slider's change is drawn by its frame: `frameTimes`). */
    this.updateTimes = [];
  }

  /** Builds the page in short tasks, then says `data-ready` and `data-complete` (boot.js `boot`). */
  start() {
    return boot(this);
  }

  /**
   * Moves the run onto the full core (model.js `full`: the same bits) as the reader's hand nears a slider
   * (`watchSliderHold`), so that the first change does not: the first input of a first drag used to build the run
   * anew on the full core — about twice a re-simulation, in that input's own frame (the drag bench's worst).
   */
  readyForChanges() {
    if (this.inDrag || this.model.imported || !this.model.fullReady) return;
    this.model.full();
  }

  /**
   * The run starts playing at the reader's first sign of presence — a pointer move, a touch, a key, the wheel or
   * a scroll — rather than at load: an animation from the first frame keeps a phone's main thread busy before
   * anyone looks (Lighthouse counts every frame of it as blocking time). Until then the Play button pulses (a
   * compositor-only CSS animation). Choosing Play/Pause, seeking or a lesson pausing on its moment cancels it.
   */
  playOnFirstInteraction() {
    const types = ['pointermove', 'pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'];
    const play = document.getElementById('play');
    const stop = () => {
      for (const type of types) window.removeEventListener(type, start, true);
      play?.classList.remove('inviting');
    };
    const start = (e) => {
      // A press on the transport is the reader's own choice (Play, a step, the scrub): let it decide.
      if (e.type === 'pointerdown' && e.target.closest?.('#transport')) this.autoplay = false;
      stop();
      if (this.autoplay) this.transport.setPlaying(true);
    };
    if (!this.autoplay) return;
    play?.classList.add('inviting');
    this.stopInviting = stop;
    for (const type of types) window.addEventListener(type, start, { capture: true, passive: true });
  }

  /** A painter's section: skipped during a drag while off screen, drawn as it comes into view (offscreen.js). */
  watch(painter, element) {
    if (painter.deferred) painter.onScreen = painter.visible = false; // until its observer says otherwise
    watchPainter(painter, element, () => {
      if (this.state.playing) return; // the next frame draws it
      this.drawOwed = true;
      requestAnimationFrame(() => { if (this.drawOwed) this.draw(); });
    });
  }

  /** From the first-frame core to the full one, for every caller (the run on screen moves lazily: model.js `upgrade`). */
  upgrade(core) {
    this.core = core;
    this.model.upgrade(core);
    window.netcodeLab.core = core;
    bootPhase('full-core');
  }

  /**
   * Until `ready` resolves, clicks (on buttons, checkboxes, links) and changes inside the elements `ids` are
   * held, then replayed in order: a reader who opens a lesson or picks an engine in the first moments gets it a
   * moment later instead of an error.
   */
  holdUntil(ready, ids) {
    const roots = ids.map((id) => document.getElementById(id)).filter(Boolean);
    const held = [];
    const hold = (e) => {
      if (e.type === 'click' && !e.target.closest?.('button, input, a')) return;
      e.stopImmediatePropagation();
      if (e.type === 'click') e.preventDefault();
      held.push(e);
    };
    for (const root of roots) for (const type of ['click', 'change']) root.addEventListener(type, hold, true);
    ready.then((core) => {
      for (const root of roots) for (const type of ['click', 'change']) root.removeEventListener(type, hold, true);
      if (!core) return;
      for (const e of held) {
        if (e.type === 'click') e.target.click();
        else e.target.dispatchEvent(new Event('change', { bubbles: true }));
      }
    });
  }

  /**
   * Applies a URL hash: control values (clamped or ignored with a notice), playhead, events; drawn now, or with
   * `drawNow: false` by the caller's own `draw` (the boot draws it in a task of its own) or the next frame.
   */
  applyHash(hash, { drawNow = true } = {}) {
    this.hashesApplied = (this.hashesApplied ?? 0) + 1;
    const { values, notices, extras } = parseHash(hash, tr);
    let params = structuredClone(this.teach?.baseParams(extras, notices) ?? this.model.defaults); // teaching hook: a lesson's link starts from the lesson
    for (const [id, value] of Object.entries(values)) params = applyValue(byId[id], params, value, setPath);
    params.events = eventsFromExtras(extras, params.events, notices);
    // The same parameters make the same run: a hash that asks for the run on screen (at boot, a link with no
    // settings asks for the defaults the model was built with) is not simulated twice.
    const unchanged = !this.model.imported && JSON.stringify(params) === JSON.stringify(this.model.params);
    try {
      if (!unchanged) this.model.setParams(params);
    } catch (error) {
      notices.push(tr('notice.linkRefused', { message: error.message }));
      this.model.setParams(this.model.defaults);
    }
    const t = Number(extras.t);
    if (extras.t !== undefined && extras.t.trim() !== '' && Number.isFinite(t)) this.state.playhead = this.clamp(t);
    else if (extras.t !== undefined) notices.push(tr('notice.badPlayhead', { value: quoted(extras.t) }));
    if (extras.lang !== undefined && !['zh', 'en'].includes(extras.lang)) notices.push(tr('notice.badLang', { value: quoted(extras.lang) }));
    if (extras.step !== undefined && !(Number.isInteger(Number(extras.step)) && Number(extras.step) >= 1)) notices.push(tr('notice.badStep', { value: quoted(extras.step) }));
    if (extras.present !== undefined && !['0', '1'].includes(extras.present)) notices.push(tr('notice.badPresent', { value: quoted(extras.present) }));
    this.extras = extras;
    this.classroom.apply(extras); // issue 15 hook: `present=1`
    // Engines hook: the URL's picks, else the lesson's.
    this.engineLesson = extras.lesson;
    this.enginesPanel.set(extras.engines !== undefined ? engines.parsePicks(extras.engines) : (this.teach?.lessonEngines(extras.lesson) ?? []));
    if (notices.length) showNotice(notices.join('\n'), { sticky: true });
    this.afterRun({ drawNow });
  }

  /** One control changed: re-simulate with the new value (or show why it was refused). */
  change(spec, value) {
    let params;
    const base = this.held ?? this.model.params;
    if (spec.kind === 'preset') {
      if (value === 'custom') return;
      // Seed 004 §5.3's presets are applied by the full core (src/web/analysis.rs): one picked before it is in
      // waits for it (`presetHeld`, in `pending`) and is applied to the run of that moment — a later change wins.
      if (!this.core.Playground.applyPreset) {
        this.presetHeld = value;
        loadCore('full').then((full) => {
          if (!full || this.presetHeld !== value) return;
          this.presetHeld = null;
          this.applyCoalesced(full.Playground.applyPreset(this.held ?? this.model.params, value));
        });
        return;
      }
      params = this.core.Playground.applyPreset(base, value);
    } else {
      this.presetHeld = null;
      params = applyValue(spec, base, value, setPath);
      this.controls.setPreset('custom');
    }
    this.applyCoalesced(params);
  }

  /**
   * A slider drag fires input events faster than the screen shows frames: one re-simulation per frame, the newest
   * value wins. The first change since the last frame runs at once (what reads the model right after sees it);
   * later ones are held and only the newest runs, at the start of the next frame (`frame`). Nothing is drawn
   * here: the frame draws once, with the newest run, so a change is on screen in the frame it arrived in.
   */
  applyCoalesced(params) {
    const now = performance.now();
    this.dragging = now - (this.lastChangeAt ?? -Infinity) < this.dragGap;
    this.lastChangeAt = now;
    if (this.simulatedThisFrame) {
      this.held = params;
      return;
    }
    this.simulatedThisFrame = true;
    this.apply(params, { drawNow: false });
  }

  /**
   * Whether a slider is being dragged: its thumb is held down by a pointer (`sliderHeld`), or — keys held on a
   * slider, a drag on the sweep plot — the last change came less than DRAG_GAP after the one before and no pause
   * has followed yet. A hand that slows down mid-drag (or a busy machine delivering its moves late) is still
   * dragging while the button is down: what waits for the drag (figures off screen, the league table, the URL)
   * keeps waiting until the release, instead of all running in every pause longer than DRAG_GAP.
   */
  get inDrag() {
    return this.sliderHeld || (Boolean(this.dragging) && performance.now() - this.lastChangeAt < this.dragGap);
  }

  /** Tracks a pointer held on one of the rail's sliders (`sliderHeld`, read by `inDrag`). */
  watchSliderHold(rail) {
    this.sliderHeld = false;
    // A pointer over a slider, or the keyboard's focus on one: the run moves to the full core now, in a task of
    // its own, rather than in the frame of the first change (`readyForChanges`; a touch goes straight to the press).
    const nearing = (e) => {
      if (e.target.matches?.('input[type=range]') && this.model.nextCore) setTimeout(() => this.readyForChanges(), 0);
    };
    rail.addEventListener('pointerover', nearing, { passive: true });
    rail.addEventListener('focusin', nearing);
    rail.addEventListener('pointerdown', (e) => {
      if (!e.target.matches?.('input[type=range]')) return;
      this.sliderHeld = true;
      // The held slider and its value lay out on their own while it moves (playground.css `.control.held`).
      this.heldControl = e.target.closest('.control');
      this.heldControl?.classList.add('held');
    }, true);
    const release = () => {
      if (!this.sliderHeld) return;
      this.sliderHeld = false;
      this.heldControl?.classList.remove('held');
      this.heldControl = null;
      this.lastChangeAt = -Infinity; // the drag ended with the release: what waited for it runs (its timers check)
      if (this.hashAtRelease) { // the URL the drag left unwritten (`writeHash`)
        this.hashAtRelease = false;
        this.writeHashNow();
      }
      if (this.painters?.some((p) => p.stale) || Object.values(this.textParts ?? {}).some((p) => p.stale)) this.drawWhenDragPauses();
    };
    for (const type of ['pointerup', 'pointercancel']) window.addEventListener(type, release, true);
    window.addEventListener('blur', release);
  }

  /** Whether a change is still held for the next frame, or its drawing is owed (tests wait for it). */
  get pending() {
    return Boolean(this.held) || Boolean(this.drawOwed) || Boolean(this.presetHeld);
  }

  apply(params, { drawNow = true } = {}) {
    const started = performance.now();
    try {
      this.model.setParams(params);
    } catch (error) {
      showNotice(tr('notice.notApplied', { message: error.message }));
    }
    this.afterRun({ drawNow });
    this.updateTimes.push(performance.now() - started);
    if (this.updateTimes.length > 200) this.updateTimes.shift();
  }

  /**
   * After every run: what the frame shows (controls, playhead, the drawing — now, or with `drawNow: false` in the
   * next frame) and what follows the run without being the frame's own (the league table and the delay sweep ask
   * the simulation worker; lessons' checks, the URL and the metrics table wait for the drag to pause).
   */
  afterRun({ drawNow = true } = {}) {
    this.teach?.afterRun(); // teaching hook: follow the lesson (its trace, its checks) and the stepper
    if (this.extras?.lesson !== this.engineLesson) { // engines hook: a lesson chosen from the menu brings its picks
      this.engineLesson = this.extras?.lesson;
      const picks = this.teach?.lessonEngines(this.engineLesson);
      if (picks) this.enginesPanel.set(picks);
    }
    // The league table asks the simulation worker — started by its first request, it loads a core of its own: not
    // before the first frame (it would compete with it for the network and the CPU); `start` asks then.
    if (this.ready) this.league?.refresh(this.model); // mounted after the first frame (boot.js)
    this.figureTools.sync(); // issue 15 hook: the lesson's embed code while its card shows
    this.controls.sync(this.model.params);
    this.events.sync(this.model.params.events);
    this.state.playhead = this.clamp(this.state.playhead);
    this.writeHash();
    if (drawNow) this.draw();
    else this.drawOwed = true;
  }

  /**
   * Writes the URL for the current configuration. replaceState costs ~1–2 ms in Chromium (more on a slow phone),
   * and building the hash (a diff of every parameter against the base) ~1 ms more: any change but a slider drag
   * writes the URL at once (a lesson, a step, a lone slider move — a reload or a copied link right after keeps
   * it); during a drag nothing is built per change. A thumb held down (`sliderHeld`) has the URL written once, at
   * its release (`watchSliderHold`) — never in a frame of the drag, not even the first change after a rest, which
   * wrote it in the input's own frame before (issue 14); other drags (keys held on a slider, the sweep plot) write
   * it once the changes pause for 250 ms, from the configuration of that moment. Tests wait for `urlCaughtUp`.
   */
  writeHash() {
    const now = performance.now();
    const quiet = !this.inDrag || (!this.sliderHeld && now - (this.lastHashChange ?? -Infinity) >= 250);
    this.lastHashChange = now;
    clearTimeout(this.hashTimer);
    this.hashTimer = null;
    this.hashAtRelease = false;
    if (quiet) return this.writeHashNow();
    if (this.sliderHeld) {
      this.hashAtRelease = true;
      return;
    }
    this.hashTimer = setTimeout(() => {
      this.hashTimer = null;
      this.writeHashNow();
    }, 250);
  }

  writeHashNow() {
    const extras = { ...eventsToExtras(this.model.params.events), lang: this.extras?.lang, lesson: this.extras?.lesson, step: this.extras?.step, engines: this.enginesPanel?.hashValue(), present: this.extras?.present };
    const hash = formatHash(this.model.params, this.teach?.hashBase() ?? this.model.defaults, getPath, extras); // teaching hook: diff from the lesson
    this.writtenHash = hash ? `#${hash}` : '';
    if (location.hash !== this.writtenHash) history.replaceState(null, '', `${location.pathname}${location.search}${this.writtenHash}`);
  }

  /**
   * The metrics table (below the fold, a whole table of DOM): at once after a lone change, but during a drag only
   * once the changes pause (DRAG_GAP), like the lessons' checks.
   */
  drawMetricsSoon({ now = false } = {}) {
    clearTimeout(this.metricsTimer);
    const draw = () => {
      this.metricsTimer = null;
      // A thumb still held (a hand resting mid-drag), or the worker's answer for this run on its way: it waits,
      // so the table is filled from that answer, not by ~4 ms of `metrics()` on the main thread in the drag.
      // `now` (`drawDeferred`: a PNG, a print, the tests) fills it at once.
      if (!now && (this.sliderHeld || this.metricsOnTheWay(this.model))) {
        this.metricsTimer = setTimeout(draw, this.dragGap);
        return;
      }
      if (this.metricsTable) this.metricsTable.deferred = false;
      drawMetrics(document.getElementById('metrics'), this.workerMetricsOf(this.model) ?? this.model.metrics(), this.model);
    };
    if (!this.inDrag) return draw();
    this.metricsTimer = setTimeout(draw, this.dragGap);
  }

  /**
   * The run's metrics for the readouts this frame draws. `pg.metrics()` costs ~4 ms — more than the run itself —
   * so a frame during a drag does not compute them: it asks the simulation worker (its own core, the same bits)
   * and draws with `null` (readouts.js keeps the jump log it showed); the worker's answer for the run on screen
   * is drawn as it arrives — the same numbers, a frame later — and an answer for a run already replaced is
   * dropped. Outside a drag (a lone change, a step, a seek) they are computed here, as before.
   */
  metricsForFrame(model) {
    if (model.imported) return null;
    const known = this.workerMetricsOf(model);
    if (known) return known;
    // Asked for already (the drag's last run, its thumb just released): its answer is on the way.
    if (this.metricsAsked?.model === model && this.metricsAsked.runId === model.runId && !this.metricsAsked.failed) return null;
    // Outside a drag, on the full core, computed here; a run still on the first frame's core (no `metrics()`, not
    // even the clock's jump log: src/web/analysis.rs) asks the worker instead of moving to the full core (a
    // re-simulation) — not before the first frame, so the worker starts after it (the status card says
    // "computing…" until the answer: readouts.js `clockLine`).
    if (!this.inDrag && model.metricsReady) return model.metrics();
    if (this.ready || this.inDrag) this.requestMetrics(model);
    return null;
  }

  /** Whether the simulation worker was asked for `model`'s metrics of this run and has not answered yet. */
  metricsOnTheWay(model) {
    const asked = this.metricsAsked;
    return Boolean(asked && asked.model === model && asked.runId === model.runId && !asked.failed && !this.workerMetricsOf(model));
  }

  /** The worker's metrics when they are this very run's (the same `Model` and `runId`), else `undefined`. */
  workerMetricsOf(model) {
    const w = this.workerMetrics;
    return w && w.model === model && w.runId === model.runId ? w.metrics : undefined;
  }

  /** Asks the simulation worker for `model`'s metrics, once per run; their arrival redraws the readouts. */
  requestMetrics(model) {
    const runId = model.runId;
    if (this.metricsAsked?.model === model && this.metricsAsked.runId === runId) return;
    const asked = { model, runId, failed: false };
    this.metricsAsked = asked;
    this.metricsRequests = (this.metricsRequests ?? 0) + 1;
    const settle = (metrics) => {
      if (this.model !== model || model.runId !== runId) return; // the run on screen is another by now: dropped
      if (metrics) this.workerMetrics = { model, runId, metrics };
      else asked.failed = true; // superseded or refused: a draw outside the drag computes them itself
      // Playing, the next frame draws them; paused, the readouts now, and the sweep plot's point (it reads them
      // too: plots/sweep.js) in the next frame, with whatever else that frame owes.
      if (!this.state.playing) {
        this.drawReadouts();
        this.drawOwed = true;
        requestAnimationFrame(() => { if (this.drawOwed) this.draw(); });
      }
    };
    this.worker.request('metrics', 'metrics', { params: model.params }).then(settle, () => settle(null));
  }

  /**
   * The readouts beside the views, for the playhead (the painters left as they are). Called outside the frame (the
   * boot's idle callback, the worker's metrics arriving while paused): during a drag, with the readouts out of
   * view, they are marked stale for the drag's end instead, as a frame does (`textPart`) — an idle moment between
   * a drag's frames used to write them (seen in CI: 5 writes in a held drag).
   */
  drawReadouts() {
    const part = this.textParts?.readouts;
    if (this.inDrag && part?.visible === false) {
      part.stale = true;
      this.drawWhenDragPauses();
      return;
    }
    const model = this.model;
    const index = model.frameAt(this.state.playhead);
    drawStatus(document.getElementById('status-card'), model, model.frameRow(index), this.metricsForFrame(model));
  }

  /**
   * Draws again once the drag pauses, for what it left stale (painters off screen): one stale painter per draw,
   * each in its own task while paused (each frame's while playing), so catching up is never one long task.
   */
  drawWhenDragPauses() {
    if (this.settleTimer) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (this.inDrag) return this.drawWhenDragPauses();
      if (!this.state.playing) this.draw();
    }, this.inDrag ? this.dragGap : 0);
  }

  /** Whether the address bar shows the current configuration (it lags a slider drag until its release or pause). */
  get urlCaughtUp() {
    return !this.hashTimer && !this.hashAtRelease && location.hash === this.writtenHash;
  }

  onImported(summary) {
    this.state.playhead = this.model.start;
    const note = summary.note ? ` — ${summary.note.replace(/[.。]\s*$/, '')}` : '';
    const counted = Object.entries(summary.counts ?? {}).filter(([, n]) => n > 0).map(([key, n]) => `${tr(`trace.${key}`)} ${n}`);
    const counts = counted.length ? tr('notice.importCounts', { counts: counted.join(tr('list.separator')) }) : '';
    showNotice(tr('notice.imported', { snapshots: summary.snapshots, samples: summary.samples, note }) + counts, { sticky: true });
    this.afterRun();
  }

  clamp(t) {
    return Math.min(Math.max(t, this.model.start), this.model.end);
  }

  seek(t) {
    this.autoplay = false; // the reader (or a test) chose a moment: stay on it
    this.stopInviting?.();
    this.state.playhead = this.clamp(t);
    this.draw();
  }

  /** WASD / arrows steer the local player: the key change is recorded at the playhead and the run re-made. */
  onKey(event, down) {
    const key = KEY_MAP[event.code];
    const tag = event.target?.tagName;
    if (!key || ['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target?.closest?.('.plot-stage, [role=slider], #lanes')) return; // a focused plot or the lanes use the arrows themselves
    event.preventDefault();
    if (this.state.keys[key] === down) return;
    this.state.keys = { ...this.state.keys, [key]: down };
    const t = this.state.playhead;
    const base = this.model.params.script ?? this.core.Playground.demoScript(this.model.duration);
    const script = base.filter((e) => e.time < t).concat([{ time: t, keys: { ...this.state.keys } }]);
    this.apply({ ...this.model.params, script });
  }

  frame(now) {
    if (hasFailed()) return;
    this.framesDrawn = (this.framesDrawn ?? 0) + 1;
    const dt = Math.min(Math.max(now - this.last, 0) / 1000, 0.1);
    this.last = now;
    // The newest change held since the last frame (applyCoalesced) runs first: it counts as this frame's run.
    const held = this.held;
    this.held = null;
    this.simulatedThisFrame = Boolean(held);
    if (held) this.apply(held, { drawNow: false });
    if (this.state.playing) {
      let t = this.state.playhead + dt * this.state.speed;
      if (t > this.model.end) t = this.model.start;
      this.state.playhead = t;
    }
    if (this.state.playing || this.drawOwed) this.draw();
    requestAnimationFrame((t) => this.frame(t));
  }

  /** What every painter draws from: the run, the frame at the playhead, the theme, the engines' ghosts. */
  scene(runChanged) {
    const model = this.model;
    // The engines' tracks first: replaying a strategy may grow wasm memory, which detaches every view read before.
    const engines = this.enginesPanel.scene(model);
    const frames = model.table('frames');
    const index = model.frameAt(this.state.playhead, frames);
    const frame = model.frameRow(index, frames);
    this.theme ??= theme();
    return { model, frames, index, frame, playhead: this.state.playhead, theme: this.theme, runChanged, state: this.state, engines };
  }

  /**
   * Draws a painter that has just joined (it has not drawn this run yet) and leaves the others as they are; a
   * painter of several figures (`parts`) draws one per task.
   */
  async drawOne(painter) {
    for (const part of painter.parts ?? [painter]) {
      if (this.model.imported && painter.simulationOnly) return;
      part.draw(this.scene(true));
      if (painter.parts) await nextTask();
    }
    painter.stale = false;
  }

  /**
   * Draws every painter still waiting for its first drawing (`deferred`, far off screen since the load) now, in
   * this task: for what reads their canvases without scrolling to them (a figure's PNG, the end-to-end tests).
   * Returns how many it drew.
   */
  drawDeferred() {
    const waiting = (this.painters ?? []).filter((p) => p.deferred && !(this.model.imported && p.simulationOnly));
    if (this.metricsTable?.deferred) this.drawMetricsSoon({ now: true });
    if (!waiting.length) return 0;
    const ctx = this.scene(true);
    for (const painter of waiting) {
      painter.draw(ctx);
      painter.deferred = painter.stale = false;
    }
    return waiting.length;
  }

  /**
   * Brings a stale painter of several figures (the plots), out of view, to the current run after a drag: one
   * figure per task, so catching up is never one long task (four static layers at once were 40–60 ms of CPU).
   * A drag or a new run meanwhile leaves it stale, for the next catch-up.
   */
  async catchUp(painter) {
    painter.catchingUp = true;
    const runId = this.model.runId;
    let done = true;
    for (const part of painter.parts) {
      await nextTask();
      if (this.inDrag || this.model.runId !== runId) {
        done = false;
        break;
      }
      part.draw(this.scene(true));
    }
    painter.catchingUp = false;
    if (done) painter.stale = painter.deferred = false;
    else this.drawWhenDragPauses();
  }

  /**
   * Whether this frame draws the page's text part `name` (`readouts`: the status card and the counters;
   * `transport`: its range and time): not during a drag while it is out of the viewport (offscreen.js, as a
   * painter): it is marked stale then, drawn as it scrolls in or once the drag pauses (`drawWhenDragPauses`).
   */
  textPart(name, dragging) {
    this.textParts ??= {};
    let part = this.textParts[name];
    if (!part) {
      part = { stale: false };
      this.textParts[name] = part;
      this.watch(part, document.querySelector(name === 'readouts' ? '.readouts' : '#transport'));
    }
    if (dragging && part.visible === false) {
      part.stale = true;
      return false;
    }
    part.stale = false;
    return true;
  }

  /** Redraws everything for the playhead; the metrics table only when the run changed. */
  draw() {
    const started = performance.now();
    this.drawOwed = false;
    const model = this.model;
    const runChanged = this.lastDraw.runId !== model.runId;
    const ctx = this.scene(runChanged);
    const { frame, index } = ctx;
    // A trace knows no truth, paths or local player: the simulation-only panels step aside.
    for (const id of ['plots', 'comparison']) document.getElementById(id).hidden = model.imported;
    // During a drag a painter off screen waits (offscreen.js): drawn when it scrolls in, or after the drag, one
    // stale painter per draw.
    const dragging = this.inDrag;
    let caughtUp = false;
    for (const painter of this.painters) {
      if (model.imported && painter.simulationOnly) continue;
      if (painter.catchingUp) continue; // its figures are being drawn, one per task (`catchUp`)
      if (painter.deferred && painter.onScreen === false) { // never drawn yet, far off screen: `watch` draws it
        painter.stale = false; // nothing drawn to be out of date
        continue;
      }
      // A drag skips what the reader cannot see now (`visible`); paused, what is far off screen (`onScreen`).
      if ((dragging && painter.visible === false) || (painter.onScreen === false && painter.stale && caughtUp)) {
        painter.stale = true;
        continue;
      }
      if (painter.onScreen === false && painter.stale) caughtUp = true;
      if ((painter.stale || painter.deferred) && painter.parts && painter.visible === false) {
        this.catchUp(painter);
        continue;
      }
      painter.draw(ctx);
      painter.stale = painter.deferred = false;
    }
    this.inspector?.draw(ctx); // mounted after the first frame (boot.js, marks.js)
    this.enginesPanel.draw(ctx);
    // The readouts and the transport are words and a range that change every frame (a layout, a paint and a raster
    // of their box each): during a drag, out of the viewport, they wait like a painter (`textPart`). The worker is
    // asked for the metrics all the same (`metricsForFrame`), so the readouts drawn after the drag have them.
    const metrics = this.metricsForFrame(model);
    if (this.textPart('readouts', dragging)) {
      drawStatus(document.getElementById('status-card'), model, frame, metrics);
      drawCounters(document.getElementById('counters'), countersAt(model, this.state.playhead, index));
    }
    // The metrics table sits under the plots: it is filled once they are mounted (so it never jumps down).
    if (runChanged && this.complete) this.drawMetricsSoon();
    if (this.textPart('transport', dragging)) this.transport.update(model);
    if (this.painters.some((p) => p.stale && !p.catchingUp && !(model.imported && p.simulationOnly))
      || Object.values(this.textParts).some((p) => p.stale)) this.drawWhenDragPauses();
    this.lastDraw = { runId: model.runId };
    this.frameTimes.push(performance.now() - started);
    if (this.frameTimes.length > 600) this.frameTimes.shift();
    this.draws = (this.draws ?? 0) + 1;
  }
}

async function main() {
  // Where the page's own JavaScript starts running (tests/e2e/load.test.mjs: the head's fetch of the core came first).
  performance.mark('main-start');
  // The core is fetched and compiled meanwhile (preloaded by the HTML in dist).
  const loading = loadCore(NEEDS_FULL_CORE.test(location.hash) ? 'full' : 'page');
  await firstPaint();
  bootPhase('painted');
  const core = await loading;
  if (!core) return;
  bootPhase('core');
  await bootTask(); // the wasm's instantiation, then the first run, each in a task of its own
  const app = new App(core);
  // Printing (or saving as PDF) shows the whole page at once: the figures never scrolled to are drawn first.
  window.addEventListener('beforeprint', () => app.drawDeferred());
  bootPhase('model');
  await app.start();
}

main().catch((error) => showError(error?.message ?? error));
