// Time controls: play/pause, step one frame back or forward, step to the next snapshot tick, scrub, speed.
// Time here is the client's local time over the simulated window (model time, not wall time).
import { t, getLang } from './strings/i18n.js';

function button(id, i18n, titleKey) {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = id;
  b.textContent = t(i18n);
  b.dataset.i18n = i18n;
  b.title = t(titleKey);
  b.setAttribute('aria-label', t(titleKey));
  b.dataset.i18nTitle = titleKey;
  b.dataset.i18nAriaLabel = titleKey;
  return b;
}

/** Builds the transport into `root`; `api` has {state, model(), seek(t), redraw()}. */
export function buildTransport(root, api) {
  const play = button('play', 'button.pause', 'title.play');
  const back = button('step-back', 'button.stepBack', 'title.stepBack');
  const fwd = button('step-frame', 'button.stepFrame', 'title.stepFrame');
  const tick = button('step-tick', 'button.stepTick', 'title.stepTick');
  const scrubLabel = document.createElement('label');
  scrubLabel.htmlFor = 'scrub';
  scrubLabel.textContent = t('control.time');
  scrubLabel.dataset.i18n = 'control.time';
  const scrub = Object.assign(document.createElement('input'), { id: 'scrub', type: 'range', min: 0, step: 0.001, className: 'scrub' });
  const speed = document.createElement('select');
  speed.id = 'speed';
  speed.setAttribute('aria-label', t('aria.speed'));
  speed.dataset.i18nAriaLabel = 'aria.speed';
  for (const s of [0.1, 0.25, 0.5, 1]) speed.append(new Option(`${s}×`, String(s), false, s === 1));
  const time = Object.assign(document.createElement('output'), { id: 'time', className: 'time' });
  // The time changes every frame while the run plays: it is written into a box in size and layout containment
  // (playground.css `.time`), a relayout boundary inside a flex item as wide as the run's longest time, so a new
  // time lays out that box alone — not the whole document — and the scrub beside it stays put at t = 10 s.
  const timeBox = Object.assign(document.createElement('span'), { className: 'time-box' });
  timeBox.append(time);
  // The scrub's thumb moves every frame while the run plays: the flex item is a box around it, so the scrub itself
  // can be a relayout boundary (playground.css `.scrub-box`).
  const scrubBox = Object.assign(document.createElement('span'), { className: 'scrub-box' });
  scrubBox.append(scrub);
  root.append(play, back, fwd, tick, scrubLabel, scrubBox, speed, timeBox);

  const { state } = api;
  const pause = () => setPlaying(false);
  function setPlaying(on) {
    state.playing = on;
    play.dataset.i18n = on ? 'button.pause' : 'button.play';
    play.textContent = t(play.dataset.i18n);
    play.setAttribute('aria-pressed', String(on));
    api.onPlayingChange?.(on);
  }
  play.addEventListener('click', () => setPlaying(!state.playing));
  const stepFrames = (n) => {
    pause();
    const model = api.model();
    const frames = model.table('frames');
    const i = Math.min(frames.rows - 1, Math.max(0, model.frameAt(state.playhead, frames) + n));
    api.seek(frames.view[i * frames.stride + frames.col.local]);
  };
  back.addEventListener('click', () => stepFrames(-1));
  fwd.addEventListener('click', () => stepFrames(1));
  tick.addEventListener('click', () => {
    pause();
    const snaps = api.model().table('snapshots');
    for (let i = 0; i < snaps.rows; i++) {
      const sent = snaps.view[i * snaps.stride + snaps.col.sent];
      if (sent > state.playhead + 1e-9) return api.seek(sent);
    }
  });
  scrub.addEventListener('input', () => {
    pause();
    api.seek(Number(scrub.value));
  });
  speed.addEventListener('change', () => { state.speed = Number(speed.value); });
  setPlaying(state.playing); // the button says what a click does from the start (paused under reduced motion)

  return {
    setPlaying,
    update(model) {
      // Every frame while playing: only what differs is written (each write of a range's bounds restyles it).
      const min = String(model.start);
      const max = String(model.end);
      if (scrub.min !== min) scrub.min = min;
      if (scrub.max !== max) scrub.max = max;
      scrub.value = String(state.playhead);
      // Its box is as wide as the longest time of this run (monospace digits: one `ch` each), set when that changes.
      const end = model.end.toFixed(2);
      const span = `${model.start}|${end}|${getLang()}`;
      if (timeBox.span !== span) {
        timeBox.span = span;
        const chars = Math.max(...[model.start, model.end].map((x) => t('transport.time', { t: x.toFixed(3), end }).length));
        timeBox.style.width = `${chars}ch`;
      }
      const text = t('transport.time', { t: state.playhead.toFixed(3), end });
      if (time.textContent !== text) time.textContent = text;
    },
  };
}
