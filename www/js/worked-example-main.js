// Boot: load the wasm module, wire the slider to Rust, run the animation loop.
import { showError, hasFailed, watchForErrors } from './banner.js';
import { ExampleView } from './worked-example-view.js';

import { loadCore } from './core.js';

watchForErrors();


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
  button.addEventListener('click', () => {
    state.playing = !state.playing;
    button.textContent = state.playing ? 'Pause' : 'Play';
    button.setAttribute('aria-pressed', String(state.playing));
  });
}

async function main() {
  const core = await loadCore();
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
}

main().catch((error) => showError(error?.message ?? error));
