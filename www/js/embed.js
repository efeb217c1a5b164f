// One figure or one lesson alone, for an <iframe> beside an article: `embed.html#fig=NAME&lang=…`
// followed by the playground's own hash (params.js). It builds only what the figure needs — the same ids and
// the same painters as the playground (views.js, lanes.js, plots/*.js, comparison.js, lessons.js,
// worked-example-view.js), so nothing is drawn twice in two ways — the few controls of figures.js, and a link
// "open in the playground" carrying the same state.
//
// Manners of an embed: it asks nothing of the host page and no other host; it never takes the keyboard focus
// or scrolls the host (no autofocus, no focus() — the playground's keys are not listened to); its animation
// stops while the frame is out of view (IntersectionObserver) and starts paused under prefers-reduced-motion;
// a failure shows the playground's banner.
import { showError, showNotice, hasFailed, watchForErrors } from './banner.js';
import { Model, getPath, setPath } from './model.js';
import { byId, applyValue, parseHash, formatHash, SCHEMA_FAULTS } from './params.js';
import { buildControls } from './controls.js';
import { buildTransport } from './transport.js';
import { theme, measureWidths } from './canvas.js';
import { eventsFromExtras, eventsToExtras } from './events.js';
import { detectLang, setLang, getLang, t, tagged, onLangChange, loadPart } from './strings/i18n.js';
import { FIGURES, LESSON_VISUAL, lessonControls } from './figures.js';
import { byLessonId, lessonParams } from './lessons/lesson-data.js';
import { DRAG_GAP, afterPause } from './scheduler.js';
// core.js is imported when the core is needed, not statically: the build would otherwise preload the first-frame
// core for every embed (xtask/src/dist.rs follows static imports), while embed.html preloads the one its figure uses.
const coreModule = import('./core.js');

watchForErrors();
for (const fault of SCHEMA_FAULTS) showError(fault);

const hashParams = () => new URLSearchParams(location.hash.replace(/^#/, ''));

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** The figures whose height is mostly text (a lesson's card, the comparison's table): they scroll, not shrink. */
const TEXT_TALL = ['lesson', 'comparison'];

/** A tall frame (embed.css's one column, 360 px wide): a flatter world view and packed lanes, so it fits. */
const TALL = window.matchMedia('(max-width: 520px)').matches;

/** The world view `name` with its legend, as index.html has it (views.js finds it by id). */
function viewFigure(name) {
  const caption = el('figcaption', {}, [tagged('span', `view.${name}`), ' ', el('span', { class: 'legend', id: `legend-${name}` })]);
  const canvas = el('canvas', { id: `view-${name}`, width: 304, height: TALL ? 160 : 208, 'aria-label': t(`aria.view${name[0].toUpperCase()}${name.slice(1)}`) });
  return el('figure', { class: 'view' }, [caption, canvas]);
}

function lanesSection() {
  const canvas = el('canvas', { id: 'lanes', width: 944, height: 176, 'aria-label': t('aria.lanes'), 'data-compact': TALL ? 'true' : undefined });
  return el('section', { class: 'lanes', 'aria-label': t('aria.lanesSection') }, [canvas]);
}

/** What the playground's App does for its painters and the lesson card, for one figure. */
class EmbedApp {
  constructor(core, fig, lessonId) {
    this.core = core;
    this.fig = fig;
    this.visual = fig === 'lesson' ? (LESSON_VISUAL[lessonId] ?? 'remote') : fig;
    this.reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.state = { playhead: 0, playing: !this.reducedMotion, speed: 1, keys: {} };
    this.model = new Model(core);
    this.painters = [];
    this.lastDraw = { runId: -1 };
    this.inView = true;
    this.running = false;
  }

  /** The delay sweep runs in the simulation worker, as on the playground; only the figures that need it start one. */
  get worker() {
    if (!this.simWorker) throw new Error('no simulation worker in this embed');
    return this.simWorker;
  }

  async start() {
    const spec = FIGURES[this.visual];
    const stage = document.getElementById('stage');
    const controls = this.fig === 'lesson' ? lessonControls(hashParams().get('lesson')) : spec.controls;
    if (spec.plot === 'sweep') this.simWorker = new (await import('./worker-client.js')).SimWorker();
    if (spec.view) stage.append(el('section', { class: 'views' }, [viewFigure(spec.view)]), lanesSection());
    if (spec.plot) stage.append(el('section', { class: 'plots', id: 'plots' }));
    if (spec.comparison) stage.append(el('section', { class: 'comparison', id: 'comparison' }));
    document.body.dataset.fig = this.fig;
    document.body.dataset.visual = this.visual;
    this.controls = buildControls(document.getElementById('controls'), (s, value) => this.change(s, value), {
      only: controls,
      flat: true,
      onNewSeed: () => this.change(byId.seed, Math.floor(Math.random() * 2 ** 32)),
    });
    this.transport = buildTransport(document.getElementById('transport'), {
      state: this.state,
      model: () => this.model,
      seek: (time) => this.seek(time),
    });
    if (spec.view) this.painters.push(...[await import('./views/views.js'), await import('./lanes/lanes.js')].map((m) => m.mount()));
    if (spec.plot) {
      const module = await import(`./plots/${spec.plot}.js`);
      (await import('./plots/figure.js')).ensureStylesheet();
      this.painters.push(module.mount(document.getElementById('plots'), this.figureHost()));
    }
    if (spec.comparison) this.painters.push((await import('./comparison.js')).mount(this.figureHost()));
    if (this.fig === 'lesson') {
      const { Lessons } = await import('./lessons/lessons.js');
      this.lessons = new Lessons(this.lessonHost(), { menuRoot: document.getElementById('lesson-menu'), cardRoot: document.getElementById('lesson-card'), onStepThrough: () => {} });
    }
    measureWidths(document);
    this.applyHash(location.hash);
    window.addEventListener('hashchange', () => this.applyHash(location.hash));
    window.addEventListener('resize', () => fitToFrame(() => this.redrawAll(), ![this.fig, this.visual].some((f) => TEXT_TALL.includes(f))));
    window.addEventListener('netcode-lab-resize', () => this.draw());
    onLangChange(() => { this.lessons?.relabel(); this.controls.sync(this.model.params); this.lastDraw = { runId: -1 }; this.draw(); });
    window.netcodeLab = { app: this, core: this.core, model: () => this.model };
    this.watchVisibility();
    this.draw();
    fitToFrame(() => this.redrawAll(), ![this.fig, this.visual].some((f) => TEXT_TALL.includes(f)));
    document.documentElement.dataset.ready = 'true';
    document.documentElement.dataset.complete = 'true';
  }

  /**
   * What a figure asks of the embed (plots/figure.js `createFigure`, plots/*.js, comparison.js). An embed's changes
   * are coalesced per frame (`change`) and nothing in it waits for a drag: never `inDrag`.
   */
  figureHost() {
    return {
      model: () => this.model,
      seek: (time) => this.seek(time),
      playing: () => this.state.playing,
      requestDraw: () => this.requestDraw(),
      inDrag: () => false,
      afterDrag: (fn, waiting) => afterPause(fn, () => DRAG_GAP, waiting),
      worker: () => this.worker,
      metricsFor: (model) => model.metrics(),
    };
  }

  /** What the lesson card asks of the embed (lessons.js `Lessons`): no slider is ever held down for it here. */
  lessonHost() {
    return {
      model: () => this.model,
      core: () => this.core,
      extras: () => this.extras,
      setExtras: (patch) => { this.extras = { ...this.extras, ...patch }; },
      setPlaying: (on) => this.transport.setPlaying(on),
      setPlayhead: (time) => { this.state.playhead = time; },
      setSpeed: (speed) => { this.state.speed = speed; },
      seek: (time) => this.seek(time),
      apply: (params) => this.apply(params),
      setPreset: (name) => this.controls.setPreset(name),
      sliderHeld: () => false,
      dragGap: () => DRAG_GAP,
      afterDrag: (fn, waiting) => afterPause(fn, () => DRAG_GAP, waiting),
    };
  }

  /** A draw that every painter takes as a new run (nothing kept from the last picture). */
  redrawAll() {
    this.lastDraw = { runId: -1 };
    this.draw();
  }

  /** One redraw at the next animation frame, unless the run plays (its frame draws anyway): hover, async data, resize. */
  requestDraw() {
    if (this.drawRequested) return;
    this.drawRequested = true;
    requestAnimationFrame(() => {
      this.drawRequested = false;
      if (!this.state.playing) this.draw();
    });
  }

  /** Runs the animation only while some of the frame is on screen; a paused embed draws on demand only. */
  watchVisibility() {
    if ('IntersectionObserver' in window) {
      new IntersectionObserver((entries) => {
        this.inView = entries.some((e) => e.isIntersecting);
        this.loop();
      }).observe(document.body);
    }
    this.loop();
  }

  loop() {
    if (this.running || !this.inView || hasFailed()) return;
    this.running = true;
    this.last = performance.now();
    const frame = (now) => {
      if (!this.inView || hasFailed()) {
        this.running = false;
        return;
      }
      const dt = Math.min(Math.max(now - this.last, 0) / 1000, 0.1);
      this.last = now;
      if (this.state.playing) {
        let time = this.state.playhead + dt * this.state.speed;
        if (time > this.model.end) time = this.model.start;
        this.state.playhead = time;
        this.draw();
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  applyHash(hash) {
    const { values, notices, extras } = parseHash(hash, t);
    const lesson = byLessonId[extras.lesson];
    let params = structuredClone(lesson ? lessonParams(lesson, this.model.defaults, this.core) : this.model.defaults);
    for (const [id, value] of Object.entries(values)) params = applyValue(byId[id], params, value, setPath);
    params.events = eventsFromExtras(extras, params.events, notices);
    try {
      this.model.setParams(params);
    } catch (error) {
      notices.push(t('notice.linkRefused', { message: error.message }));
      this.model.setParams(this.model.defaults);
    }
    this.extras = extras;
    const time = Number(extras.t);
    if (extras.t !== undefined && Number.isFinite(time)) {
      this.state.playhead = this.clamp(time);
      this.transport.setPlaying(false);
    } else if (lesson) this.state.playhead = lesson.t;
    if (notices.length) showNotice(notices.join('\n'), { sticky: true });
    this.afterRun();
  }

  change(spec, value) {
    this.pending = applyValue(spec, this.pending ?? this.model.params, value, setPath);
    if (this.frameBusy) return;
    this.frameBusy = true;
    requestAnimationFrame(() => { this.frameBusy = false; });
    this.apply(this.pending);
    this.pending = null;
  }

  apply(params) {
    try {
      this.model.setParams(params);
    } catch (error) {
      showNotice(t('notice.notApplied', { message: error.message }));
    }
    this.afterRun();
  }

  afterRun() {
    this.lessons?.afterRun();
    this.controls.sync(this.model.params);
    this.state.playhead = this.clamp(this.state.playhead);
    this.writeHash();
    this.draw();
  }

  /** The embed keeps its own address as it was given; the state travels in the "open in the playground" link. */
  writeHash() {
    const lesson = byLessonId[this.extras?.lesson];
    const base = lesson ? lessonParams(lesson, this.model.defaults, this.core) : this.model.defaults;
    const extras = { ...eventsToExtras(this.model.params.events), lang: getLang(), lesson: this.extras?.lesson, engines: this.extras?.engines };
    this.stateHash = formatHash(this.model.params, base, getPath, extras);
    document.getElementById('open-playground').href = `./#${this.stateHash}`;
  }

  clamp(time) {
    return Math.min(Math.max(time, this.model.start), this.model.end);
  }

  seek(time) {
    this.state.playhead = this.clamp(time);
    this.draw();
  }

  draw() {
    const model = this.model;
    const frames = model.table('frames');
    const index = model.frameAt(this.state.playhead, frames);
    const frame = model.frameRow(index, frames);
    this.theme ??= theme();
    const ctx = { model, frames, index, frame, playhead: this.state.playhead, theme: this.theme, runChanged: this.lastDraw.runId !== model.runId, state: this.state, engines: null };
    for (const painter of this.painters) painter.draw(ctx);
    this.transport.update(model);
    this.lastDraw = { runId: model.runId };
  }
}

/**
 * Makes the figure fit its frame without scrolling inside it: the figure's canvases keep an aspect ratio
 * (canvas.js `surface`, plots/figure.js, worked-example-view.js read `data-aspect`), so while the page is taller
 * than the frame the tallest of them is made flatter, down to 40 % of its width, and `redraw()` paints it so.
 * Each canvas starts from its own aspect, so a frame made taller gets it back. With `shrink` false (`TEXT_TALL`)
 * it only restores.
 */
function fitToFrame(redraw, shrink = true) {
  const canvases = [...document.querySelectorAll('canvas[data-aspect]')];
  for (const c of canvases) {
    c.dataset.aspectNatural ??= c.dataset.aspect;
    c.dataset.aspect = c.dataset.aspectNatural;
  }
  redraw();
  const root = document.documentElement;
  for (let pass = 0; shrink && pass <= canvases.length; pass++) {
    const over = root.scrollHeight - root.clientHeight;
    const flatter = canvases
      .map((c) => ({ c, box: c.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0.4 * box.width + 1)
      .sort((a, b) => b.box.height - a.box.height)[0];
    if (over <= 0 || !flatter) break;
    // One pixel more than the overflow: the canvas's height is rounded.
    flatter.c.dataset.aspect = String(Math.max(0.4, (flatter.box.height - over - 1) / flatter.box.width));
    redraw();
  }
}

/** Seed 002's worked example (worked-example-view.js), with its render-delay slider. */
async function startWorked(core) {
  const { ExampleView } = await import('./worked-example-view.js');
  document.body.dataset.fig = 'worked';
  const stage = document.getElementById('stage');
  const canvas = el('canvas', { id: 'view', width: 960, height: 420, 'aria-label': t('we.aria') });
  const status = el('p', { class: 'we-status' }, [el('b', { id: 'status' }, ['—']), ' · ', el('span', { id: 'reason' }, ['—']), ' · ', el('output', { id: 'readout' })]);
  stage.append(canvas, status);
  const slider = el('input', { id: 'render-delay', type: 'range', min: 0, max: 300, step: 5, value: 150 });
  const value = el('output', { class: 'value', for: 'render-delay' });
  const control = el('div', { class: 'control' }, [tagged('label', 'control.renderDelay', { for: 'render-delay' }), value, slider]);
  document.getElementById('controls').append(control);
  const playground = new core.WorkedExample();
  const view = new ExampleView(canvas, core.WorkedExample);
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const state = { playing: !reducedMotion, last: performance.now(), inView: true, running: false };
  const redraw = () => view.draw(playground);
  const delay = Number(hashParams().get('renderDelay') ?? NaN);
  if (Number.isFinite(delay) && delay >= 0 && delay <= 300) slider.value = String(delay);
  const apply = () => {
    playground.setRenderDelayMs(Number(slider.value));
    value.textContent = `${Math.round(playground.renderDelayMs)} ms`;
    document.getElementById('open-playground').href = `worked-example.html#lang=${getLang()}`;
    redraw();
  };
  slider.addEventListener('input', apply);
  apply();
  onLangChange(redraw);
  window.addEventListener('resize', () => fitToFrame(redraw));
  const frame = (now) => {
    if (!state.inView || hasFailed()) {
      state.running = false;
      return;
    }
    const dt = Math.min(Math.max(now - state.last, 0) / 1000, 0.1);
    state.last = now;
    if (state.playing) playground.advance(dt * 0.25);
    redraw();
    requestAnimationFrame(frame);
  };
  const loop = () => {
    if (state.running || !state.inView) return;
    state.running = true;
    state.last = performance.now();
    requestAnimationFrame(frame);
  };
  new IntersectionObserver((entries) => { state.inView = entries.some((e) => e.isIntersecting); loop(); }).observe(document.body);
  loop();
  document.getElementById('transport').hidden = true;
  window.netcodeLab = { core, playground, redraw, app: { get running() { return state.running; }, get inView() { return state.inView; } } };
  fitToFrame(redraw);
  document.documentElement.dataset.ready = 'true';
  document.documentElement.dataset.complete = 'true';
}

async function main() {
  const params = hashParams();
  setLang(detectLang(params.get('lang')));
  const fig = params.get('fig') ?? 'remote';
  if (!FIGURES[fig]) throw new Error(t('embed.unknownFigure', { fig, figures: Object.keys(FIGURES).join(', ') }));
  const lessonId = params.get('lesson');
  if (fig === 'lesson' && !byLessonId[lessonId]) throw new Error(t('embed.unknownLesson', { lesson: lessonId ?? '' }));
  // A lesson's words come in a part of their own (i18n.js), fetched for a lesson only.
  if (fig === 'lesson') await loadPart('lessons');
  const title = document.getElementById('embed-title');
  title.dataset.i18n = fig === 'lesson' ? `lesson.${lessonId}.title` : FIGURES[fig].title;
  title.textContent = t(title.dataset.i18n);
  document.title = `${title.textContent} — netcode-lab`;
  // The small first-frame core draws the views, the example build seed 002's example; a lesson (its helpers,
  // engines), the comparison and the plots that read the metrics or the curves (src/web/analysis.rs) need the
  // full one: embed.html decides by the figure's kind (`data-core`) and preloads that build.
  const { loadCore } = await coreModule;
  const core = await loadCore(['full', 'example'].includes(document.documentElement.dataset.core) ? document.documentElement.dataset.core : 'page');
  if (!core) return;
  if (fig === 'worked') return startWorked(core);
  await new EmbedApp(core, fig, lessonId).start();
}

main().catch((error) => showError(error?.message ?? error));
