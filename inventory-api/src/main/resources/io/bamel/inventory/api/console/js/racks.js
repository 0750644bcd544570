// The fleet's layout: nodes grouped by rack, each rack's nodes by position (highest unit on top,
// as in the rack), racks in natural order (r2 before r10). Pure.

const collator = new Intl.Collator(undefined, { numeric: true });

/** The rack name shown for a node without one. */
export const NO_RACK = '(no rack)';

/** [{rack, nodes: [...]}, ...] for the given nodes. */
export function layout(nodes) {
  const racks = new Map();
  for (const n of nodes) {
    const rack = n.spec?.rack || NO_RACK;
    if (!racks.has(rack)) racks.set(rack, []);
    racks.get(rack).push(n);
  }
  const byPosition = (a, b) =>
    (b.spec?.rackPosition ?? -1) - (a.spec?.rackPosition ?? -1) || collator.compare(a.id, b.id);
  return [...racks.entries()]
    .sort(([a], [b]) => (a === NO_RACK) - (b === NO_RACK) || collator.compare(a, b))
    .map(([rack, list]) => ({ rack, nodes: list.sort(byPosition) }));
}

/** Whether a change moves a node to another place in the layout. */
export function moved(before, after) {
  return !before || !after
    || (before.spec?.rack || '') !== (after.spec?.rack || '')
    || (before.spec?.rackPosition ?? null) !== (after.spec?.rackPosition ?? null);
}
