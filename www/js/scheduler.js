// The frame scheduler: when the playground's work runs. The page (main.js `App`) keeps the model and says how each
// thing is done; this module decides when:
//
// - the frame loop: one requestAnimationFrame after another; a frame runs the change held since the last one, moves
//   the playhead while the run plays, and draws when it plays or a draw is owed (`owe`, `requestDraw`);
// - coalescing: a slider fires input events faster than the screen shows frames, so the first change since the
//   last frame runs at once and later ones are held, the newest running at the next frame's start (`coalesce`):
//   one re-simulation per frame;
// - the drag: a thumb held down on one of the rail's sliders (`sliderHeld`), or changes closer together than
//   `dragGap` (`inDrag`); what is not the frame's own waits for it to pause (`afterDrag`);
// - staleness: during a drag a painter (or a text part: the readouts, the transport) the reader cannot see is
//   skipped and marked stale (offscreen.js tells what is seen), drawn as it scrolls in or once the drag pauses —
//   one stale painter per draw, a figure of several parts one part per task (`catchUp`), so catching up is never
//   one long task;
// - the URL: built and written at once outside a drag, at the release for a held thumb, after a pause of the
//   changes for other drags (`writeHash`).
import { watchPainter } from './offscreen.js';

/** Changes closer together than this (ms) are a drag: what is not the frame's own waits for the pause. */
export const DRAG_GAP = 150;

/** A drag not made by a held thumb (keys on a slider, the sweep plot) has the URL written once its changes pause this long (ms). */
const HASH_PAUSE = 250;

/** Resolves in a new task: what was drawn so far can be painted, and input handled, before the next part. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Runs `fn` after `gap()` ms, or — while `waiting()` says so — after each further gap until it no longer does.
 * Returns a function that cancels it. `gap` is read at every wait (a test may lengthen it meanwhile).
 */
export function afterPause(fn, gap, waiting) {
  let timer = null;
  const check = () => {
    if (waiting()) {
      timer = setTimeout(check, gap());
      return;
    }
    timer = null;
    fn();
  };
  timer = setTimeout(check, gap());
  return () => clearTimeout(timer);
}

export class FrameScheduler {
  /**
   * `hooks`: how the page does what the scheduler runs.
   * - `draw()`: draws the page for the playhead (`App.draw`, which calls `beginDraw`, `drawPainters`, `textPart`
   *   and `endDraw`);
   * - `scene()`: what a painter drawn on its own draws from (a painter that has just joined or is catching up);
   * - `apply(params)`: runs a held change without drawing it (the frame draws);
   * - `advance(dt)`: moves the playhead by `dt` seconds of wall time if the run plays; returns whether it plays;
   * - `playing()`: whether the run plays (then every frame draws anyway);
   * - `runId()`: the run on screen (a catch-up stops when it changes);
   * - `skips(painter)`: whether a painter steps aside for the run on screen (a trace has no simulation-only figure);
   * - `writeUrl()`: builds and writes the URL for the current configuration, now;
   * - `urlWritten()`: whether the address bar shows what `writeUrl` wrote last;
   * - `failed()`: whether the page has failed (the loop stops: the banner says why).
   */
  constructor(hooks) {
    this.hooks = hooks;
    /** Changes closer together than this (ms) are a drag (tests may lengthen it, to be sure what counts as one). */
    this.dragGap = DRAG_GAP;
    /** A pointer holds one of the rail's sliders down (`watchSliderHold`). */
    this.sliderHeld = false;
    this.heldControl = null;
    this.lastChangeAt = -Infinity;
    /** Whether the last change came less than `dragGap` after the one before. */
    this.dragging = false;
    /** The newest change held for the next frame (`coalesce`), or null. */
    this.held = null;
    this.simulatedThisFrame = false;
    /** A draw is owed to the next frame. */
    this.drawOwed = false;
    this.framesDrawn = 0;
    this.last = 0;
    /** Everything drawn per frame from the scene, in order (the views, the lanes, then the plots, the comparison). */
    this.painters = [];
    /** The page's words that change every frame (`readouts`, `transport`), watched like painters (`textPart`). */
    this.textParts = {};
    this.settleTimer = null;
    this.hashTimer = null;
    this.hashAtRelease = false;
    this.lastHashChange = -Infinity;
  }

  // ---- the drag ----

  /**
   * Whether a slider is being dragged: its thumb is held down by a pointer (`sliderHeld`), or — keys held on a
   * slider, a drag on the sweep plot — the last change came less than `dragGap` after the one before and no pause
   * has followed yet. A hand that slows down mid-drag (or a busy machine delivering its moves late) is still
   * dragging while the button is down: what waits for the drag (figures off screen, the league table, the URL)
   * keeps waiting until the release, instead of all running in every pause longer than `dragGap`.
   */
  get inDrag() {
    return this.sliderHeld || (this.dragging && performance.now() - this.lastChangeAt < this.dragGap);
  }

  /**
   * Tracks a pointer held on one of `rail`'s sliders (`sliderHeld`). Its release ends the drag: the URL it left
   * unwritten is written, and what it left stale is drawn once it is over.
   */
  watchSliderHold(rail) {
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
      if (this.hashAtRelease) {
        this.hashAtRelease = false;
        this.hooks.writeUrl();
      }
      if (this.painters.some((p) => p.stale) || Object.values(this.textParts).some((p) => p.stale)) this.drawWhenDragPauses();
    };
    for (const type of ['pointerup', 'pointercancel']) window.addEventListener(type, release, true);
    window.addEventListener('blur', release);
  }

  /**
   * Runs `fn` once the drag pauses: after `dragGap`, then after every further gap while `waiting()` (by default:
   * still in a drag). For what follows a change without being the frame's own — the league table, an unseen sweep,
   * the lessons' checks, the metrics table. Returns a function that cancels it.
   */
  afterDrag(fn, waiting = () => this.inDrag) {
    return afterPause(fn, () => this.dragGap, waiting);
  }

  // ---- coalescing and the frame loop ----

  /**
   * A change arrives. The first since the last frame runs at once (what reads the model right after sees it):
   * returns false, the caller applies it. Later ones are held, the newest winning, for the start of the next frame:
   * returns true. Nothing is drawn here: the frame draws once, with the newest run.
   */
  coalesce(params) {
    const now = performance.now();
    this.dragging = now - this.lastChangeAt < this.dragGap;
    this.lastChangeAt = now;
    if (this.simulatedThisFrame) {
      this.held = params;
      return true;
    }
    this.simulatedThisFrame = true;
    return false;
  }

  /** Starts the frame loop (the boot's first frame). */
  start() {
    this.last = performance.now();
    requestAnimationFrame((t) => this.frame(t));
  }

  frame(now) {
    if (this.hooks.failed()) return;
    this.framesDrawn += 1;
    const dt = Math.min(Math.max(now - this.last, 0) / 1000, 0.1);
    this.last = now;
    // The newest change held since the last frame runs first: it counts as this frame's run.
    const held = this.held;
    this.held = null;
    this.simulatedThisFrame = Boolean(held);
    if (held) this.hooks.apply(held);
    const playing = this.hooks.advance(dt);
    if (playing || this.drawOwed) this.hooks.draw();
    requestAnimationFrame((t) => this.frame(t));
  }

  /** The next frame draws (after a change applied without drawing it). */
  owe() {
    this.drawOwed = true;
  }

  /** One draw at the next animation frame, unless the run plays (its frame draws anyway). */
  requestDraw() {
    if (this.hooks.playing()) return;
    this.drawOwed = true;
    requestAnimationFrame(() => { if (this.drawOwed) this.hooks.draw(); });
  }

  /** Whether a change is still held for the next frame, or a draw is owed (tests wait for it). */
  get pending() {
    return Boolean(this.held) || this.drawOwed;
  }

  // ---- painters and their staleness ----

  /** A painter's section: skipped during a drag while off screen, drawn as it comes into view (offscreen.js). */
  watch(painter, element) {
    if (painter.deferred) painter.onScreen = painter.visible = false; // until its observer says otherwise
    watchPainter(painter, element, () => this.requestDraw());
  }

  /** Something drawn outside the frame (the metrics table) with its own `shown` when it nears the viewport while stale or deferred. */
  observe(part, element, shown) {
    watchPainter(part, element, shown);
  }

  /** `painter` joins the frame's drawing (after its first drawing, or `deferred`: drawn first as it comes near). */
  add(painter) {
    this.painters.push(painter);
  }

  /** The page's text part `name` (`readouts`, `transport`) lives in `element`: watched like a painter. */
  watchText(name, element) {
    const part = { stale: false };
    this.textParts[name] = part;
    this.watch(part, element);
  }

  /** A draw begins: nothing is owed any more. */
  beginDraw() {
    this.drawOwed = false;
  }

  /**
   * Draws the painters for `ctx`. During a drag (`dragging`) a painter the reader cannot see now (`visible`) waits,
   * stale; paused, one far off screen (`onScreen`) is drawn per draw; a painter of several figures (`parts`) out of
   * view catches up one figure per task. A painter never drawn since the load (`deferred`) waits until it is near.
   */
  drawPainters(ctx, dragging) {
    let caughtUp = false;
    for (const painter of this.painters) {
      if (this.hooks.skips(painter)) continue;
      if (painter.catchingUp) continue; // its figures are being drawn, one per task (`catchUp`)
      if (painter.deferred && painter.onScreen === false) { // never drawn yet, far off screen: `watch` draws it
        painter.stale = false; // nothing drawn to be out of date
        continue;
      }
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
  }

  /**
   * Whether this draw writes the text part `name`: not during a drag while it is out of the viewport — it is
   * marked stale then, written as it scrolls in or once the drag pauses. A part never watched is always written.
   */
  textPart(name, dragging) {
    const part = this.textParts[name];
    if (!part) return true;
    if (dragging && part.visible === false) {
      part.stale = true;
      return false;
    }
    part.stale = false;
    return true;
  }

  /**
   * Whether the text part `name` waits for the drag, for a write outside the frame (the worker's metrics arriving,
   * an idle callback): during a drag, out of view, it is marked stale and written once the drag pauses.
   */
  textWaits(name) {
    const part = this.textParts[name];
    if (!(this.inDrag && part?.visible === false)) return false;
    part.stale = true;
    this.drawWhenDragPauses();
    return true;
  }

  /** A draw ends: what it left stale is drawn once the drag pauses. */
  endDraw() {
    if (this.painters.some((p) => p.stale && !p.catchingUp && !this.hooks.skips(p))
      || Object.values(this.textParts).some((p) => p.stale)) this.drawWhenDragPauses();
  }

  /**
   * Draws again once the drag pauses, for what it left stale: one stale painter per draw, each in its own task
   * while paused (each frame's while playing).
   */
  drawWhenDragPauses() {
    if (this.settleTimer) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (this.inDrag) return this.drawWhenDragPauses();
      if (!this.hooks.playing()) this.hooks.draw();
    }, this.inDrag ? this.dragGap : 0);
  }

  /**
   * Brings a stale painter of several figures (the plots), out of view, to the current run after a drag: one
   * figure per task, as several static layers drawn at once make a long task. A drag or a new run meanwhile leaves
   * it stale, for the next catch-up.
   */
  async catchUp(painter) {
    painter.catchingUp = true;
    const runId = this.hooks.runId();
    let done = true;
    for (const part of painter.parts) {
      await nextTask();
      if (this.inDrag || this.hooks.runId() !== runId) {
        done = false;
        break;
      }
      part.draw(this.hooks.scene());
    }
    painter.catchingUp = false;
    if (done) painter.stale = painter.deferred = false;
    else this.drawWhenDragPauses();
  }

  /**
   * Draws a painter that has just joined (it has not drawn this run yet) and leaves the others as they are; a
   * painter of several figures (`parts`) draws one per task.
   */
  async drawOne(painter) {
    for (const part of painter.parts ?? [painter]) {
      if (this.hooks.skips(painter)) return;
      part.draw(this.hooks.scene());
      if (painter.parts) await nextTask();
    }
    painter.stale = false;
  }

  /**
   * Draws every painter still waiting for its first drawing (`deferred`, far off screen since the load) now, in
   * this task: for what reads their canvases without scrolling to them (a figure's PNG, a print, the end-to-end
   * tests). Returns how many it drew.
   */
  drawDeferred() {
    const waiting = this.painters.filter((p) => p.deferred && !this.hooks.skips(p));
    if (!waiting.length) return 0;
    const ctx = this.hooks.scene();
    for (const painter of waiting) {
      painter.draw(ctx);
      painter.deferred = painter.stale = false;
    }
    return waiting.length;
  }

  // ---- the URL ----

  /**
   * Writes the URL for the current configuration — or later. Writing it costs a replaceState (~1–2 ms in Chromium,
   * more on a slow phone) and building the hash (a diff of every parameter against the base) ~1 ms more, so any
   * change but a drag writes it at once (a lesson, a step, a lone slider move: a reload or a copied link right
   * after keeps it), and a drag builds nothing per change: a thumb held down has it written once, at its release
   * (`watchSliderHold`), never in a frame of the drag; other drags (keys held on a slider, the sweep plot) once the
   * changes pause for HASH_PAUSE, from the configuration of that moment. Tests wait for `urlCaughtUp`.
   */
  writeHash() {
    const now = performance.now();
    const quiet = !this.inDrag || (!this.sliderHeld && now - this.lastHashChange >= HASH_PAUSE);
    this.lastHashChange = now;
    clearTimeout(this.hashTimer);
    this.hashTimer = null;
    this.hashAtRelease = false;
    if (quiet) return this.hooks.writeUrl();
    if (this.sliderHeld) {
      this.hashAtRelease = true;
      return;
    }
    this.hashTimer = setTimeout(() => {
      this.hashTimer = null;
      this.hooks.writeUrl();
    }, HASH_PAUSE);
  }

  /** Whether the address bar shows the current configuration (it lags a slider drag until its release or pause). */
  get urlCaughtUp() {
    return !this.hashTimer && !this.hashAtRelease && this.hooks.urlWritten();
  }
}
