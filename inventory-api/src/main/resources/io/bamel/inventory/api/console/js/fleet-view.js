// The fleet view: racks side by side, each node at its position with its state as colour, shape
// and text, desired-vs-observed power mismatches and power draw; filters above. Built as one HTML
// string (10,000 nodes in well under a second), then updated node by node at most once a frame.
import { esc, el, watts } from './dom.js';
import { compile, isEmpty, matches, NONE } from './filters.js';
import { layout, moved } from './racks.js';
import { powerMismatch, powerWatts, STATE_NAMES, stateInfo, stateOf } from './states.js';

/**
 * The HTML of one node's tile: its unit (data-u) and the state's shape come from CSS (::before),
 * which keeps a tile to a few elements; the state's name is text.
 */
export function tileHtml(n) {
  const info = stateInfo(stateOf(n));
  const mismatch = powerMismatch(n);
  const pos = n.spec?.rackPosition;
  const w = powerWatts(n);
  return `<li class="node ${info.cls}${mismatch ? ' mismatch' : ''}" data-id="${esc(n.id)}"`
    + ` data-state="${info.state}" data-u="${pos === undefined || pos === null ? '' : `U${pos}`}"`
    + ` title="${esc(n.id)}: ${esc(info.label)}${mismatch ? `, ${esc(mismatch.text)}` : ''}">`
    + `<a href="#/node/${encodeURIComponent(n.id)}">${esc(n.id)}</a>`
    + `<span class="state">${esc(info.label)}</span>`
    + (w === null ? '' : `<span class="watts">${watts(w)}</span>`)
    + (mismatch ? `<span class="mm">≠ wants ${esc(mismatch.desired)}</span>` : '')
    + (n.spec?.maintenance ? '<span class="maint">maintenance</span>' : '')
    + '</li>';
}

export class FleetView {
  constructor(store, root) {
    this.store = store;
    this.root = root;
    this.filter = compile(NONE);
    this.tiles = new Map();
    this.dirty = new Set();
    this.structural = false;
    this.frame = 0;
    this.timings = {};
  }

  mount() {
    this.form = this.filterForm();
    this.count = el('p', { id: 'fleet-count', class: 'count', 'aria-live': 'polite' });
    this.racks = el('div', { id: 'racks', class: 'racks' });
    this.root.replaceChildren(el('section', { id: 'fleet', 'aria-label': 'fleet' },
      this.form, this.count, this.legend(), this.racks));
    this.unsubscribe = this.store.subscribe((kind, key) => this.changed(kind, key));
    this.renderAll();
  }

  unmount() {
    this.unsubscribe?.();
    cancelAnimationFrame(this.frame);
  }

  legend() {
    return el('ul', { class: 'legend', 'aria-label': 'legend' }, STATE_NAMES.map(s => {
      const i = stateInfo(s);
      return el('li', { class: `node ${i.cls}` }, el('span', { class: 'key' }, i.label));
    }), el('li', { class: 'node mismatch' }, el('span', { class: 'mm' }, '≠'),
      ' desired ≠ observed power'));
  }

  filterForm() {
    const select = (name, label, options) => el('label', {}, `${label} `,
      el('select', { name, id: `filter-${name}` }, el('option', { value: '' }, 'all'),
        options.map(o => el('option', { value: o }, o))));
    const pools = [...new Set([...this.store.pools.keys(),
      ...[...this.store.nodes.values()].map(n => n.spec?.pool).filter(Boolean)])].sort();
    const racks = layout(this.store.nodes.values()).map(r => r.rack);
    const form = el('form', { class: 'filters', role: 'search', onsubmit: e => e.preventDefault() },
      select('pool', 'Pool', [...pools, '-']),
      select('state', 'State', STATE_NAMES),
      select('rack', 'Rack', racks),
      el('label', {}, 'Labels ', el('input', { name: 'labels', id: 'filter-labels',
        placeholder: 'key=value, ...', autocomplete: 'off' })),
      el('label', {}, 'Search ', el('input', { name: 'text', id: 'filter-text', type: 'search',
        placeholder: 'id, serial, address…', autocomplete: 'off' })));
    form.addEventListener('input', () => {
      const data = Object.fromEntries(new FormData(form).entries());
      this.filter = compile(data);
      this.applyFilter();
    });
    return form;
  }

  changed(kind, key) {
    if (kind === 'reset') this.structural = true;
    else if (kind === 'node') {
      const n = this.store.nodes.get(key);
      const tile = this.tiles.get(key);
      if (!n || !tile || moved(tile.node, n)) this.structural = true;
      else this.dirty.add(key);
    } else return;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  flush() {
    this.frame = 0;
    if (this.structural) {
      this.renderAll();
      return;
    }
    const t0 = performance.now();
    const tpl = document.createElement('template');
    for (const id of this.dirty) {
      const n = this.store.nodes.get(id);
      const tile = this.tiles.get(id);
      if (!n || !tile) continue;
      tpl.innerHTML = tileHtml(n);
      const fresh = tpl.content.firstChild;
      fresh.hidden = !matches(n, this.filter);
      tile.element.replaceWith(fresh);
      this.tiles.set(id, { element: fresh, node: n });
    }
    this.dirty.clear();
    if (!isEmpty(this.filter)) this.applyFilter();
    this.timings.lastUpdateMs = performance.now() - t0;
  }

  renderAll() {
    const t0 = performance.now();
    this.structural = false;
    this.dirty.clear();
    const groups = layout(this.store.nodes.values());
    const html = groups.map(g => `<section class="rack" data-rack="${esc(g.rack)}"`
      + ` aria-label="rack ${esc(g.rack)}"><h3>${esc(g.rack)}`
      + ` <small>${g.nodes.length}</small></h3><ol class="units">`
      + g.nodes.map(tileHtml).join('') + '</ol></section>').join('');
    this.racks.innerHTML = html;
    this.tiles.clear();
    for (const li of this.racks.querySelectorAll('li.node')) {
      const id = li.dataset.id;
      this.tiles.set(id, { element: li, node: this.store.nodes.get(id) });
    }
    this.applyFilter();
    void this.racks.offsetHeight; // layout included in the measurement
    this.timings.renderMs = performance.now() - t0;
    this.timings.rendered = this.tiles.size;
  }

  applyFilter() {
    const all = isEmpty(this.filter);
    let shown = 0;
    for (const { element, node } of this.tiles.values()) {
      const visible = all || matches(node, this.filter);
      if (element.hidden === visible) element.hidden = !visible;
      if (visible) shown++;
    }
    for (const rack of this.racks.children) {
      rack.hidden = !all && !rack.querySelector('li.node:not([hidden])');
    }
    this.count.textContent = all
      ? `${this.tiles.size} nodes in ${this.racks.children.length} racks`
      : `showing ${shown} of ${this.tiles.size} nodes`;
  }
}
