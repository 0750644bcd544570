// A small line chart as SVG: pure path computation (unit-tested) and the element built from it.

const NS = 'http://www.w3.org/2000/svg';

/**
 * The SVG path of `points` ([{t, v}]) in a box of `width` x `height`, time from `t0` to `t1`,
 * values from 0 to `max` (at least 1). Empty for fewer than one point.
 */
export function linePath(points, { width, height, t0, t1, max }) {
  if (points.length === 0) return '';
  const span = Math.max(1, t1 - t0);
  const top = Math.max(1, max);
  return points.map((p, i) => {
    const x = ((p.t - t0) / span) * width;
    const y = height - (Math.min(p.v, top) / top) * height;
    return `${i === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`;
  }).join(' ');
}

/**
 * An SVG chart of several series ({name, points: [{t, v}], cls}) sharing axes, with a title for
 * screen readers and a legend in text. `max` is the value at the top.
 */
export function chart({ title, series, max, width = 320, height = 80, format = v => v }) {
  const all = series.flatMap(s => s.points);
  const t0 = all.length ? Math.min(...all.map(p => p.t)) : 0;
  const t1 = all.length ? Math.max(...all.map(p => p.t)) : 1;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  const t = document.createElementNS(NS, 'title');
  const last = series.map(s => `${s.name} ${s.points.length ? format(s.points.at(-1).v) : '—'}`);
  t.textContent = `${title}: ${last.join(', ')}`;
  svg.append(t);
  for (const frac of [0.5, 1]) {
    const grid = document.createElementNS(NS, 'line');
    const y = (height - frac * height).toFixed(1);
    grid.setAttribute('x1', '0'); grid.setAttribute('x2', String(width));
    grid.setAttribute('y1', y); grid.setAttribute('y2', y);
    grid.setAttribute('class', 'grid');
    svg.append(grid);
  }
  for (const s of series) {
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', linePath(s.points, { width, height, t0, t1, max }));
    path.setAttribute('class', `line ${s.cls || ''}`);
    svg.append(path);
  }
  return svg;
}
