// The live feed: GET /api/v1/watch read with fetch as a stream, parsed as Server-Sent Events.
// After a drop it reconnects with since=<last event id> (so nothing is missed or repeated),
// showing 'reconnecting' meanwhile; a 410 asks the owner to list again; a 401 to sign in.
import { createParser } from './sse.js';
import { nextStep, stale, watchUrl } from './resume.js';

export class Watch {
  /**
   * handlers: onChange(kind, change) for each 'node'/'pool' event, onState(state) with
   * 'connecting' | 'live' | 'reconnecting' | 'stopped', onRelist() and onSignin().
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.since = null;
    this.lastId = null;
    this.attempt = 0;
    this.stopped = true;
    this.controller = null;
    this.timer = null;
    this.lastActivity = 0;
    this.reconnects = 0;
  }

  /** Starts watching after revision `since`. */
  start(since) {
    this.stop();
    this.stopped = false;
    this.since = since;
    this.lastId = null;
    this.attempt = 0;
    this.watchdog = setInterval(() => {
      if (this.controller && stale(this.lastActivity, Date.now())) this.controller.abort();
    }, 5000);
    this.connect();
  }

  /** Stops for good (sign-out, relist). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    if (this.controller) this.controller.abort();
    this.controller = null;
  }

  /** Cuts the current stream as a network failure would (the reconnect logic takes over). */
  drop() {
    if (this.controller) this.controller.abort();
  }

  state(s) {
    this.current = s;
    this.handlers.onState?.(s);
  }

  async connect() {
    if (this.stopped) return;
    this.state(this.attempt === 0 && this.lastId === null ? 'connecting' : 'reconnecting');
    const controller = new AbortController();
    this.controller = controller;
    let status = 0;
    try {
      const response = await fetch(watchUrl(this.lastId ?? this.since), {
        headers: { Accept: 'text/event-stream' },
        credentials: 'same-origin',
        cache: 'no-store',
        signal: controller.signal,
      });
      status = response.status;
      if (response.ok) {
        this.lastActivity = Date.now();
        this.attempt = 0;
        this.state('live');
        await this.read(response.body, controller);
        status = 0;
      }
    } catch (e) {
      status = 0;
    }
    if (this.stopped || controller !== this.controller) return;
    const step = nextStep({ status, lastId: this.lastId, since: this.since, attempt: this.attempt });
    if (step.action === 'signin') {
      this.stop();
      this.state('stopped');
      this.handlers.onSignin?.();
    } else if (step.action === 'relist') {
      this.stop();
      this.handlers.onRelist?.();
    } else {
      this.attempt++;
      this.reconnects++;
      this.state('reconnecting');
      this.timer = setTimeout(() => this.connect(), step.delay);
    }
  }

  async read(body, controller) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = createParser(e => {
      if (e.event === 'node' || e.event === 'pool') {
        this.handlers.onChange(e.event, JSON.parse(e.data));
        this.lastId = e.id;
      }
    });
    for (;;) {
      const { value, done } = await reader.read();
      if (done || controller.signal.aborted) return;
      this.lastActivity = Date.now();
      parser.feed(decoder.decode(value, { stream: true }));
    }
  }
}
