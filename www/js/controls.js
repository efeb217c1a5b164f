// The rail: one labelled control per parameter, grouped, each beside a numeric readout with its unit.
// Controls never simulate: they report a new value and let main.js re-run and redraw. Every word is `t(key)`
// and tagged `data-i18n`, so a language switch rewrites it in place.
import { CONTROLS, GROUPS, displayValue, roundToStep } from './params.js';
import { getPath } from './model.js';
import { t, has, getLang } from './strings/i18n.js';

function element(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') el.textContent = v;
    else if (v !== undefined && v !== null) el.setAttribute(k, v);
  }
  for (const child of children) el.append(child);
  return el;
}

/** `target[key] = value`, unless it already is. */
function setIf(target, key, value) {
  if (target[key] !== value) target[key] = value;
}

/** A unit as shown (`/frame` is a word, so it is translated; ms, Hz, % and px/s are not). */
function unitText(unit) {
  return has(`unit.${unit}`) ? t(`unit.${unit}`) : unit;
}

function formatValue(spec, value) {
  if (spec.kind !== 'range') return String(value);
  return `${value}${spec.unit === '%' ? ' %' : ` ${unitText(spec.unit)}`}`;
}

/**
 * How wide (in `ch` of the value's monospace font; a CJK character counted as two) the widest value a slider can
 * show is written: its box is that wide (playground.css `.value-text`: held, a relayout boundary of a fixed size), so
 * a drag's new value lays out that box alone, and the label beside it stays put as the value's digits change.
 */
function valueWidth(spec) {
  const values = [spec.min, spec.max, spec.min + spec.step, spec.max - spec.step].map((v) => roundToStep(spec, v));
  const width = (s) => [...s].reduce((n, c) => n + (/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(c) ? 2 : 1), 0);
  return Math.max(...values.map((v) => width(formatValue(spec, v))));
}

/** A parameter as the core's schema describes it: its doc, then where it lives, its default and its range. */
function parameterNote(entry) {
  const unit = entry.unit ? ` ${entry.unit}` : '';
  const range = entry.range ? ` · ${entry.range[0]}–${entry.range[1]}${unit}` : '';
  const options = entry.options.length ? ` · ${entry.options.join(' | ')}` : '';
  return `${entry.doc}\n${entry.path} (Rust: ${entry.field}) · default ${entry.default}${entry.kind === 'choice' ? '' : unit}${range}${options}`;
}

/**
 * Builds every control into `root` (or only the ids in `only`, as an embed does). `onChange(spec, value)` is
 * called with display values; `flat` leaves out the group headings (an embed's few controls). `groups` builds only
 * those groups (the page builds the rail in two tasks: boot.js), adding to `inputs` (pass the same object to each
 * call: any call's `sync` then syncs them all). Returns `{inputs, sync(params), setPreset(name), describe(schema)}`.
 */
export function buildControls(root, onChange, { onNewSeed, only = null, flat = false, groups = null, inputs = {} } = {}) {
  const wanted = (spec) => !only || only.includes(spec.id);
  for (const group of GROUPS) {
    if (groups && !groups.includes(group.id)) continue;
    if (!CONTROLS.some((c) => c.group === group.id && wanted(c))) continue;
    const details = element('details', { class: 'group', open: group.collapsed ? undefined : '', 'data-group': group.id });
    details.append(element('summary', { text: t(`group.${group.id}`), 'data-i18n': `group.${group.id}` }));
    let engine = null;
    for (const spec of CONTROLS.filter((c) => c.group === group.id && wanted(c))) {
      // Engine settings under a sub-heading per engine (its name, the same in every language).
      if (spec.engine && spec.engine !== engine) {
        engine = spec.engine;
        details.append(element('h4', { class: 'engine-heading', 'data-engine': engine, lang: 'en', text: t(`engine.${engine}`), 'data-i18n': `engine.${engine}` }));
      }
      details.append(buildOne(spec, inputs, onChange, onNewSeed));
    }
    if (flat) root.append(...[...details.children].filter((c) => c.tagName !== 'SUMMARY'));
    else root.append(details);
  }
  const notes = {}; // the parameters' docs by control id, once the full core has handed its schema over
  let described = null; // the language the titles are in
  const describe = () => {
    described = getLang();
    const english = described === 'en'; // the docs are the Rust source's, in English: shown in English only
    for (const [id, note] of Object.entries(notes)) {
      if (inputs[id]?.label) setIf(inputs[id].label, 'title', english ? note : '');
    }
  };
  return {
    inputs,
    /** The core's schema (`Playground.schema()`, the full build): each label's title tells its parameter. */
    describe(schema) {
      const byPath = new Map(schema.map((entry) => [entry.path, entry]));
      for (const spec of CONTROLS) {
        const entry = spec.paths && byPath.get(spec.paths[0]);
        if (entry && inputs[spec.id]) notes[spec.id] = parameterNote(entry);
      }
      describe();
    },
    sync(params) {
      if (described !== getLang()) describe();
      for (const spec of CONTROLS) {
        if (spec.kind === 'preset' || !inputs[spec.id]) continue;
        const { input, output } = inputs[spec.id];
        const value = displayValue(spec, params, getPath);
        // Only what differs is written: this runs on every change of a drag, and a write costs a style pass.
        if (spec.enabledWhen) setIf(input, 'disabled', !spec.enabledWhen(params));
        if (spec.visibleWhen) setIf(input.closest('.control'), 'hidden', !spec.visibleWhen(params));
        if (spec.engine) setIf(input.closest('.control').dataset, 'disabled', String(input.disabled));
        if (spec.kind === 'check') setIf(input, 'checked', Boolean(value));
        else setIf(input, 'value', String(value));
        if (output) {
          if (output.dataset.lang !== getLang()) { // the unit's words, so the box's width, follow the language
            output.dataset.lang = getLang();
            output.style.width = `${valueWidth(spec)}ch`;
          }
          setIf(output, 'textContent', formatValue(spec, value));
        }
      }
    },
    setPreset(name) {
      if (inputs.preset) inputs.preset.input.value = name;
    },
  };
}

function buildOne(spec, inputs, onChange, onNewSeed) {
  const id = `control-${spec.id}`;
  const wrap = element('div', { class: `control ${spec.kind === 'check' ? 'check' : ''}`, 'data-control': spec.id, 'data-path': spec.paths?.[0] });
  // An engine's setting is labelled with its name in the engine's code, the same in every language.
  const label = element('label', { for: id, lang: spec.engine ? 'en' : undefined, text: t(`control.${spec.id}`), 'data-i18n': `control.${spec.id}` });
  let input;
  let output = null;
  if (spec.kind === 'range') {
    input = element('input', { id, type: 'range', min: spec.min, max: spec.max, step: spec.step });
    const shown = element('output', { for: id, class: 'value' });
    output = element('span', { class: 'value-text' }); // the words, in a box of their own (`valueWidth`)
    shown.append(output);
    // The grid item is a box around the slider, so the slider can be a relayout boundary (playground.css
    // `.range-box`): its thumb moves on every change of a drag.
    const box = element('span', { class: 'range-box' });
    box.append(input);
    wrap.append(label, shown, box);
    input.addEventListener('input', () => onChange(spec, Number(input.value)));
  } else if (spec.kind === 'select' || spec.kind === 'preset') {
    input = element('select', { id });
    for (const [value] of spec.options) {
      const key = `option.${spec.id}.${value}`;
      input.append(element('option', { value, text: t(key), 'data-i18n': key }));
    }
    wrap.append(label, input);
    input.addEventListener('change', () => onChange(spec, input.value));
  } else if (spec.kind === 'check') {
    input = element('input', { id, type: 'checkbox' });
    wrap.append(input, label);
    input.addEventListener('change', () => onChange(spec, input.checked));
  } else if (spec.kind === 'seed') {
    input = element('input', { id, type: 'number', min: spec.min, max: spec.max, step: 1, inputmode: 'numeric' });
    const fresh = element('button', { type: 'button', id: 'new-seed', text: t('button.newSeed'), 'data-i18n': 'button.newSeed' });
    fresh.addEventListener('click', () => onNewSeed?.());
    wrap.append(label, element('span', { class: 'row' }, [input, fresh]));
    input.addEventListener('change', () => onChange(spec, Number(input.value)));
  }
  if (spec.hint) wrap.append(element('span', { class: 'hint', text: t(`hint.${spec.id}`), 'data-i18n': `hint.${spec.id}` }));
  inputs[spec.id] = { input, output, label };
  return wrap;
}
