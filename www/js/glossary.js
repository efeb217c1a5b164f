// Words with a way in: a readout's term — runway, α, jerk, generation, how far the newest snapshot is ahead — has a
// short explanation with its unit, as the element's tooltip on hover and, on a touch screen (no hover), in a note
// under the element when tapped. Elements say what they use with `data-glossary="KEY …"` (`glossary.KEY` strings,
// strings-later-*.js); this module, fetched after the first frame (later.js), writes the tooltips and shows the
// notes, in the page's language at the moment.
import { t } from './strings/i18n.js';

/** The explanation of an element's terms, one per line. */
const explanation = (element) => element.dataset.glossary.split(' ').filter(Boolean).map((key) => t(`glossary.${key}`)).join('\n');

/** Starts watching the page: hover or focus writes the tooltip, a tap or a click shows the note, elsewhere hides it. */
export function watchGlossary(root = document) {
  let note = null;
  const titled = (event) => {
    const element = event.target.closest?.('[data-glossary]');
    if (element) element.title = explanation(element);
  };
  root.addEventListener('pointerover', titled, { passive: true });
  root.addEventListener('focusin', titled);
  root.addEventListener('click', (event) => {
    const element = event.target.closest?.('[data-glossary]');
    if (!element) {
      if (note) note.hidden = true;
      return;
    }
    note ??= document.body.appendChild(Object.assign(document.createElement('div'), { id: 'glossary-note', className: 'glossary-note', role: 'note' }));
    note.textContent = explanation(element);
    const box = element.getBoundingClientRect();
    note.style.left = `${Math.round(Math.max(4, Math.min(window.innerWidth - 300, box.left) + window.scrollX))}px`;
    note.style.top = `${Math.round(box.bottom + window.scrollY + 4)}px`;
    note.hidden = false;
  });
}
