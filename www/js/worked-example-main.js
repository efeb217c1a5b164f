// Boot: load the wasm module, wire the slider to Rust, run the animation loop; zh-CN / English like the
// playground — the language comes from `lang=` in the URL's hash, else the browser's, and the 中文 / English
// switch keeps the choice in the URL.
import { showError, hasFailed, watchForErrors } from './banner.js';
import { ExampleView } from './worked-example-view.js';
import { detectLang, getLang, setLang, onLangChange, t, tagged, loadLanguages } from './strings/i18n.js';

// core.js by a dynamic import, started now: a static one would have the dist build preload the playground's
// first-frame core (core.js's `page` glue) for this page, which loads its own build ('example', preloaded by the
// page's head).
const coreModule = import('./core.js');

watchForErrors();

/** The 中文 / English buttons in the header; a choice is written into the hash (and into the link back). */
function languageSwitch() {
  const group = document.getElementById('lang-switch');
  const back = document.getElementById('back');
  const sync = () => {
    for (const b of group.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.id === `lang-${getLang()}`));
    back.href = `./#lang=${getLang()}`;
  };
  for (const lang of ['zh', 'en']) {
    const b = tagged('button', `lang.${lang}`, { type: 'button', id: `lang-${lang}`, lang: lang === 'zh' ? 'zh-CN' : 'en' });
    b.addEventListener('click', () => {
      const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
      hash.set('lang', lang);
      history.replaceState(null, '', `${location.pathname}${location.search}#${hash}`);
      setLang(lang);
    });
    group.append(b);
  }
  onLangChange(sync);
  sync();
}

function bindSlider(playground, redraw) {
  const slider = document.getElementById('render-delay');
  const value = document.getElementById('render-delay-value');
  const apply = () => {
    try {
      playground.setRenderDelayMs(Number(slider.value));
    } catch (error) {
      showError(error.message);
    }
    value.textContent = `${Math.round(playground.renderDelayMs)} ms`;
    redraw();
  };
  slider.addEventListener('input', apply);
  apply();
}

function bindPlayButton(state) {
  const button = document.getElementById('play');
  const show = () => {
    button.dataset.i18n = state.playing ? 'button.pause' : 'button.play';
    button.textContent = t(button.dataset.i18n);
    button.setAttribute('aria-pressed', String(state.playing));
  };
  button.addEventListener('click', () => {
    state.playing = !state.playing;
    show();
  });
  show();
}

/**
 * "Download PNG": the scene at 2× under its title and legend, captioned with the delay and what it shows now
 * (figure-actions.js `composePng`, fetched on the first click).
 */
function bindPngButton(redraw, playground) {
  document.getElementById('we-png').addEventListener('click', async () => {
    const [{ composePng }, { saveFile }, { theme }] = await Promise.all([import('./figure-actions.js'), import('./save-file.js'), import('./canvas.js')]);
    const header = {
      title: [...document.getElementById('example-title').children].map((e) => e.textContent.trim()).join(' — '),
      keys: [...document.querySelectorAll('.legend .key')].map((k) => ({ text: k.textContent.trim() })),
    };
    const caption = [
      `${t('control.renderDelay')} ${document.getElementById('render-delay-value').textContent}`,
      `${document.getElementById('status').textContent}: ${document.getElementById('reason').textContent}`,
      document.getElementById('readout').textContent,
    ].join(' · ');
    const page = { redrawAll: redraw, theme };
    const { canvas, captionTop, figureTop } = await composePng(page, () => [[document.getElementById('view')]], { header, caption });
    const file = `netcode-lab-worked-example-${Math.round(playground.renderDelayMs)}ms.png`;
    window.netcodeLab.lastPng = { file, width: canvas.width, height: canvas.height, caption, captionTop, figureTop, title: header.title, legend: header.keys.map((k) => k.text) };
    canvas.toBlob((blob) => saveFile(file, blob), 'image/png');
  });
}

async function main() {
  setLang(detectLang(new URLSearchParams(location.hash.replace(/^#/, '')).get('lang')));
  languageSwitch();
  const { loadCore } = await coreModule;
  const core = await loadCore('example');
  if (!core) return;
  document.getElementById('version').textContent = core.version();
  const playground = new core.WorkedExample();
  const view = new ExampleView(document.getElementById('view'), core.WorkedExample);
  const redraw = () => view.draw(playground);
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const state = { playing: !reducedMotion, last: performance.now() };
  bindSlider(playground, redraw);
  bindPlayButton(state);
  window.addEventListener('resize', redraw);
  onLangChange(redraw);
  bindPngButton(redraw, playground);
  // Exposed for the end-to-end tests and for curious readers in the console.
  window.netcodeLab = { core, playground, redraw };

  const SLOW_MOTION = 0.25; // the example spans 0.6 s; play it at quarter speed
  const frame = (now) => {
    if (hasFailed()) return;
    const dt = Math.min(Math.max(now - state.last, 0) / 1000, 0.1);
    state.last = now;
    if (state.playing) playground.advance(dt * SLOW_MOTION);
    redraw();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  document.documentElement.dataset.ready = 'true';
  await loadLanguages(); // after the first frame: the other language's strings, so a switch is instant
  document.documentElement.dataset.complete = 'true';
}

main().catch((error) => showError(error?.message ?? error));
