// The touch pad: a phone has no W A S D. Mounted after the first frame (later.js), styled by later.css.
import { t } from './strings/i18n.js';

/** The pad's buttons: the key each stands for (main.js KEY_MAP), its arrow, its place in the pad. */
const PAD = [['ArrowUp', '↑', 'up'], ['ArrowLeft', '←', 'left'], ['ArrowDown', '↓', 'down'], ['ArrowRight', '→', 'right']];

/**
 * A phone has no W A S D: under the Local view, four arrows steer the local player while held (a touch screen or a
 * narrow window shows them: playground.css). `host.steer(code, down)` is the keyboard's own path (main.js `onKey`).
 */
export function mountTouchPad(host) {
  const pad = document.getElementById('touch-pad'); // its room is kept from the first frame (playground.css)
  if (!pad || !host.steer) return;
  pad.setAttribute('role', 'group');
  pad.dataset.i18nAriaLabel = 'touch.pad';
  pad.setAttribute('aria-label', t('touch.pad'));
  for (const [code, arrow, area] of PAD) {
    const button = document.createElement('button');
    Object.assign(button, { type: 'button', textContent: arrow, className: `touch-${area}` });
    button.dataset.key = code;
    button.dataset.i18nAriaLabel = `touch.${area}`;
    button.setAttribute('aria-label', t(`touch.${area}`));
    let held = false;
    const press = (down) => {
      if (held === down) return;
      held = down;
      host.steer(code, down);
    };
    button.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      button.setPointerCapture?.(event.pointerId);
      press(true);
    });
    for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) button.addEventListener(type, () => press(false));
    pad.append(button);
  }
}
