// How a node's lifecycle state looks: a colour (CSS class) and, for people who do not see colour,
// a shape and the state's name. Plus the desired-vs-observed power comparison. Pure.

const STATES = {
  off: { symbol: '○', label: 'off', tone: 'off' },
  'powering-on': { symbol: '▲', label: 'powering on', tone: 'rising' },
  joining: { symbol: '◐', label: 'joining', tone: 'rising' },
  ready: { symbol: '●', label: 'ready', tone: 'ready' },
  draining: { symbol: '▽', label: 'draining', tone: 'falling' },
  'powering-off': { symbol: '▼', label: 'powering off', tone: 'falling' },
  error: { symbol: '✖', label: 'error', tone: 'error' },
  unknown: { symbol: '?', label: 'unknown', tone: 'unknown' },
};

/** Every lifecycle state, in lifecycle order. */
export const STATE_NAMES = Object.keys(STATES);

/** {symbol, label, tone, cls} of a state; an unrecognised or missing state is 'unknown'. */
export function stateInfo(state) {
  const key = Object.hasOwn(STATES, state) ? state : 'unknown';
  return { ...STATES[key], state: key, cls: `st-${key}` };
}

/** The node's lifecycle state from its status ('unknown' without one). */
export function stateOf(node) {
  return node?.status?.state ?? 'unknown';
}

/**
 * Desired against observed power: null when they agree or the observation is unknown, else
 * {desired, observed, text}. Desired is spec.powerState (absent: off).
 */
export function powerMismatch(node) {
  const desired = node?.spec?.powerState ?? 'off';
  const observed = node?.status?.powerState;
  if (!observed || observed === 'unknown' || observed === desired) return null;
  return { desired, observed, text: `wants ${desired}, is ${observed}` };
}

/** The node's last power reading in watts, or null. */
export function powerWatts(node) {
  const w = node?.readings?.powerWatts;
  return typeof w === 'number' && isFinite(w) ? w : null;
}
