// Classroom and phone. Present mode: a toggle in the top bar and the key P enlarge the three world
// views and the lanes to fill the screen — the canvases zoomed (canvas.js setZoom: ×2 at 1920 px wide, so their
// 10–12 px labels read at 20–24 px from the back of a room), every HTML text ≥ 20 px (playground.css), the lesson
// card beside them, every other panel out of the way; `present=1` in the URL keeps it.
// Phone (< 600 px): the page starts with the views, the lanes and the transport (playground.css orders them);
// the rail's groups start collapsed; a sticky button jumps to the controls and back in one tap.
import { setZoom } from './canvas.js';
import { t, tagged, onLangChange } from './strings/i18n.js';

const PHONE = '(max-width: 599px)';

/**
 * On a phone the rail's groups start folded (a lesson opens its own). boot.js calls this as soon as the rail is
 * built, before its first layout: laid out open, a phone's rail cost the boot a long layout it then threw away.
 * `root`: a part of the rail built later (trace-io.js, after the first frame: boot.js).
 */
export function foldRailOnPhone(root = document) {
  if (window.matchMedia(PHONE).matches) for (const details of root.querySelectorAll('.rail details.group')) details.open = false;
}

/** The zoom for present mode at this window width: ×1 up to 1280 px (a projector at 1280×720), ×2 at 1920 px. */
const presentZoom = () => Math.min(2, Math.max(1, (window.innerWidth - 640) / 640));

/**
 * Present mode's toggle and key, and the phone's controls button. `host.changed(on, byReader)`: present mode was turned on or
 * off (by the toggle, the key or a link; the URL keeps it, every canvas is drawn again at its new zoom).
 */
export function mountClassroom(host) {
  const button = tagged('button', 'present.toggle', { type: 'button', id: 'present-toggle', 'aria-pressed': 'false', 'aria-keyshortcuts': 'P' });
  const relabel = () => {
    const on = document.body.classList.contains('present');
    button.dataset.i18n = on ? 'present.exit' : 'present.toggle';
    button.textContent = t(button.dataset.i18n);
    button.title = `${t('present.title')}`;
    button.setAttribute('aria-pressed', String(on));
  };
  document.getElementById('topbar-tools').prepend(button);

  /** `byReader`: the toggle or the key (a history entry), not a link. */
  function set(on, byReader = false) {
    const was = document.body.classList.contains('present');
    document.body.classList.toggle('present', on);
    setZoom(on ? presentZoom() : 1);
    relabel();
    if (was !== on) host.changed(on, byReader);
  }
  button.addEventListener('click', () => set(!document.body.classList.contains('present'), true));
  window.addEventListener('keydown', (event) => {
    if (event.key !== 'p' && event.key !== 'P') return;
    if (event.ctrlKey || event.metaKey || event.altKey || ['INPUT', 'SELECT', 'TEXTAREA'].includes(event.target?.tagName)) return;
    event.preventDefault();
    set(!document.body.classList.contains('present'), true);
  });
  window.addEventListener('resize', () => { if (document.body.classList.contains('present')) setZoom(presentZoom()); });
  onLangChange(relabel);
  relabel();

  // Phone: the controls start folded (a lesson opens its own groups); a button under the transport reaches them
  // and one at the top of the rail comes back — in the page's flow, so they never cover what they sit beside.
  foldRailOnPhone();
  document.getElementById('to-controls').addEventListener('click', () => document.querySelector('.rail').scrollIntoView({ block: 'start' }));
  document.getElementById('to-views').addEventListener('click', () => document.querySelector('.views').scrollIntoView({ block: 'start' }));

  return {
    /** From the URL: `present=1` turns it on, anything else off. */
    apply(extras) {
      set(extras?.present === '1');
    },
  };
}

