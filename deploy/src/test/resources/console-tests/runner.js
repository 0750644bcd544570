// A tiny test runner for the console's modules: test(name, fn), assertions, and the results in
// window.consoleTestResults ([{name, ok, error}]) for the Java test to read.

const tests = [];

export function test(name, fn) {
  tests.push({ name, fn });
}

export function eq(actual, expected, what = '') {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what} expected ${e} but was ${a}`);
}

export function ok(value, what = 'expected true') {
  if (!value) throw new Error(what);
}

export async function run() {
  const results = [];
  for (const t of tests) {
    try {
      await t.fn();
      results.push({ name: t.name, ok: true, error: null });
    } catch (e) {
      results.push({ name: t.name, ok: false, error: String(e && e.stack || e) });
    }
  }
  const list = document.getElementById('results');
  for (const r of results) {
    const li = document.createElement('li');
    li.textContent = `${r.ok ? 'ok' : 'FAIL'} ${r.name}${r.error ? `: ${r.error}` : ''}`;
    list.append(li);
  }
  window.consoleTestResults = results;
}
