// Sign-in: the pasted token goes once to POST /api/v1/session, which answers with an HttpOnly
// session cookie (the page never sees or stores the token afterwards) and the CSRF token writes
// must send. Scope decides which buttons the page shows; the server enforces it regardless.
import { request, setCsrf } from './api.js';

const ORDER = ['read', 'write', 'bmc', 'admin'];

/** Whether a session's scope includes `needed` (read < write < bmc < admin). */
export function allows(session, needed) {
  return !!session && ORDER.indexOf(session.scope) >= ORDER.indexOf(needed);
}

/** The current session, or null when not signed in. */
export async function current() {
  try {
    const session = (await request('GET', '/api/v1/session', { quiet401: true })).json;
    setCsrf(session.csrfToken);
    return session;
  } catch (e) {
    if (e.status === 401) return null;
    throw e;
  }
}

/** Signs in with a token; resolves to the session. */
export async function signIn(token) {
  const session = (await request('POST', '/api/v1/session', { body: { token }, quiet401: true }))
    .json;
  setCsrf(session.csrfToken);
  return session;
}

/** Signs out (ends the server's session and clears the cookie). */
export async function signOut() {
  try {
    await request('DELETE', '/api/v1/session', { quiet401: true });
  } finally {
    setCsrf(null);
  }
}
