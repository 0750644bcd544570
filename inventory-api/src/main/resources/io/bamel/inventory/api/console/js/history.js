// What the pools looked like over time, sampled while the page is open: desired and ready nodes
// and utilization per resource. A bounded ring per pool (one hour at one sample every 2 s).

export class History {
  constructor(limit = 1800) {
    this.limit = limit;
    this.pools = new Map(); // name -> [{t, desired, ready, util: {resource: ratio}}]
  }

  /** Records one sample of every pool in `pools` (pool views) at time `t` (ms). */
  sample(t, pools) {
    for (const p of pools) {
      const s = p.status || {};
      const list = this.pools.get(p.name) ?? [];
      list.push({ t, desired: s.desiredNodes ?? 0, ready: s.readyNodes ?? 0,
        util: { ...(s.utilization || {}) } });
      if (list.length > this.limit) list.splice(0, list.length - this.limit);
      this.pools.set(p.name, list);
    }
  }

  /** The samples of a pool, oldest first. */
  of(name) {
    return this.pools.get(name) ?? [];
  }
}
