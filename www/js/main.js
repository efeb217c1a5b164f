// The playground: load the core, build the controls, re-run on every change, redraw every frame.
// `App` keeps the model and wires the parts together; the frame scheduler (scheduler.js) decides when things run;
// each panel gets only the few functions it draws from or asks for (`App.portsFor`), never the App itself.
import { showError, showNotice, hasFailed, watchForErrors } from './banner.js';
import { Model, getPath, setPath } from './model.js';
import { byId, applyValue, parseHash, formatHash, quoted, summariseNotices, SCHEMA_FAULTS } from './params.js';
import { drawStatus, drawCounters, drawMetrics, countersAt } from './readouts.js';
import { theme } from './canvas.js';
import { eventsFromExtras, eventsToExtras } from './events.js';
import { t as tr, has, tagged } from './strings/i18n.js'; // `t` is a local name in applyHash
import { loadCore } from './core.js';
import * as engines from './engines/engines.js';
import { SimWorker } from './worker-client.js';
import { FrameScheduler } from './scheduler.js';
import { boot, bootTask, bootPhase, firstPaint, NEEDS_FULL_CORE } from './boot.js';

watchForErrors();
for (const fault of SCHEMA_FAULTS) showError(fault);

const KEY_MAP = {
  KeyA: 'left', ArrowLeft: 'left', KeyD: 'right', ArrowRight: 'right',
  KeyW: 'up', ArrowUp: 'up', KeyS: 'down', ArrowDown: 'down',
};

/** Seconds into the run before the page's opening moment may be: the buffer and the clock have had time to warm. */
const WARM_FROM = 2;

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
    /** Milliseconds per applied change: re-simulation + what follows it (a slider's change is drawn by its frame: `frameTimes`). */
    this.updateTimes = [];
    /** The step-through's subject on the lanes and views (stepper.js), or null. */
    this.highlight = null;
    /** When things run: the frame loop, coalescing, the drag, staleness, the URL's timing. */
    this.scheduler = new FrameScheduler({
      draw: () => this.draw(),
      scene: () => this.scene(true),
      apply: (params) => this.apply(params, { drawNow: false }),
      advance: (dt) => this.advance(dt),
      playing: () => this.state.playing,
      runId: () => this.model.runId,
      skips: (painter) => this.model.imported && painter.simulationOnly,
      writeUrl: () => this.writeHashNow(),
      urlWritten: () => location.hash === this.writtenHash,
      failed: hasFailed,
    });
    this.ports = this.makePorts();
  }

  /**
   * What a panel may read of the page and ask of it, each a function. A panel is handed the few it names
   * (`portsFor`), so what it depends on is listed where it is mounted.
   */
  makePorts() {
    const s = this.scheduler;
    return {
      model: () => this.model,
      core: () => this.core,
      theme: () => this.theme,
      worker: () => this.worker,
      playhead: () => this.state.playhead,
      playing: () => this.state.playing,
      /** Moves the playhead without drawing (the caller's next draw, or the frame, shows it). */
      setPlayhead: (t) => { this.state.playhead = t; },
      setSpeed: (speed) => { this.state.speed = speed; },
      setPlaying: (on) => this.transport.setPlaying(on),
      seek: (t) => this.seek(t),
      apply: (params) => this.apply(params),
      applyHash: (hash) => this.applyHash(hash),
      historyEntry: () => this.historyEntry(),
      setPreset: (name) => this.controls.setPreset(name),
      /** Draws the page now. */
      redraw: () => this.draw(),
      /** Draws the page now, every static layer included (a language, the theme, a zoom or a picture's scale changed). */
      redrawAll: () => {
        this.lastDraw = { runId: -1 };
        this.draw();
      },
      /** The rail and the page again, in a new language. */
      relabel: () => {
        this.controls.sync(this.model.params);
        this.events.sync(this.model.params.events);
        this.lastDraw = { runId: -1 };
        this.draw();
      },
      requestDraw: () => s.requestDraw(),
      drawDeferred: () => this.drawDeferred(),
      inDrag: () => s.inDrag,
      sliderHeld: () => s.sliderHeld,
      dragGap: () => s.dragGap,
      afterDrag: (fn, waiting) => s.afterDrag(fn, waiting),
      /** The run's metrics for this frame (`metricsForFrame`: `null` while the worker's are on their way). */
      metricsFor: (model) => this.metricsForFrame(model),
      /** The URL's extras (lang, lesson, step, present, t, …) as last applied or set. */
      extras: () => this.extras,
      /** Sets some of the URL's extras (an `undefined` drops one); `writeHash` puts them in the address bar. */
      setExtras: (patch) => { this.extras = { ...this.extras, ...patch }; },
      writeHash: () => this.writeHash(),
      /** The URL's hash for the current configuration, written now. */
      currentHash: () => {
        this.writeHash();
        return this.writtenHash;
      },
      /** The network preset chosen in the rail ('custom' when none). */
      preset: () => this.controls?.inputs?.preset?.input.value ?? 'custom',
      highlight: () => this.highlight,
      setHighlight: (h) => { this.highlight = h; },
      /** A painter mounted after the boot joins the frame loop, watched on `element`, its figure's tools adopted. */
      addPainter: (painter, element) => {
        s.add(painter);
        s.watch(painter, element);
        this.figureTools.adopt();
      },
      afterRun: () => this.afterRun(),
    };
  }

  /** The ports `names` alone (`makePorts`), for one panel. */
  portsFor(...names) {
    return Object.fromEntries(names.map((name) => {
      if (!this.ports[name]) throw new Error(`no port ${name}`);
      return [name, this.ports[name]];
    }));
  }

  /** Builds the page in short tasks, then says `data-ready` and `data-complete` (boot.js `boot`). */
  start() {
    return boot(this);
  }

  /** The painters drawn per frame (the scheduler's; read by benches/page). */
  get painters() {
    return this.scheduler.painters;
  }

  /** Animation frames run since the first (the scheduler's; read by benches/page and tests/soak). */
  get framesDrawn() {
    return this.scheduler.framesDrawn;
  }

  /**
   * Moves the run onto the full core (model.js `full`: the same bits) as the reader's hand nears a slider
   * (`watchSliderHold`), so that the first change does not: built anew on the full core in that change's own frame,
   * the run would cost about twice a re-simulation there.
   */
  readyForChanges() {
    if (this.scheduler.inDrag || this.model.imported || !this.model.fullReady) return;
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
    let params = structuredClone(this.teach?.baseParams(extras, notices) ?? this.model.defaults); // a lesson's link starts from the lesson
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
    // A value said to be ignored leaves the URL too (the next URL write keeps only what was applied).
    const refuse = (key, notice) => {
      notices.push(tr(notice, { value: quoted(extras[key]) }));
      delete extras[key];
    };
    if (extras.t !== undefined && extras.t.trim() !== '' && Number.isFinite(t)) this.state.playhead = this.clamp(t);
    else if (extras.t !== undefined) refuse('t', 'notice.badPlayhead');
    else if (this.hashesApplied === 1 && extras.lesson === undefined) this.state.playhead = this.warmMoment();
    if (extras.lang !== undefined && !['zh', 'en'].includes(extras.lang)) refuse('lang', 'notice.badLang');
    if (extras.step !== undefined && !(Number.isInteger(Number(extras.step)) && Number(extras.step) >= 1)) refuse('step', 'notice.badStep');
    if (extras.present !== undefined && !['0', '1'].includes(extras.present)) refuse('present', 'notice.badPresent');
    this.extras = extras;
    this.classroom.apply(extras); // present mode: `present=1`
    // The URL's engine picks (each name left out said), else the lesson's.
    this.engineLesson = extras.lesson;
    this.enginesPanel.set(extras.engines !== undefined ? engines.parsePicks(extras.engines, notices) : (this.teach?.lessonEngines(extras.lesson) ?? []));
    if (notices.length) showNotice(summariseNotices(notices, tr), { sticky: true });
    this.afterRun({ drawNow });
  }

  /**
   * While a recorded or imported trace is shown, the rail's Network group simulates nothing on screen: it says so
   * (its sliders dimmed, a line under its heading: moving one returns to the simulation) — once the later strings
   * are in (an import comes after the first frame).
   */
  markNetworkNotApplied(imported) {
    const group = document.querySelector('#controls details.group[data-group="network"]');
    if (!group || (imported && !has('controls.importedNote'))) return;
    let note = group.querySelector('.imported-note');
    if (imported && !note) {
      note = tagged('p', 'controls.importedNote', { class: 'imported-note hint' });
      group.querySelector('summary').after(note);
    }
    if (note && note.hidden === imported) note.hidden = !imported;
    if (group.classList.contains('not-applied') !== imported) group.classList.toggle('not-applied', imported);
  }

  /**
   * Where the page opens when its link names no moment: the first frame from WARM_FROM on whose sample is Ready
   * (the buffer primed, the clock trusted), so the sandbox does not open on "priming" and "clock uncertain";
   * the run's start when no frame is.
   */
  warmMoment() {
    const f = this.model.table('frames');
    const ready = this.model.codes.status.indexOf('ready');
    const from = this.model.start + WARM_FROM;
    for (let i = 0; i < f.rows; i++) {
      const local = f.view[i * f.stride + f.col.local];
      if (local >= from && f.view[i * f.stride + f.col.status] === ready) return local;
    }
    return this.model.start;
  }

  /** One control changed: re-simulate with the new value (or show why it was refused). */
  change(spec, value) {
    let params;
    const base = this.scheduler.held ?? this.model.params;
    if (spec.kind === 'preset') {
      if (value === 'custom') return;
      this.historyEntry(); // a preset is a deliberate move: Back returns to the settings it replaced
      // Seed 004 §5.3's presets are applied by the full core (src/web/analysis.rs): one picked before it is in
      // waits for it (`presetHeld`, in `pending`) and is applied to the run of that moment — a later change wins.
      if (!this.core.Playground.applyPreset) {
        this.presetHeld = value;
        loadCore('full').then((full) => {
          if (!full || this.presetHeld !== value) return;
          this.presetHeld = null;
          this.applyCoalesced(full.Playground.applyPreset(this.scheduler.held ?? this.model.params, value));
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
   * One re-simulation per frame, the newest value winning (scheduler.js `coalesce`): the first change since the
   * last frame runs now, later ones at the start of the next frame. Nothing is drawn here: the frame draws once.
   */
  applyCoalesced(params) {
    if (this.scheduler.coalesce(params)) return;
    this.apply(params, { drawNow: false });
  }

  /** The rail's sliders: a pointer held on one is a drag (the scheduler's), a pointer nearing one readies the run. */
  watchSliderHold(rail) {
    // A pointer over a slider, or the keyboard's focus on one: the run moves to the full core now, in a task of
    // its own, rather than in the frame of the first change (`readyForChanges`; a touch goes straight to the press).
    const nearing = (e) => {
      if (e.target.matches?.('input[type=range]') && this.model.nextCore) setTimeout(() => this.readyForChanges(), 0);
    };
    rail.addEventListener('pointerover', nearing, { passive: true });
    rail.addEventListener('focusin', nearing);
    this.scheduler.watchSliderHold(rail);
  }

  /** Whether a change is still held for the next frame, its drawing is owed, or a preset waits for the full core (tests wait for it). */
  get pending() {
    return this.scheduler.pending || Boolean(this.presetHeld);
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
    this.teach?.afterRun(); // the lesson follows the run (its trace, its checks), and the stepper
    if (this.extras?.lesson !== this.engineLesson) { // a lesson chosen from the menu brings its engine picks
      this.engineLesson = this.extras?.lesson;
      const picks = this.teach?.lessonEngines(this.engineLesson);
      if (picks) this.enginesPanel.set(picks);
    }
    // The league table asks the simulation worker — started by its first request, it loads a core of its own: not
    // before the first frame (it would compete with it for the network and the CPU); the boot asks then.
    if (this.ready) {
      this.league?.refresh(this.model); // mounted after the first frame (boot.js)
      this.settings?.refresh(this.model);
    }
    this.figureTools.sync(); // the lesson's embed code while its card shows
    this.controls.sync(this.model.params);
    this.markNetworkNotApplied(this.model.imported);
    this.events.sync(this.model.params.events);
    this.state.playhead = this.clamp(this.state.playhead);
    this.writeHash();
    if (drawNow) this.draw();
    else this.scheduler.owe();
  }

  /**
   * Before a deliberate move (a lesson, a preset, an import, present mode): the URL of where the reader is now,
   * written at once, becomes an entry of the browser's history of its own, and the move then writes its URL over
   * the new top entry — so Back returns here (boot.js applies the URL on `popstate`). Drags and single settings
   * only rewrite the current entry.
   */
  historyEntry() {
    this.writeHashNow();
    history.pushState(null, '', location.href);
  }

  /** Writes the URL for the current configuration, now or when the drag allows (scheduler.js `writeHash`). */
  writeHash() {
    this.scheduler.writeHash();
  }

  writeHashNow() {
    const extras = { ...eventsToExtras(this.model.params.events), lang: this.extras?.lang, lesson: this.extras?.lesson, step: this.extras?.step, engines: this.enginesPanel?.hashValue(), present: this.extras?.present };
    const hash = formatHash(this.model.params, this.teach?.hashBase() ?? this.model.defaults, getPath, extras); // a lesson's link: the diff from the lesson
    this.writtenHash = hash ? `#${hash}` : '';
    if (location.hash !== this.writtenHash) history.replaceState(null, '', `${location.pathname}${location.search}${this.writtenHash}`);
  }

  /**
   * The metrics table (below the fold, a whole table of DOM): at once after a lone change, during a drag only once
   * the changes pause. A thumb still held (a hand resting mid-drag), or the worker's answer for this run on its
   * way, keeps it waiting, so the table is filled from that answer, not by ~4 ms of `metrics()` on the main thread
   * in the drag. `now` (`drawDeferred`: a PNG, a print, the tests) fills it at once.
   */
  drawMetricsSoon({ now = false } = {}) {
    this.metricsTimer?.();
    this.metricsTimer = null;
    const s = this.scheduler;
    const waiting = () => !now && (s.sliderHeld || this.metricsOnTheWay(this.model));
    const fill = () => {
      this.metricsTimer = null;
      if (this.metricsTable) this.metricsTable.deferred = false;
      drawMetrics(document.getElementById('metrics'), this.workerMetricsOf(this.model) ?? this.model.metrics(), this.model);
    };
    if (!s.inDrag && !waiting()) return fill();
    this.metricsTimer = s.afterDrag(fill, waiting);
  }

  /**
   * The run's metrics for the readouts this frame draws. `pg.metrics()` costs ~4 ms — more than the run itself —
   * so a frame during a drag does not compute them: it asks the simulation worker (its own core, the same bits)
   * and draws with `null` (readouts.js keeps the jump log it showed); the worker's answer for the run on screen
   * is drawn as it arrives — the same numbers, a frame later — and an answer for a run already replaced is
   * dropped. Outside a drag (a lone change, a step, a seek) they are computed here.
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
    const dragging = this.scheduler.inDrag;
    if (!dragging && model.metricsReady) return model.metrics();
    if (this.ready || dragging) this.requestMetrics(model);
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
        this.scheduler.requestDraw();
      }
    };
    this.worker.request('metrics', 'metrics', { params: model.params }).then(settle, () => settle(null));
  }

  /**
   * The readouts beside the views, for the playhead (the painters left as they are). Called outside the frame (the
   * boot's idle callback, the worker's metrics arriving while paused): during a drag, with the readouts out of
   * view, they wait for the drag's end as in a frame (scheduler.js `textWaits`) — not written in an idle moment
   * between the drag's frames.
   */
  drawReadouts() {
    if (this.scheduler.textWaits('readouts')) return;
    const model = this.model;
    const index = model.frameAt(this.state.playhead);
    drawStatus(document.getElementById('status-card'), model, model.frameRow(index), this.metricsForFrame(model), !this.state.playing);
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

  /** A frame's wall time `dt` (s) moves the playhead while the run plays (looping at the end); returns whether it plays. */
  advance(dt) {
    if (this.state.playing) {
      let t = this.state.playhead + dt * this.state.speed;
      if (t > this.model.end) t = this.model.start;
      this.state.playhead = t;
    }
    return this.state.playing;
  }

  /**
   * What every painter draws from: the run, the frame at the playhead, the theme, the engines' ghosts, and what
   * is marked on the lanes and views — the step-through's subject, else the inspected packet.
   */
  scene(runChanged) {
    const model = this.model;
    // The engines' tracks first: replaying a strategy may grow wasm memory, which detaches every view read before.
    const engines = this.enginesPanel.scene(model);
    const frames = model.table('frames');
    const index = model.frameAt(this.state.playhead, frames);
    const frame = model.frameRow(index, frames);
    this.theme ??= theme();
    const inspected = this.inspector?.current() ?? null; // mounted after the first frame (boot.js)
    return { model, frames, index, frame, playhead: this.state.playhead, theme: this.theme, runChanged, state: this.state, engines, highlight: this.highlight, inspected };
  }

  /** Draws every painter still waiting for its first drawing now, and the metrics table if it waits too (a PNG, a print, the tests). */
  drawDeferred() {
    if (this.metricsTable?.deferred) this.drawMetricsSoon({ now: true });
    return this.scheduler.drawDeferred();
  }

  /** Redraws everything for the playhead; the metrics table only when the run changed. */
  draw() {
    const started = performance.now();
    const s = this.scheduler;
    s.beginDraw();
    const model = this.model;
    const runChanged = this.lastDraw.runId !== model.runId;
    const ctx = this.scene(runChanged);
    const { frame, index } = ctx;
    // A trace knows no truth, paths or local player: the simulation-only panels step aside.
    for (const id of ['plots', 'comparison']) document.getElementById(id).hidden = model.imported;
    // During a drag what the reader cannot see waits (scheduler.js `drawPainters`).
    const dragging = s.inDrag;
    s.drawPainters(ctx, dragging);
    this.inspector?.draw(ctx); // mounted after the first frame (boot.js, marks.js)
    this.enginesPanel.draw(ctx);
    // The readouts and the transport are words and a range that change every frame (a layout, a paint and a raster
    // of their box each): during a drag, out of the viewport, they wait like a painter (`textPart`). The worker is
    // asked for the metrics all the same (`metricsForFrame`), so the readouts drawn after the drag have them.
    const metrics = this.metricsForFrame(model);
    if (s.textPart('readouts', dragging)) {
      drawStatus(document.getElementById('status-card'), model, frame, metrics, !this.state.playing);
      drawCounters(document.getElementById('counters'), countersAt(model, this.state.playhead, index));
    }
    // The metrics table sits under the plots: it is filled once they are mounted (so it never jumps down).
    if (runChanged && this.complete) this.drawMetricsSoon();
    if (s.textPart('transport', dragging)) this.transport.update(model);
    s.endDraw();
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
