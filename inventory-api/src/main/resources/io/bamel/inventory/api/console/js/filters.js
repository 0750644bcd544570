// The fleet's filters: pool, lifecycle state, rack, labels (k=v, comma-separated, all must match)
// and free text (matched against id, name, serial, rack, pool, site, addresses and label values).
// Pure: parse and match, no DOM.
import { stateOf } from './states.js';

/** An empty filter: everything matches. */
export const NONE = Object.freeze({ pool: '', state: '', rack: '', labels: '', text: '' });

/** Parses "k=v, k2=v2" into [[k, v], ...]; a term without '=' requires the key only. */
export function parseLabels(text) {
  return String(text || '')
    .split(',')
    .map(t => t.trim())
    .filter(t => t.length > 0)
    .map(t => {
      const eq = t.indexOf('=');
      return eq < 0 ? [t, null] : [t.slice(0, eq).trim(), t.slice(eq + 1).trim()];
    });
}

/** A filter ready to match: labels parsed, text lower-cased and split into words. */
export function compile(filter) {
  const f = { ...NONE, ...filter };
  return {
    pool: f.pool,
    state: f.state,
    rack: f.rack,
    labels: parseLabels(f.labels),
    words: String(f.text || '').toLowerCase().split(/\s+/).filter(w => w.length > 0),
  };
}

function haystack(node) {
  const s = node.spec || {};
  const labels = s.labels || {};
  return [node.id, s.name, s.serial, s.assetTag, s.rack, s.pool, s.site, s.mgmtAddress,
    s.macAddress, s.inventoryId, stateOf(node),
    ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)]
    .filter(v => v !== undefined && v !== null)
    .join(' ')
    .toLowerCase();
}

/** Whether `node` passes the compiled filter `f`. The pool '-' means "in no pool". */
export function matches(node, f) {
  const s = node.spec || {};
  if (f.pool && (f.pool === '-' ? !!s.pool : s.pool !== f.pool)) return false;
  if (f.state && stateOf(node) !== f.state) return false;
  if (f.rack && (s.rack || '') !== f.rack) return false;
  const labels = s.labels || {};
  for (const [k, v] of f.labels) {
    if (!Object.hasOwn(labels, k)) return false;
    if (v !== null && labels[k] !== v) return false;
  }
  if (f.words.length > 0) {
    const text = haystack(node);
    for (const w of f.words) if (!text.includes(w)) return false;
  }
  return true;
}

/** Whether the filter selects everything. */
export function isEmpty(f) {
  return !f.pool && !f.state && !f.rack && f.labels.length === 0 && f.words.length === 0;
}
