// Lessons beside the articles: the menu in the top bar and the lesson card in the rail.
// Choosing a lesson sets its parameters (and worked-example trace, playhead and open rail groups); the card
// says what to predict, what to look at and what to try, and puts the article's numbers beside the numbers the
// core computes for the current settings — recomputed after every run, so moving a slider inside a lesson
// shows at once whether the article's number still holds. The lesson is kept in the URL (`lesson=`).
//
// Each row is a check (✓/✗, counted in "N of M checks hold") or an info row (no verdict, not counted). A check
// the article gets wrong at its own settings carries `expect: 'fail'` and its explanation under the row when it
// shows ✗. A row whose computation throws shows "error" (data-error) and logs it with console.error, so the
// end-to-end tests — which fail on any console error — cannot pass over it.
import { t, has, tagged, loadPart } from '../strings/i18n.js';
import { LESSONS, byLessonId, lessonParams, PRESETS, ARTICLE_PRESETS, ADAPTIVE_ROWS, adaptiveRun, settled, meanLag, statusPct, presetRun } from './lesson-data.js';
import { quoted } from '../params.js';
import { el } from '../dom.js';
import { LessonContext, STATUSES } from './lesson-context.js';

// The lessons' and the step-through's words (`lesson.*`, `step.*`) are fetched with this module, after the first
// frame (i18n.js `loadPart`), and are in before it draws one.
await loadPart('lessons');

const GLYPHS = { priming: '…', ready: '✓', underrun: '⚠', gap: '○✕', clockUncertain: '?', invalidInterval: '⊘' };
const UNIT = { ms: ' ms', '%': ' %', s: ' s', px: ' px', Hz: ' Hz', u: '', '': '' };

/** A number (or a point) with its unit, as the card shows it. */
export function formatValue(value, unit = '', digits = 2) {
  const one = (v) => (Number.isFinite(v) ? Number(v.toFixed(digits)).toFixed(digits) : '—');
  const body = Array.isArray(value) ? `(${value.map(one).join(', ')})` : one(value);
  return `${body}${UNIT[unit] ?? ` ${unit}`}`;
}

/** Whether `core` matches `article` for a check's comparison. */
export function passes(cmp, article, core, tol = 0) {
  const a = [article].flat();
  const c = [core].flat();
  if (cmp === 'in') return c.length === 1 && Number.isFinite(c[0]) && c[0] >= a[0] - tol - 1e-12 && c[0] <= a[1] + tol + 1e-12;
  if (a.length !== c.length || c.some((v) => !Number.isFinite(v))) return false;
  return a.every((av, i) => {
    const cv = c[i];
    switch (cmp) {
      case 'abs': return Math.abs(cv - av) <= tol + 1e-12;
      case 'ge': return cv >= av - tol - 1e-12;
      case 'le': return cv <= av + tol + 1e-12;
      case 'lt': return cv < av;
      case 'gt': return cv > av;
      default: return false;
    }
  });
}

function toleranceText(check, article, range = [article]) {
  const a = (v) => formatValue(v, check.unit, check.digits);
  switch (check.cmp) {
    case 'abs': return check.tol ? t('card.tolerance', { tol: check.tol < 0.01 ? check.tol.toExponential(0) : formatValue(check.tol, check.unit, check.digits) }) : t('card.exact');
    case 'ge': return `≥ ${a(article - (check.tol ?? 0))}`;
    case 'le': return `≤ ${a(article + (check.tol ?? 0))}`;
    case 'lt': return `< ${a(article)}`;
    case 'gt': return `> ${a(article)}`;
    case 'in': return `${a(range[0])} – ${a(range[1])}`;
    default: return '';
  }
}

/**
 * The menu, the card and the lesson state. `host`, the page: `model()`, `core()`; the URL's `extras()` and
 * `setExtras(patch)` (the lesson, the step); `setPlaying(on)`, `setPlayhead(t)` (no draw), `setSpeed(s)`, `seek(t)`;
 * `apply(params)` (a run, drawn), `setPreset(name)` (the rail's network preset); `sliderHeld()`, `dragGap()` and
 * `afterDrag(fn, waiting)` (the checks wait for a drag's pause).
 */
export class Lessons {
  constructor(host, { menuRoot, cardRoot, onStepThrough }) {
    this.host = host;
    this.cardRoot = cardRoot;
    this.onStepThrough = onStepThrough;
    this.ctx = new LessonContext(host);
    this.lesson = null;
    this.ourImport = -1;
    this.buildMenu(menuRoot);
  }

  /** The menu in `root`: the place teach.js keeps for it before the lessons are loaded, or a new one. */
  buildMenu(root) {
    this.select = root.querySelector('#lesson-select');
    if (!this.select) {
      this.select = el('select', { id: 'lesson-select' });
      root.append(tagged('label', 'lessons.label', { for: 'lesson-select', class: 'lesson-label' }), this.select);
    }
    this.fillMenu();
    this.select.addEventListener('change', () => this.choose(this.select.value));
  }

  fillMenu() {
    this.select.replaceChildren(el('option', { value: '', text: t('lessons.sandbox') }),
      ...LESSONS.map((l, i) => el('option', { value: l.id, text: `${i + 1}. ${t(`lesson.${l.id}.title`)} · ${l.seed}` })));
    this.select.value = this.lesson?.id ?? '';
  }

  /** The lesson in the URL, or null; an unknown one is dropped with a notice. */
  lessonFromExtras(extras, notices) {
    if (!extras.lesson) return null;
    const lesson = byLessonId[extras.lesson];
    if (!lesson) {
      notices?.push(t('notice.badLesson', { value: quoted(extras.lesson) }));
      delete extras.lesson;
      return null;
    }
    return lesson;
  }

  /** Hook for `applyHash`: the parameters a link starts from (its lesson's), or null for the defaults. */
  baseParams(extras, notices) {
    const lesson = this.lessonFromExtras(extras, notices);
    return lesson ? lessonParams(lesson, this.host.model().defaults, this.host.core()) : null;
  }

  /** Hook for `writeHash`: the URL stores the differences from the lesson's parameters. */
  hashBase() {
    const defaults = this.host.model().defaults;
    return this.lesson ? lessonParams(this.lesson, defaults, this.host.core()) : defaults;
  }

  /**
   * The menu's choice: the lesson's parameters, trace, playhead and rail groups ('' = sandbox). A lesson is a place
   * the reader visits: leaving the sandbox keeps its settings, and coming back to it brings them back (not the
   * defaults); each choice is an entry of the browser's history, so Back returns to where the reader was.
   */
  choose(id) {
    const host = this.host;
    const lesson = byLessonId[id] ?? null;
    host.historyEntry();
    const model = host.model();
    if (!this.lesson && lesson && !model.imported) this.sandbox = structuredClone(model.params);
    host.setExtras({ lesson: lesson?.id, step: undefined });
    host.setPlaying(false);
    this.forceUpdate = true;
    this.activate(lesson);
    if (lesson) host.setPlayhead(lesson.t);
    // A lesson about the reader's own network keeps a recording on screen: nothing to apply (parameters given
    // again as they are would bring the simulation back).
    if (lesson?.keepsNetwork && model.imported) host.afterRun();
    else if (lesson) host.apply(lessonParams(lesson, model.defaults, host.core(), model.params));
    else host.apply(structuredClone(this.sandbox ?? model.defaults));
    host.setPreset(lesson?.preset || 'custom');
    if (lesson) host.seek(lesson.t);
  }

  /** Shows `lesson`'s card and opens only its rail groups (all of them for the sandbox). */
  activate(lesson) {
    this.lesson = lesson;
    this.select.value = lesson?.id ?? '';
    for (const details of document.querySelectorAll('.rail details.group[data-group]')) {
      details.open = !lesson || lesson.groups.includes(details.dataset.group);
    }
    this.render();
  }

  /** Hook at the start of `afterRun`: follow the URL, keep a trace lesson on its trace, recompute the checks. */
  afterRun() {
    const host = this.host;
    const model = host.model();
    if (model.imported && model.runId !== this.ourImport && this.lesson && !this.lesson.keepsNetwork) {
      host.setExtras({ lesson: undefined });
      this.activate(null);
    }
    const wanted = byLessonId[host.extras()?.lesson] ?? null;
    if (wanted?.id !== this.lesson?.id) {
      this.activate(wanted);
      if (wanted) host.setPlaying(false);
      if (wanted && host.extras().t === undefined) host.setPlayhead(wanted.t);
    }
    const lesson = this.lesson;
    if (lesson?.trace && !model.imported) {
      model.importTrace(this.ctx.traceText(lesson.trace.name, lesson.trace.live(model.params)));
      this.ourImport = model.runId;
    }
    this.scheduleUpdate();
  }

  /**
   * Recomputes the checks now — or, while a slider is being dragged (runs less than the drag gap apart), once the
   * drag pauses: some lessons ask the core for extra runs, and a drag must stay one frame per input.
   */
  scheduleUpdate() {
    const now = performance.now();
    const host = this.host;
    // A slider's thumb held down is a drag too, however slowly it moves (scheduler.js `inDrag`).
    const dragging = !this.forceUpdate && (host.sliderHeld() || now - (this.lastRunAt ?? -Infinity) < host.dragGap());
    this.lastRunAt = now;
    this.forceUpdate = false;
    this.cancelUpdate?.();
    this.cancelUpdate = null;
    if (!dragging) {
      this.update();
      return;
    }
    if (this.cardRoot.dataset.pending !== 'true') this.cardRoot.dataset.pending = 'true';
    this.cancelUpdate = host.afterDrag(() => this.update(), () => host.sliderHeld());
  }

  render() {
    const root = this.cardRoot;
    const lesson = this.lesson;
    root.hidden = !lesson;
    root.replaceChildren();
    if (!lesson) {
      delete root.dataset.lesson;
      return;
    }
    root.dataset.lesson = lesson.id;
    const k = (part) => `lesson.${lesson.id}.${part}`;
    const head = el('header', { class: 'lesson-head' },
      el('p', { class: 'lesson-n' }, t('card.lessonOf', { n: lesson.n, total: LESSONS.length }), ' · ', el('cite', { text: t(k('cite')) })),
      el('h2', { text: t(k('title')) }));
    const close = el('button', { type: 'button', class: 'lesson-close', 'aria-label': t('card.close'), title: t('card.close'), text: '×' });
    close.addEventListener('click', () => this.choose(''));
    head.prepend(close);
    const quoteText = t(k('quote'));
    const quote = el('blockquote', { class: 'lesson-quote', lang: 'zh-CN' }, el('span', { class: 'quote-label', text: `${t('card.source')}: ` }),
      lesson.quoteIsCode ? el('code', { text: quoteText }) : quoteText);
    const run = el('button', { type: 'button', id: 'lesson-run', title: t('card.runTitle'), text: t('card.run') });
    run.addEventListener('click', () => this.run());
    const buttons = el('div', { class: 'row' }, run);
    if (lesson.stepThrough) {
      const step = el('button', { type: 'button', id: 'lesson-step', text: t('card.stepThrough') });
      step.addEventListener('click', () => this.onStepThrough?.());
      buttons.append(step);
    }
    this.checksBody = el('tbody');
    const table = el('table', { class: 'checks', id: 'lesson-checks' },
      el('thead', {}, el('tr', {}, el('th', { text: t('card.quantity') }), el('th', { text: t('card.article') }), el('th', { text: t('card.core') }), el('th', {}, ''))),
      this.checksBody);
    this.summary = el('p', { class: 'lesson-summary', id: 'lesson-summary' });
    this.extraRoot = el('div', { class: 'lesson-extra' });
    root.append(head, quote,
      el('h3', { text: t('card.predict') }), el('p', { text: t(k('predict')) }),
      el('h3', { text: t('card.look') }), el('p', { text: t(k('look')) }), buttons,
      el('h3', { text: t('card.check') }), this.summary, table, el('p', { class: 'hint', text: t('card.live') }), this.extraRoot,
      el('h3', { text: t('card.try') }), el('p', { text: t(k('try')) }));
  }

  /** Recomputes every check of the lesson for the current run. */
  update() {
    const lesson = this.lesson;
    this.cardRoot.dataset.pending = 'false';
    if (!lesson || !this.checksBody) return;
    const ctx = this.ctx.refresh();
    const rows = lesson.checks.flatMap((check) => this.checkRow(lesson, check, ctx));
    this.checksBody.replaceChildren(...rows);
    const checks = rows.filter((r) => r.dataset.check && r.dataset.info !== 'true');
    const passed = checks.filter((r) => r.dataset.pass === 'true').length;
    Object.assign(this.summary.dataset, { checks: String(checks.length), passed: String(passed) });
    const info = rows.filter((r) => r.dataset.info === 'true').length;
    this.summary.textContent = [t('card.summary', { passed, checks: checks.length }), ...(info ? [t('card.summaryInfo', { info })] : [])].join(' · ');
    this.cardRoot.dataset.pass = String(passed === checks.length);
    try {
      this.renderExtra(lesson, ctx);
    } catch (error) {
      console.error(`lesson ${lesson.id} extra:`, error);
      this.extraRoot.replaceChildren(el('p', { class: 'row-error', 'data-error': String(error?.message ?? error), text: t('card.error') }));
    }
  }

  /** The row of `check` (and, when it is an expected ✗ that shows ✗, the explanation row under it). */
  checkRow(lesson, check, ctx) {
    const show = (v) => (check.format && [v].flat().every(Number.isFinite) ? check.format(v) : formatValue(v, check.unit, check.digits));
    const articleKey = `lesson.${lesson.id}.article.${check.id}`;
    let article;
    let core;
    let failure = null;
    let vars = check.preset ? { preset: t(`preset.${check.preset}`) } : {};
    let shownArticle = '';
    let shownCore = '';
    try {
      article = typeof check.article === 'function' ? check.article(ctx) : check.article;
      core = check.core(ctx);
      vars = { ...vars, ...(check.articleVars?.(ctx) ?? {}) };
      const articleValue = article === undefined ? '' : show(article);
      // A check without an article sentence shows the article's number itself.
      shownArticle = has(articleKey) ? t(articleKey, { value: articleValue, ...vars }) : articleValue;
      shownCore = show(core);
    } catch (error) {
      // An exception is a bug, never a "—": the row says so and the console error fails every e2e test.
      console.error(`lesson ${lesson.id} check ${check.id}:`, error);
      failure = String(error?.message ?? error);
      core = NaN;
    }
    const labelKey = `lesson.${lesson.id}.check.${check.label ?? check.id}`;
    const row = el('tr', { 'data-check': check.id });
    const coreCell = el('td', { class: 'core' }, el('span', { class: 'value', text: failure ? t('card.error') : shownCore }));
    if (failure) row.dataset.error = failure;
    row.append(el('th', { scope: 'row', text: t(labelKey, vars) }), el('td', { class: 'article', text: shownArticle }), coreCell);
    row.dataset.core = JSON.stringify([core].flat().map((v) => (Number.isFinite(v) ? v : null)));
    if (check.info) {
      row.dataset.info = 'true';
      row.querySelector('th').append(' ', el('span', { class: 'info-note', text: `(${t('card.info')})` }));
      row.append(el('td', { class: 'verdict info' }));
      return [row];
    }
    article = [article].flat();
    const pass = !failure && passes(check.cmp, article.length === 1 && check.cmp !== 'in' ? article[0] : article, core, check.tol ?? 0);
    const tolText = toleranceText(check, article[0], article);
    Object.assign(row.dataset, { article: JSON.stringify(article), cmp: check.cmp, tol: String(check.tol ?? 0), pass: String(pass) });
    if (check.expect) row.dataset.expect = check.expect;
    coreCell.append(el('small', { class: 'tol', text: tolText }));
    const verdict = t(pass ? 'card.passTitle' : 'card.failTitle', { tol: tolText });
    row.append(el('td', { class: `verdict ${pass ? 'pass' : 'fail'}`, title: verdict, 'aria-label': verdict }, el('b', { text: t(pass ? 'card.pass' : 'card.fail') })));
    if (pass || check.expect !== 'fail') return [row];
    // The article's own number does not hold at its settings: why, in one sentence under the row.
    const why = el('tr', { class: 'why', 'data-why': check.id },
      el('td', { colspan: 4 }, el('b', { text: `${t('card.why')} ` }), t(`lesson.${lesson.id}.why.${check.id}`, vars)));
    return [row, why];
  }

  renderExtra(lesson, ctx) {
    const root = this.extraRoot;
    root.replaceChildren();
    if (lesson.extra === 'statusJumps') root.append(this.statusJumps(ctx));
    if (lesson.extra === 'snapTable') root.append(this.snapTable(ctx));
    if (lesson.extra === 'presetTable') root.append(this.presetTable(ctx));
    if (lesson.extra === 'adaptiveTable') root.append(this.adaptiveTable(ctx));
  }

  /** Seed 004 §4.2: both controllers on an RTT step and on a jitter rise (runs of the current settings). */
  adaptiveTable(ctx) {
    const codes = this.host.model().codes.status;
    const body = el('tbody');
    for (const [scenario, mode] of ADAPTIVE_ROWS) {
      const run = adaptiveRun(ctx, scenario, mode);
      const rows = settled(run);
      const end = run.rows.at(-1)?.delay ?? NaN;
      body.append(el('tr', { 'data-scenario': scenario, 'data-mode': mode },
        el('th', { scope: 'row' }, t(`lesson.adaptive-delay.table.scenario.${scenario}`), el('br'), el('small', { text: t(`lesson.adaptive-delay.table.mode.${mode}`) })),
        el('td', { text: formatValue(1000 * end, 'ms', 0) }),
        el('td', { text: formatValue(statusPct(rows, codes, 'underrun'), '%', 1) }),
        el('td', { text: formatValue(1000 * meanLag(rows), 'ms', 0) })));
    }
    const h = (key) => el('th', { text: t(`lesson.adaptive-delay.table.${key}`) });
    return el('table', { class: 'preset-table', id: 'adaptive-table' },
      el('caption', { text: t('lesson.adaptive-delay.table.caption') }),
      el('thead', {}, el('tr', {}, h('scenario'), h('delay'), h('underrun'), h('lag'))), body);
  }

  statusJumps(ctx) {
    const counts = ctx.statusFrames();
    const wrap = el('div', { class: 'status-jumps' });
    for (const s of STATUSES) {
      const name = `${GLYPHS[s]} ${t(`status.${s}`)}`;
      if (!counts[s]) {
        wrap.append(el('span', { class: 'status-none', 'data-status': s, text: t('lesson.statuses.none', { status: name }) }));
        continue;
      }
      const b = el('button', { type: 'button', 'data-status': s, text: t('lesson.statuses.jump', { status: name, frames: counts[s] }) });
      b.addEventListener('click', () => {
        this.host.setPlaying(false);
        this.host.seek(ctx.firstStatus[s]);
      });
      wrap.append(b);
    }
    return wrap;
  }

  snapTable(ctx) {
    const cells = ctx.snapTable();
    const player = ctx.params.paths.player;
    const cell = (stale, far) => {
      const c = cells.find((x) => x.stale === stale && x.far === far);
      const text = c.snapped ? t('lesson.v2-snap.table.snap') : t('lesson.v2-snap.table.play', { outcome: t(`outcome.${c.outcome}`) });
      return el('td', { class: c.snapped ? 'snap' : 'play', 'data-snapped': String(c.snapped), text });
    };
    return el('table', { class: 'truth-table', id: 'snap-table' },
      el('caption', { text: t('lesson.v2-snap.table.caption') }),
      el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', { text: t('lesson.v2-snap.table.near') }),
        el('th', { text: t('lesson.v2-snap.table.far', { distance: player.hardSnapDistance }) }))),
      el('tbody', {},
        el('tr', {}, el('th', { scope: 'row', text: t('lesson.v2-snap.table.fresh') }), cell(false, false), cell(false, true)),
        el('tr', {}, el('th', { scope: 'row', text: t('lesson.v2-snap.table.stale', { gap: player.staleGap }) }), cell(true, false), cell(true, true))));
  }

  /** Each preset's article settings on its network: counted from the newest snapshot, and from the present. */
  presetTable(ctx) {
    const body = el('tbody');
    const cells = (m) => [el('td', { text: formatValue(100 * m.remote.underrunShare, '%', 1) }), el('td', { text: formatValue(1000 * m.remote.meanLag, 'ms', 0) })];
    for (const name of PRESETS) {
      const [rate, delay] = ARTICLE_PRESETS[name];
      const fromNewest = presetRun(ctx, name, true).metrics;
      const fromPresent = presetRun(ctx, name, false).metrics;
      body.append(el('tr', { 'data-preset': name },
        el('th', { scope: 'row', text: t(`preset.${name}`) }),
        el('td', { text: `${rate} Hz · ${Math.round(delay * 1000)} ms` }), ...cells(fromNewest), ...cells(fromPresent)));
    }
    const h = (key, attrs = {}) => el('th', { text: t(`lesson.presets.table.${key}`), ...attrs });
    return el('table', { class: 'preset-table', id: 'preset-table' },
      el('caption', { text: t('lesson.presets.table.caption') }),
      el('thead', {},
        el('tr', {}, el('th', { rowspan: 2 }, t('lesson.presets.table.preset')), h('settings', { rowspan: 2 }), h('newest', { colspan: 2 }), h('present', { colspan: 2 })),
        el('tr', {}, h('underrun'), h('lag'), h('underrun'), h('lag'))),
      body);
  }

  /** ▶ Run: play the lesson from its start at its speed. */
  run() {
    const { host, lesson } = this;
    if (!lesson) return;
    host.setSpeed(lesson.run.speed);
    const speed = document.getElementById('speed');
    if (speed) speed.value = String(lesson.run.speed);
    host.seek(lesson.run.from);
    host.setPlaying(true);
  }

  /** After a language switch: the menu and the card in the new language. */
  relabel() {
    this.fillMenu();
    this.render();
    this.update();
  }
}
