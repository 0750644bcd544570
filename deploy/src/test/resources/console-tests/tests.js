// Unit tests of the console's logic: filters, state colours and shapes, the watch's resume
// decisions and SSE parsing, the store's ordering, the rack layout, charts and metrics parsing.
import { eq, ok, run, test } from './runner.js';
import { compile, isEmpty, matches, parseLabels } from '../console/js/filters.js';
import { powerMismatch, powerWatts, STATE_NAMES, stateInfo } from '../console/js/states.js';
import { backoff, nextStep, stale, watchUrl } from '../console/js/resume.js';
import { createParser } from '../console/js/sse.js';
import { FleetStore } from '../console/js/fleet-store.js';
import { layout, moved, NO_RACK } from '../console/js/racks.js';
import { linePath } from '../console/js/chart.js';
import { label, samples } from '../console/js/metrics.js';
import { tileHtml } from '../console/js/fleet-view.js';
import { confirmation } from '../console/js/node-view.js';
import { allows } from '../console/js/session.js';
import { esc, watts } from '../console/js/dom.js';
import { History } from '../console/js/history.js';

const node = (id, spec = {}, status, readings) => ({ id, revision: 1, spec, status, readings });
const a = node('r1-cpu-01', { pool: 'general', rack: 'r1', rackPosition: 1, serial: 'DEMO00001',
  labels: { tier: 'general', zone: 'a' }, powerState: 'on' }, { state: 'ready', powerState: 'on' });
const b = node('r2-gpu-17', { pool: 'gpu', rack: 'r2', rackPosition: 6, labels: { tier: 'gpu' } },
  { state: 'off', powerState: 'off' });
const c = node('spare-1', {}, undefined);

// Filters
test('an empty filter matches everything', () => {
  const f = compile({});
  ok(isEmpty(f));
  ok(matches(a, f) && matches(b, f) && matches(c, f));
});
test('pool, state and rack filters match exactly; pool "-" is no pool', () => {
  eq([a, b, c].filter(n => matches(n, compile({ pool: 'gpu' }))).map(n => n.id), ['r2-gpu-17']);
  eq([a, b, c].filter(n => matches(n, compile({ pool: '-' }))).map(n => n.id), ['spare-1']);
  eq([a, b, c].filter(n => matches(n, compile({ state: 'ready' }))).map(n => n.id), ['r1-cpu-01']);
  eq([a, b, c].filter(n => matches(n, compile({ state: 'unknown' }))).map(n => n.id), ['spare-1']);
  eq([a, b, c].filter(n => matches(n, compile({ rack: 'r1' }))).map(n => n.id), ['r1-cpu-01']);
  eq([a, b, c].filter(n => matches(n, compile({ pool: 'gpu', state: 'ready' }))).length, 0);
});
test('labels parse as k=v terms, all must match; a bare key needs the key only', () => {
  eq(parseLabels(' tier=gpu, zone = a ,,x'), [['tier', 'gpu'], ['zone', 'a'], ['x', null]]);
  ok(matches(a, compile({ labels: 'tier=general,zone=a' })));
  ok(!matches(a, compile({ labels: 'tier=general,zone=b' })));
  ok(matches(b, compile({ labels: 'tier' })));
  ok(!matches(c, compile({ labels: 'tier' })));
});
test('free text matches every word, case-insensitively, across fields', () => {
  ok(matches(a, compile({ text: 'demo00001' })));
  ok(matches(a, compile({ text: 'R1 general' })));
  ok(matches(a, compile({ text: 'zone=a' })));
  ok(!matches(a, compile({ text: 'r1 gpu' })));
  ok(matches(b, compile({ text: 'off' })));
});

// States: colour plus shape plus text
test('every state has its own class, a label and a shape', () => {
  const seen = new Set();
  for (const s of STATE_NAMES) {
    const i = stateInfo(s);
    eq(i.cls, `st-${s}`);
    ok(i.label.length > 0 && i.symbol.length > 0, s);
    seen.add(i.symbol);
  }
  eq(seen.size, STATE_NAMES.length, 'distinct shapes');
  eq(stateInfo('powering-on').label, 'powering on');
});
test('the stylesheet draws each state with the shape states.js names, and its own colour', () => {
  const host = document.createElement('ul');
  document.body.append(host);
  const tones = new Set();
  for (const s of STATE_NAMES) {
    const i = stateInfo(s);
    host.innerHTML = tileHtml(node('n1', {}, { state: s }));
    const a = host.querySelector('a');
    eq(getComputedStyle(a, '::before').content, JSON.stringify(i.symbol), s);
    tones.add(getComputedStyle(host.firstChild).getPropertyValue('--tone').trim());
  }
  host.remove();
  ok(tones.size >= 6, `tones ${[...tones]}`);
});
test('a missing or unknown state shows as unknown', () => {
  eq(stateInfo(undefined).state, 'unknown');
  eq(stateInfo('exploded').cls, 'st-unknown');
  eq(stateInfo('__proto__').state, 'unknown');
});
test('power mismatch compares desired (default off) with an observed state', () => {
  eq(powerMismatch(a), null);
  eq(powerMismatch(node('x', { powerState: 'on' }, { powerState: 'off' })).text, 'wants on, is off');
  eq(powerMismatch(node('x', {}, { powerState: 'on' })).desired, 'off');
  eq(powerMismatch(node('x', { powerState: 'on' }, { powerState: 'unknown' })), null);
  eq(powerMismatch(c), null);
  eq(powerWatts(node('x', {}, undefined, { powerWatts: 212.5 })), 212.5);
  eq(powerWatts(a), null);
});
test('a tile names the state in text, escapes the id, and marks a mismatch', () => {
  const html = tileHtml(node('<x>', { powerState: 'on', rackPosition: 3 },
    { state: 'powering-on', powerState: 'off' }, { powerWatts: 1500 }));
  ok(html.includes('&lt;x&gt;') && !html.includes('<x>'), 'escaped');
  ok(html.includes('powering on') && html.includes('data-state="powering-on"'));
  ok(html.includes('≠ wants on') && html.includes('1.5 kW') && html.includes('data-u="U3"'));
  eq(esc(`"'&`), '&quot;&#39;&amp;');
});

// Resume logic
test('a dropped stream resumes after the last event id, or from where it started', () => {
  const step = nextStep({ status: 0, lastId: '42-1', since: 40, attempt: 0 }, () => 0.5);
  eq(step, { action: 'resume', since: '42-1', delay: 500 });
  eq(nextStep({ status: 503, lastId: null, since: 40, attempt: 1 }, () => 0.5).since, 40);
  eq(nextStep({ status: 401, lastId: '1-0', since: 0, attempt: 0 }).action, 'signin');
  eq(nextStep({ status: 410, lastId: '1-0', since: 0, attempt: 0 }).action, 'relist');
});
test('reconnects back off from 0.5 s to 5 s with jitter', () => {
  eq([0, 1, 2, 3, 4, 10].map(n => backoff(n, () => 0.5)), [500, 1000, 2000, 4000, 5000, 5000]);
  ok(backoff(0, () => 0) === 400 && backoff(0, () => 1) === 600);
});
test('the watch url carries since, encoded', () => {
  eq(watchUrl(null), '/api/v1/watch');
  eq(watchUrl('42-3'), '/api/v1/watch?since=42-3');
  eq(watchUrl(7), '/api/v1/watch?since=7');
  ok(stale(0, 40001) && !stale(0, 39000));
});
test('the SSE parser handles chunks cut anywhere, CRLF, comments and multi-line data', () => {
  const events = [];
  const p = createParser(e => events.push(e));
  const text = ': watching\n\nid: 5-0\nevent: node\ndata: {"a":\ndata: 1}\n\n'
    + ': keep-alive\r\n\r\nid: 6-0\r\nevent: pool\r\ndata: x\r\n\r\n';
  for (let i = 0; i < text.length; i += 3) p.feed(text.slice(i, i + 3));
  eq(events, [{ id: '5-0', event: 'node', data: '{"a":\n1}' }, { id: '6-0', event: 'pool', data: 'x' }]);
  eq(p.lastId, '6-0');
});

// Store ordering
test('the store applies only changes newer than what it holds', () => {
  const s = new FleetStore();
  const seen = [];
  s.subscribe((kind, key, type) => seen.push(`${kind}:${key ?? ''}:${type ?? ''}`));
  eq(s.load({ items: [a], revision: 10 }, { items: [{ name: 'general' }], revision: 12 }), 10);
  ok(!s.apply('node', { type: 'modified', revision: 9, id: a.id, node: b }), 'older');
  ok(s.apply('node', { type: 'modified', revision: 11, id: a.id, node: { ...a, revision: 11 } }));
  ok(!s.apply('pool', { type: 'modified', revision: 11, name: 'general', pool: {} }), 'older pool');
  ok(s.apply('node', { type: 'added', revision: 13, id: b.id, node: b }));
  ok(s.apply('node', { type: 'deleted', revision: 14, id: a.id, node: a }));
  eq([...s.nodes.keys()], [b.id]);
  eq(s.members('gpu').map(n => n.id), [b.id]);
  eq(seen, ['reset::', `node:${a.id}:modified`, `node:${b.id}:added`, `node:${a.id}:deleted`]);
});

// Layout, charts, metrics, confirmation, scopes
test('racks sort naturally and nodes by position from the top', () => {
  const nodes = [node('x', { rack: 'r10', rackPosition: 1 }), node('y', { rack: 'r2', rackPosition: 1 }),
    node('z', { rack: 'r2', rackPosition: 5 }), node('w', {})];
  const l = layout(nodes);
  eq(l.map(r => r.rack), ['r2', 'r10', NO_RACK]);
  eq(l[0].nodes.map(n => n.id), ['z', 'y']);
  ok(moved(nodes[1], node('y', { rack: 'r2', rackPosition: 2 })));
  ok(!moved(nodes[1], node('y', { rack: 'r2', rackPosition: 1, pool: 'p' })));
});
test('a chart line maps time and value into the box', () => {
  const d = linePath([{ t: 0, v: 0 }, { t: 5, v: 2 }, { t: 10, v: 8 }],
    { width: 100, height: 50, t0: 0, t1: 10, max: 4 });
  eq(d, 'M0.0 50.0 L50.0 25.0 L100.0 0.0');
  eq(linePath([], { width: 1, height: 1, t0: 0, t1: 1, max: 1 }), '');
});
test('metrics samples and labels parse from Prometheus text', () => {
  const text = '# HELP x\nbamel_energy_saved_joules_total{pool="gpu"} 7200000.0\n'
    + 'bamel_energy_saved_joules_total{pool="gen\\"x"} 1\nbamel_energy_saved_joules_created 5\n';
  const s = samples(text, 'bamel_energy_saved_joules_total');
  eq(Object.values(s), [7200000, 1]);
  eq(Object.keys(s).map(k => label(k, 'pool')), ['gpu', 'gen"x']);
});
test('the power-off confirmation names the node and, when ready, its Kubernetes node and pods', () => {
  const text = confirmation('off', node('r1-cpu-01', { pool: 'general' },
    { state: 'ready', kubernetesNode: 'k8s-r1-01' }));
  ok(text.includes('r1-cpu-01') && text.includes('k8s-r1-01') && text.includes('pods'), text);
  ok(!confirmation('off', b).includes('pods'));
  ok(confirmation('pool', a).includes('general'));
});
test('scopes are ordered read < write < bmc < admin', () => {
  ok(!allows({ scope: 'read' }, 'write') && allows({ scope: 'write' }, 'write'));
  ok(allows({ scope: 'admin' }, 'write') && !allows(null, 'read'));
});
test('the pools history keeps the newest samples up to its bound', () => {
  const h = new History(3);
  for (let t = 1; t <= 5; t++) {
    h.sample(t, [{ name: 'gpu', status: { desiredNodes: t, readyNodes: t - 1, utilization: { gpu: t / 10 } } }]);
  }
  eq(h.of('gpu').map(x => [x.t, x.desired, x.ready, x.util.gpu]), [[3, 3, 2, 0.3], [4, 4, 3, 0.4], [5, 5, 4, 0.5]]);
  eq(h.of('none'), []);
});
test('power draw reads as watts or kilowatts', () => {
  eq([watts(null), watts(212.4), watts(1530)], ['—', '212 W', '1.5 kW']);
});

run();
