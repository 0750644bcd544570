// The pools view: for each pool its node counts (ready / desired / min / max), pending pods,
// utilization per resource as bars against the scale-up and scale-down thresholds, the nodes
// being scaled with their reasons, conditions, power draw and energy saved, and charts of
// desired vs ready nodes and utilization since the page opened.
import { chart } from './chart.js';
import { clock, el, watts } from './dom.js';
import { energySaved, kwh } from './metrics.js';
import { powerWatts, stateInfo } from './states.js';

const DEFAULT_UP = 0.7;
const DEFAULT_DOWN = 0.3;

function pct(r) {
  return r === undefined || r === null ? '—' : `${Math.round(r * 100)}%`;
}

/** The bar of one resource: fill, threshold marks, and the same in text. */
function bar(resource, ratio, up, down) {
  const fill = Math.max(0, Math.min(1, ratio ?? 0));
  const zone = ratio === undefined ? 'unknown'
    : ratio >= up ? 'above' : ratio <= down ? 'below' : 'within';
  return el('div', { class: `util ${zone}`, 'data-resource': resource },
    el('span', { class: 'res' }, resource),
    el('span', { class: 'track', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 100,
      'aria-valuenow': ratio === undefined ? null : Math.round(ratio * 100),
      'aria-label': `${resource} utilization` },
    el('span', { class: 'fill', style: { width: `${(fill * 100).toFixed(1)}%` } }),
    el('span', { class: 'mark down', style: { left: `${down * 100}%` },
      title: `scale down at ${pct(down)}` }),
    el('span', { class: 'mark up', style: { left: `${up * 100}%` }, title: `scale up at ${pct(up)}` })),
    el('span', { class: 'val', 'data-field': `utilization.${resource}` }, pct(ratio)),
    el('small', {}, `${{ above: 'above the scale-up threshold', below: 'below the scale-down threshold',
      within: 'between the thresholds', unknown: 'not measured' }[zone]}`
      + ` (down ≤ ${pct(down)}, up ≥ ${pct(up)})`));
}

export class PoolsView {
  constructor(store, history, root) {
    this.store = store;
    this.history = history;
    this.root = root;
    this.energy = {};
  }

  mount() {
    this.list = el('div', { id: 'pools', class: 'pools' });
    this.root.replaceChildren(el('section', { 'aria-label': 'pools' }, this.list));
    this.unsubscribe = this.store.subscribe(() => this.schedule());
    this.timer = setInterval(() => this.render(), 2000);
    this.refreshEnergy();
    this.energyTimer = setInterval(() => this.refreshEnergy(), 10000);
    this.render();
  }

  unmount() {
    this.unsubscribe?.();
    clearInterval(this.timer);
    clearInterval(this.energyTimer);
    clearTimeout(this.pending);
  }

  async refreshEnergy() {
    try {
      this.energy = await energySaved();
    } catch {
      this.energy = {};
    }
    this.schedule();
  }

  schedule() {
    if (!this.pending) this.pending = setTimeout(() => { this.pending = null; this.render(); }, 250);
  }

  render() {
    const pools = [...this.store.pools.values()].sort((a, b) => a.name.localeCompare(b.name));
    this.list.replaceChildren(...(pools.length ? pools.map(p => this.card(p))
      : [el('p', {}, 'No pools.')]));
  }

  card(p) {
    const c = p.config || {};
    const s = p.status || {};
    const up = c.scaleUpThreshold ?? DEFAULT_UP;
    const down = c.scaleDownThreshold ?? DEFAULT_DOWN;
    const members = this.store.members(p.name);
    const draw = members.map(powerWatts).filter(w => w !== null).reduce((a, b) => a + b, 0);
    const resources = c.resources ?? Object.keys(s.utilization || {});
    const num = (field, label, value) => [el('dt', {}, label),
      el('dd', { 'data-field': field }, value ?? '—')];
    const samples = this.history.of(p.name);
    return el('article', { class: 'pool', 'data-pool': p.name,
      'data-status-revision': p.statusRevision ?? '' },
    el('h2', {}, p.name),
    el('dl', { class: 'numbers' },
      num('readyNodes', 'ready', s.readyNodes),
      num('desiredNodes', 'desired', s.desiredNodes),
      num('minNodes', 'min', c.minNodes ?? 0),
      num('maxNodes', 'max', c.maxNodes ?? '∞'),
      num('pendingNodes', 'coming up', s.pendingNodes),
      num('pendingPods', 'pending pods', s.pendingPods),
      num('members', 'members', members.length),
      num('powerWatts', 'power draw', watts(draw)),
      num('energySaved', 'energy saved', kwh(this.energy[p.name]))),
    el('div', { class: 'bars' }, resources.map(r => bar(r, s.utilization?.[r], up, down))),
    el('div', { class: 'charts' },
      chart({ title: `${p.name}: desired and ready nodes`, max: Math.max(1, c.maxNodes ?? 0,
        ...samples.map(x => Math.max(x.desired, x.ready))),
      series: [
        { name: 'desired', cls: 'desired', points: samples.map(x => ({ t: x.t, v: x.desired })) },
        { name: 'ready', cls: 'ready', points: samples.map(x => ({ t: x.t, v: x.ready })) }] }),
      chart({ title: `${p.name}: utilization`, max: 1, format: pct,
        series: resources.map((r, i) => ({ name: r, cls: `u${i}`,
          points: samples.filter(x => x.util[r] !== undefined).map(x => ({ t: x.t, v: x.util[r] })) })) }),
      el('p', { class: 'chart-legend' }, el('span', { class: 'key desired' }, '- - desired'), ' ',
        el('span', { class: 'key ready' }, '—— ready'), ' · utilization: ',
        resources.map((r, i) => el('span', { class: `key u${i}` }, `${r} `)),
        el('small', {}, ' (since this page opened)'))),
    this.scaling(s.scalingNodes || []),
    this.conditions(s.conditions || []));
  }

  scaling(nodes) {
    if (nodes.length === 0) return el('p', { class: 'scaling none' }, 'No nodes being scaled.');
    return el('table', { class: 'scaling' },
      el('caption', {}, 'Nodes being scaled'),
      el('thead', {}, el('tr', {}, ['node', 'action', 'state', 'since', 'reason'].map(h =>
        el('th', { scope: 'col' }, h)))),
      el('tbody', {}, nodes.map(n => {
        const info = stateInfo(n.state);
        return el('tr', { 'data-node': n.node },
          el('td', {}, el('a', { href: `#/node/${encodeURIComponent(n.node)}` }, n.node)),
          el('td', {}, n.action), el('td', { class: info.cls }, `${info.symbol} ${info.label}`),
          el('td', {}, clock(n.since)), el('td', {}, n.reason ?? ''));
      })));
  }

  conditions(list) {
    return el('ul', { class: 'conditions', 'aria-label': 'conditions' }, list.map(c =>
      el('li', { class: `cond ${c.status === 'True' ? 'true' : 'false'}` },
        el('b', {}, c.type), ` ${c.status}`, c.reason ? ` · ${c.reason}` : '',
        c.message ? el('small', {}, ` — ${c.message}`) : '')));
  }
}
