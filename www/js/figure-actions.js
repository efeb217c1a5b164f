// What the buttons of figure-tools.js do — the PNG with its caption line, the embed code copied — fetched with
// later.js after the first frame: the first frame draws the buttons, not this.
import { withExportRatio, FONT } from './canvas.js';
import { t, tagged, getLang } from './strings/i18n.js';
import { byId, displayValue } from './params.js';
import { getPath } from './model.js';
import { embedSnippet, FIGURES } from './figures.js';
import { saveFile } from './save-file.js';

/** The caption drawn under a PNG: the settings that made the picture (`page`: figure-tools.js `mountFigureTools`). */
export function captionText(page) {
  const params = page.model().params;
  const v = (id) => displayValue(byId[id], params, getPath);
  const preset = page.preset();
  return t('png.caption', {
    network: preset === 'custom' ? t('png.custom') : t(`option.preset.${preset}`),
    latency: v('latency'),
    jitter: v('jitter'),
    rate: v('sendRate'),
    delay: v('renderDelay'),
    halfLife: v('halfLife'),
    loss: v('loss'),
    seed: v('seed'),
    t: page.playhead().toFixed(2),
  });
}

/** A copy of a canvas's pixels as they are now. */
function snapshot(canvas) {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  copy.getContext('2d').drawImage(canvas, 0, 0);
  return copy;
}

/** Splits `text` at " · " into lines no wider than `width` px in the context's font. */
function wrap(ctx, text, width) {
  const parts = text.split(' · ');
  const lines = [];
  let lineText = '';
  for (const part of parts) {
    const next = lineText ? `${lineText} · ${part}` : part;
    if (lineText && ctx.measureText(next).width > width) {
      lines.push(lineText);
      lineText = part;
    } else lineText = next;
  }
  if (lineText) lines.push(lineText);
  return lines;
}

const SCALE = 2;

/**
 * Draws `layers()` (rows of canvases; the canvases of a row lie on top of each other, e.g. a plot's static layer
 * and its overlay) at 2× with the caption under them (`caption()`, else the settings: `captionText`); returns the
 * composed canvas and what it holds.
 */
export function composePng(page, layers, captionOf) {
  const rows = withExportRatio(SCALE, () => {
    page.redrawAll();
    return layers().map((row) => row.map(snapshot));
  });
  page.redrawAll(); // back to the screen's resolution, in the same task
  const caption = captionOf?.() ?? captionText(page);
  const theme = page.theme();
  const width = Math.max(...rows.map((row) => Math.max(...row.map((c) => c.width))));
  const pad = 8 * SCALE;
  const size = 13 * SCALE;
  const out = document.createElement('canvas');
  const measure = out.getContext('2d');
  measure.font = `${size}px ${FONT}`;
  const lines = wrap(measure, caption, width - 2 * pad);
  const figureHeight = rows.reduce((sum, row) => sum + Math.max(...row.map((c) => c.height)), 0);
  const captionTop = figureHeight;
  out.width = width;
  out.height = figureHeight + pad + lines.length * size * 1.4 + pad;
  const ctx = out.getContext('2d');
  ctx.fillStyle = theme.panel;
  ctx.fillRect(0, 0, width, figureHeight);
  let y = 0;
  for (const row of rows) {
    for (const c of row) ctx.drawImage(c, 0, y);
    y += Math.max(...row.map((c) => c.height));
  }
  ctx.fillStyle = theme.paper;
  ctx.fillRect(0, captionTop, width, out.height - captionTop);
  ctx.fillStyle = theme.ink;
  ctx.font = `${size}px ${FONT}`;
  ctx.textBaseline = 'top';
  lines.forEach((text, i) => ctx.fillText(text, pad, captionTop + pad + i * size * 1.4));
  return { canvas: out, caption, lines, captionTop };
}

export function download(page, name, layers, captionOf) {
  page.drawDeferred(); // a figure below the fold may not have been drawn yet (scheduler.js `drawDeferred`)
  const { canvas, caption, captionTop } = composePng(page, layers, captionOf);
  const file = `netcode-lab-${name}-seed${page.model().params.seed}.png`;
  // For the end-to-end tests (and curious readers): what the last picture holds.
  window.netcodeLab.lastPng = { file, width: canvas.width, height: canvas.height, caption, captionTop };
  canvas.toBlob((blob) => saveFile(file, blob), 'image/png');
}

/** The snippet box under `tools`, filled for `fig` and copied; one at a time on the page. */
export async function showEmbedCode(page, tools, fig) {
  document.querySelector('.embed-code')?.remove();
  const hash = new URLSearchParams(page.currentHash().replace(/^#/, ''));
  if (!page.playing()) hash.set('t', page.playhead().toFixed(3));
  const title = fig === 'lesson' ? t(`lesson.${page.extras()?.lesson}.title`) : t(FIGURES[fig].title);
  const snippet = embedSnippet(new URL('.', location.href).href, fig, hash.toString(), getLang(), title);
  const box = document.createElement('div');
  box.className = 'embed-code';
  box.dataset.fig = fig;
  const field = document.createElement('textarea');
  for (const [k, v] of Object.entries({ readonly: '', rows: 3, 'aria-label': t('figtools.codeLabel'), spellcheck: 'false' })) field.setAttribute(k, v);
  field.value = snippet;
  const status = Object.assign(document.createElement('span'), { className: 'embed-status' });
  status.setAttribute('role', 'status');
  const close = tagged('button', 'figtools.close', { type: 'button' });
  close.addEventListener('click', () => box.remove());
  const row = document.createElement('div');
  row.className = 'row';
  row.append(status, close);
  box.append(field, row);
  tools.after(box);
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(snippet);
    status.textContent = t('figtools.copied');
    box.dataset.copied = 'true';
  } catch {
    field.select();
    status.textContent = t('figtools.copyFailed');
    box.dataset.copied = 'false';
  }
}

