// The page's copy of the inventory: nodes and pools from a listing, then kept current by watch
// changes. A change is applied only if it is newer than what the store holds (a listing and the
// watch can overlap), so replays are harmless. Pure apart from calling listeners.

export class FleetStore {
  constructor() {
    this.nodes = new Map(); // id -> node view
    this.pools = new Map(); // name -> pool view
    this.at = new Map(); // 'node:id' | 'pool:name' -> revision the value is from
    this.revision = 0;
    this.listeners = new Set();
  }

  /** Listener(kind, key, type) after each applied change; kind 'reset' after load. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(kind, key, type) {
    for (const l of this.listeners) l(kind, key, type);
  }

  /** Replaces everything with listings: nodes {items, revision}, pools {items, revision}. */
  load(nodes, pools) {
    this.nodes.clear();
    this.pools.clear();
    this.at.clear();
    for (const n of nodes.items) {
      this.nodes.set(n.id, n);
      this.at.set(`node:${n.id}`, nodes.revision);
    }
    for (const p of pools.items) {
      this.pools.set(p.name, p);
      this.at.set(`pool:${p.name}`, pools.revision);
    }
    this.revision = Math.min(nodes.revision, pools.revision);
    this.emit('reset');
    return this.revision;
  }

  /** Applies one watch change; whether it changed anything. */
  apply(kind, change) {
    const key = kind === 'node' ? change.id : change.name;
    const atKey = `${kind}:${key}`;
    const seen = this.at.get(atKey) ?? -1;
    if (change.revision <= seen) return false;
    this.at.set(atKey, change.revision);
    this.revision = Math.max(this.revision, change.revision);
    const map = kind === 'node' ? this.nodes : this.pools;
    if (change.type === 'deleted') map.delete(key);
    else map.set(key, kind === 'node' ? change.node : change.pool);
    this.emit(kind, key, change.type);
    return true;
  }

  /** The members of a pool (nodes whose spec names it). */
  members(pool) {
    const out = [];
    for (const n of this.nodes.values()) if (n.spec?.pool === pool) out.push(n);
    return out;
  }
}
