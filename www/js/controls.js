// The rail: one labelled control per parameter, grouped, each beside a numeric readout with its unit.
// Controls never simulate: they report a new value and let main.js re-run and redraw.
import { CONTROLS, GROUPS, displayValue } from './params.js';
import { getPath } from './model.js';

function element(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') el.textContent = v;
    else if (v !== undefined && v !== null) el.setAttribute(k, v);
  }
  for (const child of children) el.append(child);
  return el;
}

function formatValue(spec, value) {
  if (spec.kind !== 'range') return String(value);
  return `${value}${spec.unit === '%' ? ' %' : ` ${spec.unit}`}`;
}

/**
 * Builds every control into `root`. `onChange(spec, value)` is called with display values.
 * Returns `{sync(params), setPreset(name)}`.
 */
export function buildControls(root, onChange, { onNewSeed } = {}) {
  const inputs = {};
  for (const group of GROUPS) {
    const details = element('details', { class: 'group', open: '', 'data-group': group.id });
    details.append(element('summary', { text: group.label, 'data-i18n': `group.${group.id}` }));
    for (const spec of CONTROLS.filter((c) => c.group === group.id)) {
      details.append(buildOne(spec, inputs, onChange, onNewSeed));
    }
    root.append(details);
  }
  return {
    inputs,
    sync(params) {
      for (const spec of CONTROLS) {
        if (spec.kind === 'preset') continue;
        const { input, output } = inputs[spec.id];
        const value = displayValue(spec, params, getPath);
        if (spec.enabledWhen) input.disabled = !spec.enabledWhen(params);
        if (spec.kind === 'check') input.checked = Boolean(value);
        else input.value = String(value);
        if (output) output.textContent = formatValue(spec, value);
      }
    },
    setPreset(name) {
      inputs.preset.input.value = name;
    },
  };
}

function buildOne(spec, inputs, onChange, onNewSeed) {
  const id = `control-${spec.id}`;
  const wrap = element('div', { class: `control ${spec.kind === 'check' ? 'check' : ''}`, 'data-control': spec.id });
  const label = element('label', { for: id, text: spec.label, 'data-i18n': `control.${spec.id}` });
  let input;
  let output = null;
  if (spec.kind === 'range') {
    input = element('input', { id, type: 'range', min: spec.min, max: spec.max, step: spec.step });
    output = element('output', { for: id, class: 'value' });
    wrap.append(label, output, input);
    input.addEventListener('input', () => onChange(spec, Number(input.value)));
  } else if (spec.kind === 'select' || spec.kind === 'preset') {
    input = element('select', { id });
    for (const [value, text] of spec.options) input.append(element('option', { value, text, 'data-i18n': `option.${spec.id}.${value}` }));
    wrap.append(label, input);
    input.addEventListener('change', () => onChange(spec, input.value));
  } else if (spec.kind === 'check') {
    input = element('input', { id, type: 'checkbox' });
    wrap.append(input, label);
    input.addEventListener('change', () => onChange(spec, input.checked));
  } else if (spec.kind === 'seed') {
    input = element('input', { id, type: 'number', min: spec.min, max: spec.max, step: 1, inputmode: 'numeric' });
    const fresh = element('button', { type: 'button', id: 'new-seed', text: 'New seed', 'data-i18n': 'button.newSeed' });
    fresh.addEventListener('click', () => onNewSeed?.());
    wrap.append(label, element('span', { class: 'row' }, [input, fresh]));
    input.addEventListener('change', () => onChange(spec, Number(input.value)));
  }
  if (spec.hint) wrap.append(element('span', { class: 'hint', text: spec.hint, 'data-i18n': `hint.${spec.id}` }));
  inputs[spec.id] = { input, output };
  return wrap;
}
