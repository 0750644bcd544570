// What the watch does after its stream ends or fails: pure decisions, unit-tested in the browser.

/** The delay before reconnect attempt `attempt` (0, 1, ...): 0.5 s doubling to 5 s, +/-20 %. */
export function backoff(attempt, random = Math.random) {
  const base = Math.min(5000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The next step after a stream ended: `status` is the HTTP status of the last attempt (0 when the
 * connection failed or dropped), `lastId` the last event id seen (null: none yet), `since` the
 * revision the watch started from.
 *   401          -> {action: 'signin'}                    the session ended
 *   410          -> {action: 'relist'}                    history gone: list again, watch anew
 *   400          -> {action: 'relist'}                    the position was refused
 *   otherwise    -> {action: 'resume', since, delay}     reconnect after the last event seen
 */
export function nextStep({ status, lastId, since, attempt }, random = Math.random) {
  if (status === 401) return { action: 'signin' };
  if (status === 410 || status === 400) return { action: 'relist' };
  return { action: 'resume', since: lastId ?? since, delay: backoff(attempt, random) };
}

/** The watch URL resuming after `position` (a revision or an event id "rev-index"). */
export function watchUrl(position) {
  return position === null || position === undefined
    ? '/api/v1/watch'
    : `/api/v1/watch?since=${encodeURIComponent(position)}`;
}

/** Whether a stream that has sent nothing (not even its 15 s keep-alive) since `lastActivity` is dead. */
export function stale(lastActivity, now, limit = 40000) {
  return now - lastActivity > limit;
}
