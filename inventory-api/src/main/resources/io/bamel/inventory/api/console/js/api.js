// The API client: same-origin requests carrying the session cookie; writes send the session's CSRF
// token. Errors become ApiError with the RFC 9457 problem the server answered.

let csrfToken = null;

/** Sets the CSRF token that writes send (from the session), or null after signing out. */
export function setCsrf(token) {
  csrfToken = token;
}

/** An answer other than 2xx: `status` and the problem's `detail` as the message. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** Listeners told when a request finds the session gone (401). */
const unauthorized = new Set();
export function onUnauthorized(listener) {
  unauthorized.add(listener);
}

/**
 * Sends a request. `body` is JSON-encoded; `headers` adds headers (If-Match). Resolves to
 * {status, headers, json}; rejects with ApiError.
 */
export async function request(method, path, { body, headers = {}, quiet401 = false } = {}) {
  const h = { Accept: 'application/json', ...headers };
  if (body !== undefined) h['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) h['X-CSRF-Token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  const type = response.headers.get('Content-Type') || '';
  const json = type.includes('json') ? await response.json() : null;
  if (!response.ok) {
    if (response.status === 401 && !quiet401) unauthorized.forEach(l => l());
    throw new ApiError(response.status, json);
  }
  return { status: response.status, headers: response.headers, json };
}

/** GET returning the JSON body. */
export async function get(path, options) {
  return (await request('GET', path, options)).json;
}

/** Every node, following `continue` tokens: {items, revision}. */
export async function listNodes() {
  let page = await get('/api/v1/nodes?limit=10000');
  const items = page.items;
  const revision = page.revision;
  while (page.continue) {
    page = await get(`/api/v1/nodes?limit=10000&continue=${encodeURIComponent(page.continue)}`);
    items.push(...page.items);
  }
  return { items, revision };
}

/** A power request for a node, guarded by its revision (If-Match). */
export function power(id, revision, body) {
  return request('POST', `/api/v1/nodes/${encodeURIComponent(id)}/power`, {
    body,
    headers: { 'If-Match': `"${revision}"` },
  });
}
