// What the buttons of figure-tools.js do — the PNG with its caption line, the embed code copied — fetched with
// later.js after the first frame: the first frame draws the buttons, not this.
import { withExportRatio, FONT } from './canvas.js';
import { t, tagged, getLang } from './strings/i18n.js';
import { byId, displayValue } from './params.js';
import { getPath } from './model.js';
import { embedSnippet, FIGURES, LESSON_VISUAL, lessonControls } from './figures.js';
import { saveFile } from './save-file.js';

/** The settings the network line already names: not repeated after it. */
const IN_NETWORK_LINE = ['latency', 'jitter', 'sendRate'];

/** A control of the rail as it reads now — its label and its value ("Render delay (behind server now) 120 ms"). */
function settingText(id) {
  const control = document.querySelector(`.rail .control[data-control="${id}"], #controls .control[data-control="${id}"]`);
  if (!control) return null;
  const input = control.querySelector('input, select');
  const value = control.querySelector('output')?.textContent
    ?? (input?.tagName === 'SELECT' ? input.selectedOptions[0]?.textContent : input?.type === 'checkbox' ? (input.checked ? '✓' : '✗') : input?.value);
  return t('png.setting', { label: control.querySelector('label')?.textContent.trim() ?? id, value: value?.trim() ?? '' });
}

/**
 * The caption drawn under a PNG: the network, the settings figure `fig` depends on (its controls in figures.js)
 * and the moment (`page`: figure-tools.js `mountFigureTools`).
 */
export function captionText(page, fig, controls = FIGURES[fig]?.controls ?? []) {
  const params = page.model().params;
  const v = (id) => displayValue(byId[id], params, getPath);
  const preset = page.preset();
  const network = t('png.network', {
    network: preset === 'custom' ? t('png.custom') : t(`option.preset.${preset}`),
    latency: v('latency'),
    jitter: v('jitter'),
    rate: v('sendRate'),
  });
  const settings = controls.filter((id) => !IN_NETWORK_LINE.includes(id)).map(settingText).filter(Boolean);
  return [network, ...settings, t('png.seedTime', { seed: v('seed'), t: page.playhead().toFixed(2) })].join(' · ');
}

/** What a figure's header shows, read from the page: its title and its legend's keys (words and swatch). */
function headerOf(host, fig) {
  const title = host?.querySelector('figcaption .title, figcaption > span[data-i18n], h2')?.textContent.trim()
    || host?.getAttribute('aria-label') || t(FIGURES[fig]?.title ?? 'aria.lanesSection');
  const keys = [...(host?.querySelectorAll('.legend .k') ?? [])].map((k) => ({ text: k.textContent.trim(), svg: k.querySelector('svg') }));
  return { title, keys: keys.filter((k) => k.text) };
}

/** A legend swatch (inline SVG, its colour inline) as an image to draw, or null if it cannot be read. */
async function swatchImage(svg) {
  if (!svg) return null;
  const copy = svg.cloneNode(true);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.style.color = getComputedStyle(svg).color;
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
  try {
    await image.decode();
    return image;
  } catch {
    return null;
  }
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
 * and its overlay) at 2×, with a header above them — the figure's title and legend as the page shows them
 * (`header`: `{title, keys}`) — and the caption under them (`caption`, else the settings: `captionText`).
 * Returns the composed canvas and what it holds.
 */
export async function composePng(page, layers, { fig, header, caption, controls } = {}) {
  const rows = withExportRatio(SCALE, () => {
    page.redrawAll();
    return layers().map((row) => row.map(snapshot));
  });
  page.redrawAll(); // back to the screen's resolution, in the same task
  const captionWords = caption ?? captionText(page, fig, controls);
  const swatches = await Promise.all((header?.keys ?? []).map((k) => swatchImage(k.svg)));
  const theme = page.theme();
  const width = Math.max(...rows.map((row) => Math.max(...row.map((c) => c.width))));
  const pad = 8 * SCALE;
  const size = 13 * SCALE;
  const titleSize = 15 * SCALE;
  const swatch = 14 * SCALE;
  const out = document.createElement('canvas');
  const measure = out.getContext('2d');
  measure.font = `${size}px ${FONT}`;
  const lines = wrap(measure, captionWords, width - 2 * pad);
  // The legend flows in lines under the title: each key is its swatch and its words.
  const keys = [];
  let x = pad;
  let line = 0;
  for (const [i, key] of (header?.keys ?? []).entries()) {
    const w = (swatches[i] ? swatch + 4 * SCALE : 0) + measure.measureText(key.text).width;
    if (x > pad && x + w > width - pad) {
      x = pad;
      line += 1;
    }
    keys.push({ ...key, image: swatches[i], x, line });
    x += w + 12 * SCALE;
  }
  const legendLines = keys.length ? line + 1 : 0;
  const figureTop = header ? pad + titleSize * 1.3 + legendLines * size * 1.5 + pad / 2 : 0;
  const figureHeight = rows.reduce((sum, row) => sum + Math.max(...row.map((c) => c.height)), 0);
  const captionTop = figureTop + figureHeight;
  out.width = width;
  out.height = captionTop + pad + lines.length * size * 1.4 + pad;
  const ctx = out.getContext('2d');
  ctx.fillStyle = theme.paper;
  ctx.fillRect(0, 0, width, out.height);
  ctx.fillStyle = theme.panel;
  ctx.fillRect(0, figureTop, width, figureHeight);
  ctx.fillStyle = theme.ink;
  ctx.textBaseline = 'top';
  if (header) {
    ctx.font = `600 ${titleSize}px ${FONT}`;
    ctx.fillText(header.title, pad, pad);
    ctx.font = `${size}px ${FONT}`;
    for (const key of keys) {
      const y = pad + titleSize * 1.3 + key.line * size * 1.5;
      if (key.image) ctx.drawImage(key.image, key.x, y - SCALE, swatch, swatch);
      ctx.fillText(key.text, key.x + (key.image ? swatch + 4 * SCALE : 0), y);
    }
  }
  let y = figureTop;
  for (const row of rows) {
    for (const c of row) ctx.drawImage(c, 0, y);
    y += Math.max(...row.map((c) => c.height));
  }
  ctx.font = `${size}px ${FONT}`;
  lines.forEach((text, i) => ctx.fillText(text, pad, captionTop + pad + i * size * 1.4));
  return { canvas: out, caption: captionWords, lines, captionTop, figureTop, header };
}

/** The canvases each figure is drawn on, by name (a lesson's PNG shows its visual: figures.js `LESSON_VISUAL`). */
function visualCanvases(visual) {
  const view = document.getElementById(`view-${visual}`);
  if (view) return [[view]];
  const parts = visual === 'comparison' ? ['paths-world', 'paths-speed'] : [visual];
  return parts.map((id) => [...document.querySelectorAll(`#plot-${id} canvas`)]).filter((row) => row.length);
}

/**
 * The lesson card's checks as a picture `width` px wide at the export scale: each row's quantity, the article's
 * number, the core's and the verdict, read from the card as it reads now (lessons.js `#lesson-checks`), in
 * `theme`'s ink.
 */
function checksCanvas(card, width, theme) {
  const rows = [...card.querySelectorAll('#lesson-checks tbody tr:not(.why)')].map((tr) => ({
    label: tr.querySelector('th')?.textContent.trim() ?? '',
    article: tr.querySelector('td.article')?.textContent.trim() ?? '',
    core: tr.querySelector('td.core .value')?.textContent.trim() ?? '',
    verdict: tr.querySelector('td.verdict')?.textContent.trim() ?? '',
    color: getComputedStyle(tr.querySelector('td.verdict b') ?? tr).color,
  }));
  const summary = card.querySelector('#lesson-summary')?.textContent.trim() ?? '';
  const size = 12.5 * SCALE;
  const pad = 8 * SCALE;
  const lineH = size * 1.55;
  const out = document.createElement('canvas');
  out.width = width;
  out.height = Math.ceil(pad + lineH * (summary ? 2 : 1) + rows.length * (2 * lineH + size * 0.3) + pad);
  const ctx = out.getContext('2d');
  ctx.textBaseline = 'top';
  ctx.fillStyle = theme.ink;
  ctx.font = `600 ${size}px ${FONT}`;
  ctx.fillText(t('png.lesson.checks'), pad, pad);
  let y = pad + lineH;
  if (summary) {
    ctx.font = `${size}px ${FONT}`;
    ctx.fillText(summary, pad, y);
    y += lineH;
  }
  // Each row in two lines: the quantity, then the article's number, the core's and the verdict under it (text
  // longer than its column is cut with an ellipsis).
  const cut = (text, max) => {
    let out = text;
    while (out.length > 2 && ctx.measureText(out).width > max) out = `${out.slice(0, -2)}…`;
    return out;
  };
  const articleX = pad + 2 * size;
  const coreX = width * 0.68;
  const verdictX = width - pad - size;
  for (const row of rows) {
    ctx.font = `${size}px ${FONT}`;
    ctx.fillStyle = theme.ink;
    ctx.fillText(cut(row.label, width - 2 * pad), pad, y);
    ctx.fillStyle = theme.muted;
    ctx.fillText(cut(row.article, coreX - articleX - size), articleX, y + lineH);
    ctx.fillStyle = theme.ink;
    ctx.fillText(cut(row.core, verdictX - coreX - size), coreX, y + lineH);
    ctx.font = `700 ${size}px ${FONT}`;
    ctx.fillStyle = row.color;
    ctx.fillText(row.verdict, verdictX, y + lineH);
    y += 2 * lineH + size * 0.3;
  }
  return out;
}

/** A lesson's picture: its checks as the card shows them over its visual, headed by the lesson's title. */
function lessonPicture(page) {
  const id = page.extras()?.lesson;
  const card = document.getElementById('lesson-card');
  const visual = LESSON_VISUAL[id] ?? 'remote';
  const host = document.getElementById(`view-${visual}`)?.closest('figure') ?? document.getElementById(`plot-${visual === 'comparison' ? 'paths-world' : visual}`);
  return {
    fig: visual,
    controls: lessonControls(id),
    header: { ...headerOf(host, visual), title: card.querySelector('h2')?.textContent.trim() ?? t('lessons.label') },
    layers: () => {
      const rows = visualCanvases(visual);
      const width = Math.max(900, ...rows.flat().map((c) => c.width));
      return [[checksCanvas(card, width, page.theme())], ...rows];
    },
  };
}

/**
 * Saves figure `fig`'s PNG, named `name`: `layers()` its canvases, `host` the element whose title and legend
 * head it, `caption()` words instead of the settings; `lesson`: the lesson card's picture (`lessonPicture`).
 */
export async function download(page, name, { layers, fig, host, caption, lesson }) {
  page.drawDeferred(); // a figure below the fold may not have been drawn yet (scheduler.js `drawDeferred`)
  const spec = lesson ? lessonPicture(page) : { fig, layers, header: headerOf(host, fig) };
  const { canvas, caption: words, captionTop, figureTop } = await composePng(page, spec.layers, { fig: spec.fig, header: spec.header, controls: spec.controls, caption: caption?.() });
  const file = `netcode-lab-${name}-seed${page.model().params.seed}.png`;
  // For the end-to-end tests (and curious readers): what the last picture holds.
  window.netcodeLab.lastPng = { file, width: canvas.width, height: canvas.height, caption: words, captionTop, figureTop, title: spec.header.title, legend: spec.header.keys.map((k) => k.text) };
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

