// List + watch of every pod (or one namespace's), as a reflector does: resume the watch from the last seen resourceVersion
// when a stream ends, relist when the server answers 410 Gone, and retry failed calls after a second.

import { Resources, type ClusterClient, type WatchEvent, type WatchHandle } from '../../api/client.js';
import { isGone } from '../../api/errors.js';
import type { Pod } from '../../api/types.js';
import type { TimerId, Timers } from '../../runtime/clock.js';

export interface PodSourceHandlers {
  /** A full list; pods not in it are gone. */
  onList(pods: Pod[]): void;
  onEvent(event: WatchEvent<Pod>): void;
  onError(error: unknown): void;
}

const RETRY_MS = 1000;

export class PodSource {
  private handle: WatchHandle | undefined;
  private retry: TimerId | undefined;
  private lastResourceVersion = '';
  private running = false;

  constructor(
    private readonly client: ClusterClient,
    private readonly timers: Timers,
    private readonly handlers: PodSourceHandlers,
    /** Only this namespace's pods (default: all). */
    private readonly namespace?: string,
  ) {}

  /** Resolves after the first list (or its first failure, after which it keeps retrying). */
  async start(): Promise<void> {
    this.running = true;
    await this.relist();
  }

  stop(): void {
    this.running = false;
    this.handle?.stop();
    this.handle = undefined;
    if (this.retry !== undefined) this.timers.cancel(this.retry);
    this.retry = undefined;
  }

  private async relist(): Promise<void> {
    if (!this.running) return;
    try {
      const list = await this.client.list<Pod>(Resources.pods, this.namespace);
      if (!this.running) return;
      this.lastResourceVersion = list.resourceVersion;
      this.handlers.onList(list.items);
      this.watch();
    } catch (e) {
      this.handlers.onError(e);
      this.later(() => void this.relist());
    }
  }

  private watch(): void {
    this.handle = this.client.watch<Pod>(Resources.pods, this.namespace, this.lastResourceVersion, {
      onEvent: (event) => {
        if (!this.running) return;
        if (event.object.metadata.resourceVersion) this.lastResourceVersion = event.object.metadata.resourceVersion;
        this.handlers.onEvent(event);
      },
      onClose: (error) => {
        this.handle = undefined;
        if (!this.running) return;
        if (isGone(error)) this.later(() => void this.relist(), 0);
        else if (error) {
          this.handlers.onError(error);
          this.later(() => this.watch());
        } else this.later(() => this.watch(), 0);
      },
    });
  }

  private later(task: () => void, ms = RETRY_MS): void {
    this.retry = this.timers.at(this.timers.now() + ms, () => {
      this.retry = undefined;
      if (this.running) task();
    }, 'kubelet pod source');
  }
}
