// The teaching layer over the playground: the language switch (zh-CN / English), the lessons menu and card,
// and the step-through explainer. The page calls it at five places: `startLanguage()` before anything is built,
// `installTeaching(host)` once the rail exists (boot.js), then `teach.baseParams(extras, notices)` (main.js
// applyHash), `teach.hashBase()` (writeHashNow) and `teach.afterRun()` (first thing in afterRun); after the first
// frame `teach.loadStepper()` fetches the step-through and `teach.loadLessons()` the lessons (lessons.js and
// lesson-data.js are not part of the first frame's download either: until they are in, the top bar shows the menu
// with the sandbox alone, at its full width, and a link to a lesson waits for them before its first frame).
import { detectLang, getLang, setLang, onLangChange, t, tagged } from './strings/i18n.js';
import { el } from './dom.js';
import { loadLater } from './marks.js';

/** Sets the language from the URL's `lang=` or the browser's, before the page is built. */
export function startLanguage() {
  const fromUrl = new URLSearchParams(location.hash.replace(/^#/, '')).get('lang');
  setLang(detectLang(fromUrl));
}

function languageSwitch(root, choose) {
  const group = document.createElement('div');
  group.className = 'lang-switch';
  group.setAttribute('role', 'group');
  group.dataset.i18nAriaLabel = 'lang.label';
  group.setAttribute('aria-label', t('lang.label'));
  for (const lang of ['zh', 'en']) {
    const b = tagged('button', `lang.${lang}`, { type: 'button', id: `lang-${lang}`, lang: lang === 'zh' ? 'zh-CN' : 'en' });
    b.addEventListener('click', () => choose(lang));
    group.append(b);
  }
  root.append(group);
  const sync = () => group.querySelectorAll('button').forEach((b) => b.setAttribute('aria-pressed', String(b.id === `lang-${getLang()}`)));
  sync();
  return sync;
}

/** What the step-through may read and ask of the page (stepper.js `Stepper`). */
const STEPPER_PORTS = ['model', 'core', 'playing', 'playhead', 'setPlaying', 'seek', 'redraw', 'extras', 'setExtras',
  'writeHash', 'setHighlight'];
/** What the lessons may read and ask of the page (lessons.js `Lessons`). */
const LESSON_PORTS = ['model', 'core', 'extras', 'setExtras', 'setPlaying', 'setPlayhead', 'setSpeed', 'seek', 'apply',
  'setPreset', 'sliderHeld', 'dragGap', 'afterDrag', 'afterRun', 'historyEntry'];
const only = (host, names) => Object.fromEntries(names.map((name) => [name, host[name]]));

/**
 * Builds the top-bar tools, the lesson card and the stepper; returns the hooks the page calls. `host`: what the
 * step-through and the lessons need (STEPPER_PORTS, LESSON_PORTS), and `applyHash(hash)` (a lesson's link, once the
 * lessons are in) and `relabel()` (the rail and the page redrawn in a new language).
 */
export function installTeaching(host) {
  const tools = document.getElementById('topbar-tools');
  /** The step-through, once `loadStepper()` has fetched it (its button is held until then: boot.js). */
  let stepper = null;
  let stepperLoading = null;
  /** Where the step-through came from when it switched to seed 002's walk (a lesson's id, '' for the sandbox). */
  let returnTo = null;
  // The step-through's marks on the lanes and views come with it (marks.js).
  const loadStepper = () => (stepperLoading ??= Promise.all([import('./stepper.js'), loadLater()]).then(([{ Stepper }]) => {
    stepper = new Stepper(document.getElementById('stepper'), {
      host: only(host, STEPPER_PORTS),
      showSeed002: () => {
        // At once when the lessons are in (the step-through's buttons wait for them: main.js `holdUntil`), so the
        // walk's playhead is set after the lesson's.
        const show = (l) => {
          if (l.lesson?.id === 'out-of-order' && host.model().imported) return;
          // The walk is a visit: closing it returns to the lesson or the sandbox (and its settings) it left.
          if (l.lesson?.id !== 'out-of-order') returnTo ??= l.lesson?.id ?? '';
          l.choose('out-of-order');
        };
        if (lessons) show(lessons);
        else loadLessons().then(show);
      },
      closed: () => {
        const back = returnTo;
        returnTo = null;
        if (back !== null && lessons?.lesson?.id === 'out-of-order') lessons.choose(back);
      },
    });
    return stepper;
  }));
  /** The lessons (menu, card, checks), once `loadLessons()` has fetched them; `lessonData`: lesson-data.js. */
  let lessons = null;
  let lessonData = null;
  let lessonsLoading = null;
  const loadLessons = () => (lessonsLoading ??= Promise.all([import('./lessons/lessons.js'), import('./lessons/lesson-data.js')]).then(([{ Lessons }, data]) => {
    lessonData = data;
    lessons = new Lessons(only(host, LESSON_PORTS), {
      menuRoot: tools,
      cardRoot: document.getElementById('lesson-card'),
      onStepThrough: () => loadStepper().then((s) => s.open('seed002')),
    });
    return lessons;
  }));
  // The menu's place, as the lessons will fill it (lessons.js `buildMenu` takes it over).
  tools.append(tagged('label', 'lessons.label', { for: 'lesson-select', class: 'lesson-label' }),
    el('select', { id: 'lesson-select' }, tagged('option', 'lessons.sandbox', { value: '' })));
  const stepButton = tagged('button', 'stepper.open', { type: 'button', id: 'stepper-open' });
  // The default walk is seed 002's three snapshots; inside another lesson, the run that lesson shows.
  const defaultSource = () => (lessons?.lesson && lessons.lesson.id !== 'out-of-order' && !lessons.lesson.trace ? 'run' : 'seed002');
  stepButton.addEventListener('click', () => loadStepper().then((s) => (s.isOpen ? s.close() : s.open(defaultSource()))));
  tools.append(stepButton);
  const syncSwitch = languageSwitch(tools, (lang) => {
    host.setExtras({ lang });
    setLang(lang);
    host.writeHash();
  });
  const workedExampleLink = () => {
    const link = document.querySelector('a[href^="worked-example.html"]');
    if (link) link.href = `worked-example.html#lang=${getLang()}`;
  };
  workedExampleLink();
  onLangChange(() => {
    syncSwitch();
    workedExampleLink();
    lessons?.relabel();
    stepper?.relabel();
    host.relabel();
  });
  let stepFromUrl = true;
  return {
    get lessons() {
      return lessons;
    },
    get stepper() {
      return stepper;
    },
    loadStepper,
    loadLessons,
    /** The engines a lesson picks (lesson-data.js), once the lessons are in (none before: no lesson is shown). */
    lessonEngines: (id) => lessonData?.byLessonId[id]?.engines,
    baseParams(extras, notices) {
      if (lessons) return lessons.baseParams(extras, notices);
      // A lesson asked for before the lessons are in (a link pasted in the first moments): applied when they are.
      if (extras.lesson !== undefined) loadLessons().then(() => host.applyHash(location.hash));
      return null;
    },
    hashBase: () => (lessons ? lessons.hashBase() : host.model().defaults),
    afterRun() {
      const lang = host.extras()?.lang;
      if ((lang === 'zh' || lang === 'en') && lang !== getLang()) setLang(lang);
      lessons?.afterRun();
      stepper?.refresh();
      if (stepFromUrl) {
        stepFromUrl = false;
        const step = Number(host.extras()?.step);
        if (Number.isInteger(step) && step >= 1 && lessons?.lesson?.id === 'out-of-order') loadStepper().then((s) => s.open('seed002', step - 1));
      }
    },
  };
}
