// One node: state, spec, status, readings, the event history as a timeline (who, what, why,
// request id) and, for a session whose scope allows it, power on / off / hand back to its pool,
// each confirmed first and sent with If-Match so that it applies to the node as shown.
import { ApiError, get, power } from './api.js';
import { el, time, watts } from './dom.js';
import { allows } from './session.js';
import { powerMismatch, powerWatts, stateInfo, stateOf } from './states.js';

/** The confirmation text for an action on a node (names the node, and its pods when ready). */
export function confirmation(action, node) {
  const id = node.id;
  const k8s = node.status?.kubernetesNode || node.spec?.kubernetesNodeName || id;
  const ready = stateOf(node) === 'ready';
  if (action === 'off') {
    return `Power off ${id}?` + (ready
      ? ` It is ready as Kubernetes node ${k8s}: bamel cordons and drains it first, so the pods`
        + ` running on ${k8s} are evicted and rescheduled elsewhere.`
      : '') + ' The node becomes manually managed until it is handed back to its pool.';
  }
  if (action === 'on') {
    return `Power on ${id}? The node becomes manually managed: its pool no longer decides its`
      + ' power until it is handed back.';
  }
  return `Hand ${id} back to pool ${node.spec?.pool}? The pool controller then decides whether`
    + ' it is on' + (ready ? `; if it powers ${id} off, the pods on ${k8s} are evicted first.` : '.');
}

function table(caption, object) {
  const rows = Object.entries(object || {}).filter(([, v]) => v !== null && v !== undefined);
  return el('table', { class: 'kv' }, el('caption', {}, caption),
    el('tbody', {}, rows.length === 0 ? el('tr', {}, el('td', {}, '—'))
      : rows.map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k),
        el('td', {}, typeof v === 'object' ? JSON.stringify(v) : String(v))))));
}

function timeline(events) {
  if (events.length === 0) return el('p', {}, 'No events.');
  return el('ol', { class: 'timeline', reversed: true }, [...events].reverse().map(e => {
    const what = [e.from || e.to ? `${e.from ?? '?'} → ${e.to ?? '?'}` : null,
      e.action ? `${e.action}${e.result ? `: ${e.result}` : ''}` : null].filter(Boolean).join(', ');
    return el('li', { 'data-seq': e.seq ?? '' },
      el('time', { datetime: e.time }, time(e.time)), ' ',
      el('b', { class: 'who' }, e.principal || 'controller'), ' ',
      el('span', { class: 'why' }, e.reason || ''), what ? el('span', { class: 'what' }, ` ${what}`) : '',
      e.message ? el('div', { class: 'msg' }, e.message) : '',
      e.requestId ? el('div', { class: 'rid' }, 'request ', el('code', {}, e.requestId)) : '');
  }));
}

export class NodeView {
  constructor(store, session, root, id, confirmDialog) {
    this.store = store;
    this.session = session;
    this.root = root;
    this.id = id;
    this.dialog = confirmDialog;
    this.events = [];
  }

  mount() {
    this.unsubscribe = this.store.subscribe((kind, key) => {
      if ((kind === 'node' && key === this.id) || kind === 'reset') {
        this.render();
        this.loadEvents();
      }
    });
    this.render();
    this.loadEvents();
  }

  unmount() {
    this.unsubscribe?.();
    clearTimeout(this.eventsTimer);
  }

  loadEvents() {
    clearTimeout(this.eventsTimer);
    this.eventsTimer = setTimeout(async () => {
      try {
        this.events = (await get(`/api/v1/nodes/${encodeURIComponent(this.id)}/events`)).items;
      } catch (e) {
        this.events = [];
      }
      this.render();
    }, 200);
  }

  /** The power buttons, built once so that they stay put while the node changes. */
  actions() {
    if (!allows(this.session, 'write')) {
      return el('p', { class: 'readonly' }, `Signed in with scope ${this.session?.scope}:`
        + ' power actions need scope write.');
    }
    const button = (action, label) => el('button', { type: 'button', 'data-action': action,
      onclick: () => this.act(action) }, label);
    this.poolButton = button('pool', 'Hand back to pool');
    this.result = el('span', { id: 'action-result', role: 'status' });
    return el('div', { class: 'power-actions', role: 'group', 'aria-label': 'power actions' },
      button('on', 'Power on'), button('off', 'Power off'), this.poolButton, this.result);
  }

  async act(action) {
    const node = this.store.nodes.get(this.id);
    if (!node) return;
    document.getElementById('confirm-title').textContent =
      action === 'pool' ? 'Hand back to pool' : `Power ${action}`;
    document.getElementById('confirm-text').textContent = confirmation(action, node);
    this.dialog.returnValue = '';
    this.dialog.showModal();
    await new Promise(resolve => this.dialog.addEventListener('close', resolve, { once: true }));
    if (this.dialog.returnValue !== 'ok') return;
    const body = action === 'pool' ? { policy: 'pool' } : { state: action };
    let message;
    try {
      await power(this.id, node.revision, body);
      message = action === 'pool' ? 'handed back to the pool' : `power ${action} requested`;
    } catch (e) {
      message = e instanceof ApiError && e.status === 412
        ? 'the node changed meanwhile; look again and retry'
        : `refused: ${e.message}`;
    }
    if (this.result) this.result.textContent = message;
  }

  render() {
    const node = this.store.nodes.get(this.id);
    if (!node) {
      this.article = null;
      this.root.replaceChildren(el('p', {}, `No node ${this.id}.`));
      return;
    }
    if (!this.article || !this.root.contains(this.article)) {
      this.heading = el('h1', {});
      this.summary = el('p', { class: 'summary' });
      this.details = el('div', { class: 'columns' });
      this.history = el('div', { class: 'history' });
      this.article = el('article', { id: 'node', 'data-id': node.id },
        el('p', {}, el('a', { href: '#/fleet' }, '← fleet')),
        this.heading, this.summary, this.actions(), this.details,
        el('h2', {}, 'History'), this.history);
      this.root.replaceChildren(this.article);
    }
    const info = stateInfo(stateOf(node));
    const mismatch = powerMismatch(node);
    this.heading.replaceChildren(node.id, ' ', el('span', { class: `badge ${info.cls}`,
      'data-state': info.state }, `${info.symbol} ${info.label}`));
    this.summary.replaceChildren(`pool ${node.spec?.pool ?? '—'} · rack ${node.spec?.rack ?? '—'}`
      + ` U${node.spec?.rackPosition ?? '?'} · desired ${node.spec?.powerState ?? 'off'}`
      + ` (${node.spec?.powerPolicy ?? (node.spec?.pool ? 'pool' : 'manual')})`
      + ` · observed ${node.status?.powerState ?? 'unknown'} · ${watts(powerWatts(node))}`,
    mismatch ? el('span', { class: 'mm' }, ` ≠ ${mismatch.text}`) : '');
    if (this.poolButton) {
      this.poolButton.hidden = !node.spec?.pool;
      this.poolButton.textContent = `Hand back to pool ${node.spec?.pool ?? ''}`;
    }
    this.details.replaceChildren(table('Spec', node.spec), table('Status', node.status),
      table('Readings', node.readings));
    this.history.replaceChildren(timeline(this.events));
  }
}
