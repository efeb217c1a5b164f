// One small DOM helper for the page's newer panels (engines.js, league.js): an element with attributes and
// children. `text` sets the text content; `undefined`, `null` and `false` leave an attribute out, `true` sets it.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...children);
  return e;
}
