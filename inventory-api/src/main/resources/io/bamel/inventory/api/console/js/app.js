// The console's entry: checks the session (or shows sign-in), loads the inventory, follows the
// watch, samples the pools' history, and routes between fleet (#/fleet), pools (#/pools) and a
// node (#/node/<id>).
import { get, listNodes, onUnauthorized } from './api.js';
import { FleetStore } from './fleet-store.js';
import { FleetView } from './fleet-view.js';
import { History } from './history.js';
import { NodeView } from './node-view.js';
import { PoolsView } from './pools-view.js';
import { current, signOut } from './session.js';
import { signinView } from './signin-view.js';
import { Watch } from './watch.js';

const main = document.getElementById('main');
const live = document.getElementById('live');
const store = new FleetStore();
const history = new History();
let session = null;
let view = null;
let sampler = 0;

const LIVE_TEXT = {
  connecting: '◌ connecting…', live: '● live', reconnecting: '↻ reconnecting…',
  stopped: '■ offline', idle: '',
};

const watch = new Watch({
  onChange: (kind, change) => store.apply(kind, change),
  onState: s => {
    live.dataset.state = s;
    live.textContent = LIVE_TEXT[s] ?? s;
  },
  onRelist: () => load(),
  onSignin: () => ended('Your session has ended; sign in again.'),
});

// For the browser tests and the curious: the page's state (no secrets in it).
window.bamelConsole = { store, watch, history, timings: {} };

async function load() {
  const t0 = performance.now();
  const [nodes, pools] = await Promise.all([listNodes(), get('/api/v1/pools')]);
  const t1 = performance.now();
  const since = store.load(nodes, pools);
  window.bamelConsole.timings.listMs = t1 - t0;
  window.bamelConsole.timings.nodes = nodes.items.length;
  watch.start(since);
}

function route() {
  view?.unmount();
  view = null;
  if (!session) return;
  const hash = location.hash || '#/fleet';
  for (const a of document.querySelectorAll('#nav a')) {
    a.toggleAttribute('aria-current', hash.startsWith(a.getAttribute('href')));
  }
  if (hash.startsWith('#/node/')) {
    const id = decodeURIComponent(hash.slice('#/node/'.length));
    view = new NodeView(store, session, main, id, document.getElementById('confirm'));
  } else if (hash.startsWith('#/pools')) {
    view = new PoolsView(store, history, main);
  } else {
    view = new FleetView(store, main);
    window.bamelConsole.fleet = view;
  }
  view.mount();
}

function header() {
  const who = document.getElementById('who');
  who.textContent = session ? `${session.principal} (${session.scope})` : '';
  who.hidden = !session;
  document.getElementById('signout').hidden = !session;
  document.getElementById('nav').hidden = !session;
}

async function started(s) {
  session = s;
  header();
  main.replaceChildren(document.createTextNode('Loading the inventory…'));
  try {
    await load();
  } catch (e) {
    if (e.status !== 401) main.textContent = `Could not load the inventory: ${e.message}`;
    return;
  }
  clearInterval(sampler);
  history.sample(Date.now(), store.pools.values());
  sampler = setInterval(() => history.sample(Date.now(), store.pools.values()), 2000);
  route();
}

function ended(note) {
  watch.stop();
  clearInterval(sampler);
  view?.unmount();
  view = null;
  session = null;
  header();
  live.dataset.state = 'idle';
  live.textContent = '';
  signinView(main, note, started);
}

onUnauthorized(() => ended('Your session has ended; sign in again.'));
window.addEventListener('hashchange', route);
document.getElementById('signout').addEventListener('click', async () => {
  try {
    await signOut();
  } finally {
    ended('Signed out.');
  }
});

const s = await current().catch(() => null);
if (s) started(s);
else ended(null);
