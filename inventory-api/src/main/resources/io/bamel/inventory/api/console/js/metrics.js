// Reads values from the server's /metrics (Prometheus text): the energy the pool controller
// estimates it saved. Only the replica that runs the pool controller has it. Parsing is pure.

/** {labelsText: value} of every sample of metric `name` in Prometheus text `text`. */
export function samples(text, name) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    let labels = '';
    let value;
    if (rest.startsWith('{')) {
      const close = rest.indexOf('}');
      labels = rest.slice(1, close);
      value = rest.slice(close + 1).trim().split(/\s+/)[0];
    } else if (rest.startsWith(' ')) {
      value = rest.trim().split(/\s+/)[0];
    } else continue;
    out[labels] = Number(value);
  }
  return out;
}

/** The value of label `label` in a labels text such as pool="gpu",state="ready". */
export function label(labelsText, labelName) {
  const m = new RegExp(`(?:^|,)${labelName}="((?:[^"\\\\]|\\\\.)*)"`).exec(labelsText);
  return m ? m[1].replace(/\\(.)/g, '$1') : null;
}

/** Energy saved per pool in joules from this replica's metrics: {pool: joules}. */
export async function energySaved() {
  const response = await fetch('/metrics', { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) return {};
  const all = samples(await response.text(), 'bamel_energy_saved_joules_total');
  const out = {};
  for (const [labels, v] of Object.entries(all)) {
    const pool = label(labels, 'pool');
    if (pool !== null) out[pool] = v;
  }
  return out;
}

/** Joules as kWh text. */
export function kwh(joules) {
  return joules === undefined || joules === null ? '—' : `${(joules / 3.6e6).toFixed(2)} kWh`;
}

