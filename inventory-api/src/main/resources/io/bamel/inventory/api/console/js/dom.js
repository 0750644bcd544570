// Small DOM helpers shared by the views: element creation and HTML escaping.

/** Escapes text for use inside HTML (element content and quoted attributes). */
export function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, c => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'
  })[c]);
}

/**
 * Creates an element: el('p', {class: 'x'}, 'text', child, ...). Null children are skipped. A
 * `style` object is applied through the CSSOM (the console's Content-Security-Policy forbids
 * inline style attributes).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'style' && typeof v === 'object') Object.assign(node.style, v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Replaces the content of `node` with `children`. */
export function show(node, ...children) {
  node.replaceChildren(...children.flat().filter(c => c !== null && c !== undefined));
}

/** A number of watts as text: "212 W", "1.4 kW"; "—" when unknown. */
export function watts(w) {
  if (w === null || w === undefined || !isFinite(w)) return '—';
  return w >= 1000 ? `${(w / 1000).toFixed(1)} kW` : `${Math.round(w)} W`;
}

/** A time as local text, or "—". */
export function time(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString();
}

/** The time of day of an instant, or "—". */
export function clock(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleTimeString();
}
