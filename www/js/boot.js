// The page's boot (its goal: the first frame in 1.5 s on a 4G phone): from the HTML's first paint to `data-ready`
// (the first frame) and `data-complete` (every figure mounted). It is a chain of short tasks, one named phase
// each (`bootPhase`), so that no task of the load is long on a slow phone and the browser can paint and handle
// input between them:
//
//   painted → core → model → controls, controls-2, rail → engines → mount-views → mounts → teach →
//   classroom → widths → hash → readouts → view-NAME … → lanes → first-frame (data-ready) → after-first-frame →
//   inspector, league, mount-plots … (as each arrives) → complete (data-complete)
//
// main.js holds the running page (`App`: the model, a change, a draw) and its entry, scheduler.js when each runs (the
// frame loop, a drag, what waits for it); this module builds the page and hands each part the few ports it uses.
import { byId, GROUPS } from './params.js';
import { buildControls } from './controls.js';
import { buildTransport } from './transport.js';
import { measureWidths } from './canvas.js';
import * as views from './views/views.js';
import * as lanes from './lanes/lanes.js';
import { buildEvents } from './events.js';
import { startLanguage, installTeaching } from './teach.js';
import { loadLanguages, t } from './strings/i18n.js';
import { loadLater } from './marks.js';
import { loadCore, wasmMemoryBytes } from './core.js';
import * as engines from './engines/engines.js';
import { mountClassroom, foldRailOnPhone } from './classroom.js';
import { mountFigureTools } from './figure-tools.js';

/**
 * The boot's own yield: a new task at once. Not `setTimeout(0)`: from the fifth nested timer on, the browser
 * waits at least 4 ms before running it, so a chain of twenty phases left the main thread idle between them —
 * time the first frame waited for, and in which idle callbacks (the engines' swatches) ran before it.
 * A message to ourselves is a task like a timer's, without that clamp; rendering and input still come between.
 */
export const bootTask = (() => {
  const waiting = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => waiting.shift()?.();
  return () => new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
})();

/** Resolves in the task after the next rendering (a frame's style and layout done, so reading sizes is free). */
const afterNextRender = () => new Promise((resolve) => requestAnimationFrame(() => bootTask().then(resolve)));

/**
 * The boot's phases in order (`window.netcodeLab.bootPhases`, read by tests/e2e/boot.test.mjs), each also a
 * performance mark `boot:NAME` (benches/page/trace.mjs prints them with the task they fall in): the boot is a
 * chain of short tasks, one phase each.
 */
export const bootPhases = [];
export function bootPhase(name) {
  performance.mark(`boot:${name}`);
  bootPhases.push(name);
}

/** Runs `fn` when the main thread is idle (at most `timeout` ms later). */
function whenIdle(fn, timeout = 1000) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout });
  else setTimeout(fn, 50);
}

/** A link to a lesson, an engine or a step needs the full core from the first frame (core.js). */
export const NEEDS_FULL_CORE = /(^#|&)(lesson|engines|step)=/;
/** …and a link to a lesson or a step, the lessons (teach.js). */
const NEEDS_LESSONS = /(^#|&)(lesson|step)=/;

/**
 * Resolves once the browser has painted what the HTML shows by itself (the top bar), or after `ms` if it paints
 * no frame (a tab in the background): the boot's work then never runs before the first paint, however busy the
 * machine. On a loaded machine the first paint could come after the core's first run and the rail, which
 * Lighthouse's simulation then charges to the first contentful paint (1.6 s ↔ 3.1 s on the same page).
 */
export const firstPaint = (ms = 100) => new Promise((resolve) => {
  requestAnimationFrame(() => setTimeout(resolve, 0));
  setTimeout(resolve, ms);
});

/**
 * Builds the page for `app` (main.js's `App`) in short tasks, so the main thread never blocks for long (each
 * `await bootTask()` lets the browser paint and handle input): the rail, the teaching tools, then the views and
 * lanes with the first frame — the page says `data-ready` here and shows itself whole (playground.css keeps the shell hidden until
 * then, so nothing jumps as it builds) — then what is below the fold, one figure group per task, and
 * `data-complete`.
 */
export async function boot(app) {
  startLanguage(); // zh / en before anything is built (teach.js)
  document.getElementById('version').textContent = app.core.version();
  await bootTask(); // the core's first run (new App) and each part of the rail in a task of its own
  // The rail's groups in two tasks (the first half: the network, smoothing and prediction; then the rest).
  const rail = document.getElementById('controls');
  const railOptions = { onNewSeed: () => app.change(byId.seed, Math.floor(Math.random() * 2 ** 32)), inputs: {} };
  const onChange = (spec, value) => app.change(spec, value);
  const half = Math.ceil(GROUPS.length / 2);
  app.controls = buildControls(rail, onChange, { ...railOptions, groups: GROUPS.slice(0, half).map((g) => g.id) });
  app.watchSliderHold(rail);
  bootPhase('controls');
  await bootTask();
  buildControls(rail, onChange, { ...railOptions, groups: GROUPS.slice(half).map((g) => g.id) });
  bootPhase('controls-2');
  await bootTask();
  app.events = buildEvents(document.getElementById('controls'), {
    playhead: () => app.state.playhead,
    apply: (events) => app.apply({ ...app.model.params, events }),
  });
  app.transport = buildTransport(document.getElementById('transport'), {
    state: app.state,
    model: () => app.model,
    seek: (t) => app.seek(t),
    onPlayingChange: () => { app.autoplay = false; }, // a Play/Pause (by the reader or a lesson) decides
  });
  app.transport.setPlaying(false);
  app.autoplay = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  foldRailOnPhone(); // before its first layout (classroom.js)
  bootPhase('rail');
  // The rail is built: laid out in the rendering after this task (playground.css keeps it out of layout until
  // now), the main column's in a later one — two moderate renderings instead of one long one.
  document.documentElement.dataset.built = 'rail';
  await afterNextRender();
  const ports = app.ports;
  // The picks before the first draw; a pick or an unpick is written into the URL and drawn at once.
  app.enginesPanel = engines.mount({ changed: () => { ports.writeHash(); ports.redraw(); } });
  bootPhase('engines'); // ~40–70 ms at 4× CPU (the league table and the inspector join after the first frame)
  await bootTask();
  // The views and the lanes join `painters` as each has drawn its first frame (below).
  // Each mount in a task of its own (together ~90 ms at 4× CPU).
  const scheduler = app.scheduler;
  const firstPainters = [views.mount()];
  scheduler.watch(firstPainters[0], document.querySelector('.views'));
  bootPhase('mount-views');
  await bootTask();
  const lanesPainter = lanes.mount();
  firstPainters.push(lanesPainter);
  scheduler.watch(lanesPainter, document.querySelector('.lanes'));
  bootPhase('mounts');
  await bootTask();
  // The lessons menu, the language switch, the lesson card and the step-through.
  app.teach = installTeaching(app.portsFor('model', 'core', 'extras', 'setExtras', 'writeHash', 'applyHash', 'relabel',
    'playing', 'playhead', 'setPlayhead', 'setSpeed', 'setPlaying', 'seek', 'apply', 'setPreset', 'redraw', 'setHighlight',
    'sliderHeld', 'dragGap', 'afterDrag', 'afterRun', 'historyEntry'));
  bootPhase('teach');
  await bootTask();
  // Present mode (button, key P, `present=1`: kept in the URL, every canvas drawn again at its zoom), the phone's button.
  app.classroom = mountClassroom({
    changed: (on, byReader) => {
      if (byReader) app.historyEntry(); // turned on or off by the toggle or the key (not by a link): Back undoes it
      ports.setExtras({ present: on ? '1' : undefined });
      ports.writeHash();
      ports.redrawAll();
    },
  });
  // Embed code and PNG under the views and the lanes (and the figures mounted later: `adopt`).
  app.figureTools = mountFigureTools(app.portsFor('model', 'preset', 'playhead', 'playing', 'redrawAll', 'theme',
    'drawDeferred', 'currentHash', 'extras'));
  bootPhase('classroom');
  // A link to a lesson (or a step of one) waits for the lessons before its first frame; any other first frame
  // does without them (teach.js `loadLessons`, fetched just after it).
  if (NEEDS_LESSONS.test(location.hash)) await app.teach.loadLessons();
  // The main column's DOM is built: it is laid out now, once (playground.css keeps it out of layout until here,
  // so the phases above cost no style or layout each), in the rendering after this task.
  document.documentElement.dataset.built = 'all';
  await afterNextRender();
  measureWidths(document); // one layout for every canvas, not one per canvas as each draws
  // The readouts and the transport are written every frame: during a drag only while in view, like a painter.
  scheduler.watchText('readouts', document.querySelector('.readouts'));
  scheduler.watchText('transport', document.getElementById('transport'));
  bootPhase('widths');
  await bootTask();
  // The run the link asks for; then what is quick to show (readouts, transport, inspector, the engines panel:
  // `draw` with no painter yet), then the views (one per task) and the lanes, so no task of the boot is long on a
  // slow phone (the link and the readouts in one task were the longest before the first frame, ~200 ms at 4× CPU).
  app.applyHash(location.hash, { drawNow: false });
  bootPhase('hash');
  await bootTask();
  app.draw();
  // The packet inspector joins after the first frame (marks.js); its hint under the lanes is there from the start.
  document.getElementById('inspector').textContent = t('inspect.hint');
  bootPhase('readouts');
  for (const painter of firstPainters) {
    if (painter.names) {
      for (const name of painter.names) {
        await bootTask();
        painter.drawView(name, app.scene(true));
        bootPhase(`view-${name}`);
      }
      painter.stale = false;
    } else {
      await bootTask();
      await scheduler.drawOne(painter);
      bootPhase('lanes');
    }
    scheduler.add(painter);
  }
  window.addEventListener('hashchange', () => { if (location.hash !== app.writtenHash) app.applyHash(location.hash); });
  // Back and Forward over the deliberate moves (main.js `historyEntry`): the entry's URL is the state to return to,
  // an import's entry included (its URL is the simulated run's, so going back leaves the import).
  window.addEventListener('popstate', () => app.applyHash(location.hash));
  window.addEventListener('resize', () => app.draw());
  window.addEventListener('netcode-lab-resize', () => app.draw());
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => { app.theme = null; app.draw(); });
  window.addEventListener('keydown', (e) => app.onKey(e, true));
  window.addEventListener('keyup', (e) => app.onKey(e, false));
  window.netcodeLab = { app: app, core: app.core, model: () => app.model, wasmMemoryBytes, bootPhases };
  scheduler.start();
  bootPhase('first-frame');
  document.documentElement.dataset.ready = 'true';
  app.ready = true;
  app.playOnFirstInteraction();
  await bootTask();
  // After the first frame, each in a task of its own: the league table's first request (it starts the simulation
  // worker, which loads a core of its own: when the main thread is idle, so its table does not land amid the
  // boot), then the full core (traces, engines, lessons' helpers: core.js), fetched beside the plots; the tools
  // that need it hold their clicks until it is in. The swap is a task of its own too.
  // The status card's last clock jump (the full core's jump log: src/web/analysis.rs) is asked of the worker then
  // too: it says "computing…" until the answer (main.js `metricsForFrame`).
  // The league table comes with them (later.js); its section fills as the worker answers.
  const leagueLoading = loadLater().then(async (mod) => {
    await bootTask();
    app.league = mod.mountLeague(app.portsFor('theme', 'worker', 'inDrag', 'afterDrag'));
    app.settings = mod.mountSettings(app.portsFor('theme', 'worker', 'inDrag', 'afterDrag'));
    bootPhase('league');
  });
  whenIdle(() => {
    leagueLoading.then(() => {
      app.league.refresh(app.model);
      app.settings.refresh(app.model);
    });
    app.drawReadouts();
  });
  const full = loadCore('full').then(async (core) => {
    await bootTask();
    if (core && core !== app.core) app.upgrade(core);
    if (core) app.controls.describe(core.Playground.schema()); // each control's parameter, as the core states it
    return core;
  });
  // Not part of the first frame's download either: the other language's strings (i18n.js), so a switch is
  // instant, and the step-through (teach.js; its button is held with the full core's tools).
  const languages = loadLanguages();
  // The packet inspector and the step-through's marks (marks.js): nothing is inspected or highlighted before now.
  const inspecting = loadLater().then(async (mod) => {
    await bootTask();
    mod.watchGlossary(); // the readouts' terms explained on hover and tap
    // The touch pad under the Local view: the arrow keys' own path (held while pressed).
    mod.mountTouchPad({ steer: (code, down) => app.onKey({ code, target: null, preventDefault() {} }, down) });
    app.inspector = mod.MARKS.mountInspector({
      ...app.portsFor('model', 'playhead', 'playing', 'seek', 'redraw', 'highlight'),
      lanes: () => lanesPainter.last, // where the lanes drew what, as last drawn
    });
    bootPhase('inspector');
    // Trace import and export, at the rail's foot (its clicks are held until the full core is in, below).
    await bootTask();
    const traceIO = mod.buildTraceIO(document.getElementById('trace-io'), {
      core: () => app.core,
      model: () => app.model,
      beforeImport: () => app.historyEntry(),
      imported: mod.mountImported(app.portsFor('model', 'setPlayhead', 'afterRun', 'redraw', 'addPainter', 'apply', 'setPreset',
        'requestDraw', 'inDrag', 'playing')).onImported,
      framesDrawn: () => scheduler.framesDrawn,
    });
    foldRailOnPhone(document.getElementById('trace-io')); // folded on a phone, as the rail's other groups
    bootPhase('trace-io');
    // "Record my network" below it (record.js): a recording is shown by the same import.
    await mod.mountRecorder(traceIO.load, () => full, () => app.extras);
  });
  const stepper = app.teach.loadStepper();
  const lessons = app.teach.loadLessons();
  const tools = Promise.all([full, lessons]).then(([core]) => core);
  if (!app.core.Lessons) app.holdUntil(tools, ['topbar-tools', 'engines', 'lesson-card', 'stepper', 'trace-io']);
  bootPhase('after-first-frame');
  // Below the fold: the plots, then the lerp-chase comparison, fetched only now (they are not part of the
  // first frame's download); each joins the frame loop once mounted.
  const later = [['plots', import('./plots.js')], ['comparison', import('./comparison.js')]];
  // They draw from what only the full core computes (the metrics, the curves: src/web/analysis.rs): they join
  // once it is in.
  await full;
  for (const [section, loading] of later) {
    const module = await loading;
    await module.styled; // their sheet (plots.css) applies before they are laid out: no shift (figure.js)
    await bootTask();
    const painter = module.mount(app.portsFor('model', 'seek', 'playing', 'requestDraw', 'inDrag', 'afterDrag', 'worker', 'metricsFor'));
    painter.simulationOnly = true; // a trace knows no truth, paths or local player: these step aside
    bootPhase(`mount-${section}`);
    await bootTask(); // the mount's DOM and the layout that reads its canvases' widths: two tasks
    app.figureTools.adopt(); // their embed code and PNG
    measureWidths(document);
    bootPhase(`widths-${section}`);
    // Only the newcomer is drawn, and only once it comes near the viewport (offscreen.js `onScreen`): the views
    // and lanes already show this run, and a figure far below the fold drawn at load was one long task per figure
    // (40–90 ms each at 4× CPU — most of Lighthouse's blocking time). Until then it is `deferred`: `draw` passes
    // it by, `watch` draws it as it scrolls in (one figure per task), `drawDeferred` at once (a PNG, the tests).
    painter.deferred = true;
    scheduler.add(painter);
    scheduler.watch(painter, document.getElementById(section));
  }
  await full;
  await languages;
  await inspecting;
  await leagueLoading;
  await stepper;
  await lessons;
  await bootTask();
  app.complete = true;
  // Every painter shows this run already (the full core's run is the same bits): only the metrics table, which
  // waits for the plots above it, is left to fill — as it comes near the viewport (offscreen.js), like the
  // figures: its numbers are the full core's (src/web/analysis.rs), and asking for them moves the run there, a
  // re-simulation the load need not make.
  app.metricsTable = { deferred: true };
  scheduler.observe(app.metricsTable, document.getElementById('metrics'), () => app.drawMetricsSoon());
  bootPhase('complete');
  document.documentElement.dataset.complete = 'true';
}
