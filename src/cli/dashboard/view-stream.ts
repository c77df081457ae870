// Server-sent events (text/event-stream, which the browser's EventSource reads and reconnects by itself): each
// open page gets the view of its selected set at once, again shortly after the informers deliver a change
// (changes within DEBOUNCE_MS go out together), and every TICK_MS while anything is open, since times in
// state, bakes and the timeline's "now" move with the clock alone. Timers are the injected ones. A view that
// cannot be made (a bug) is not hidden: the pages get a `failure` event with its message and `onError` the
// error itself (the command prints its stack), and the stream goes on.

import type { ServerResponse } from 'node:http';
import type { TimerId, Timers } from '../../runtime/clock.js';
import type { ViewSnapshot } from './dashboard-model.js';

export const DEBOUNCE_MS = 150;
export const TICK_MS = 1000;

interface Client {
  res: ServerResponse;
  selected: string | undefined;
}

export class ViewStream {
  private readonly clients = new Set<Client>();
  private flushTimer: TimerId | undefined;
  private tickTimer: TimerId | undefined;

  constructor(
    private readonly snapshot: (selected: string | undefined) => ViewSnapshot,
    private readonly timers: Timers,
    private readonly onError: (e: unknown) => void,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  /** Answers `res` with the stream of views of `selected`; it ends when the page goes or the stream stops. */
  open(res: ServerResponse, selected: string | undefined): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    const client = { res, selected };
    this.clients.add(client);
    res.on('close', () => this.clients.delete(client));
    this.send(client, this.make(selected));
    this.scheduleTick();
  }

  /** Something shown may have changed: send the views soon. */
  changed(): void {
    if (this.flushTimer !== undefined || this.clients.size === 0) return;
    this.flushTimer = this.timers.at(this.timers.now() + DEBOUNCE_MS, () => {
      this.flushTimer = undefined;
      this.flush();
    }, 'dashboard view');
  }

  stop(): void {
    for (const id of [this.flushTimer, this.tickTimer]) if (id !== undefined) this.timers.cancel(id);
    this.flushTimer = this.tickTimer = undefined;
    for (const c of this.clients) c.res.end();
    this.clients.clear();
  }

  private scheduleTick(): void {
    if (this.tickTimer !== undefined) return;
    this.tickTimer = this.timers.at(this.timers.now() + TICK_MS, () => {
      this.tickTimer = undefined;
      if (this.clients.size === 0) return;
      this.flush();
      this.scheduleTick();
    }, 'dashboard tick');
  }

  /** One snapshot per selected set, sent to every page showing it. */
  private flush(): void {
    const made = new Map<string | undefined, ViewSnapshot | Error>();
    for (const c of this.clients) {
      let view = made.get(c.selected);
      if (view === undefined) {
        view = this.make(c.selected);
        made.set(c.selected, view);
      }
      this.send(c, view);
    }
  }

  private make(selected: string | undefined): ViewSnapshot | Error {
    try {
      return this.snapshot(selected);
    } catch (e) {
      this.onError(e);
      return e instanceof Error ? e : new Error(String(e));
    }
  }

  private send(c: Client, view: ViewSnapshot | Error): void {
    if (view instanceof Error) c.res.write(`event: failure\ndata: ${JSON.stringify({ message: `the view could not be made: ${view.message}` })}\n\n`);
    else c.res.write(`event: view\ndata: ${JSON.stringify(view)}\n\n`);
  }
}
