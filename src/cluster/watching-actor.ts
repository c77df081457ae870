// What the simulated actors beside the kubelet (the storage actor, the disruption controller) share: each
// mirrors the resources it watches into Maps through reflectors and works its keys one run at a time
// (KeyedWork), on the injected clock and randomness.

import type { ClusterClient, Resource, WatchEvent } from '../api/client.js';
import type { KubeObject } from '../api/types.js';
import type { Timers } from '../runtime/clock.js';
import { Reflector } from '../runtime/reflector.js';
import { KeyedWork } from './keyed-work.js';

export interface ActorDeps {
  client: ClusterClient;
  timers: Timers;
  random: () => number;
}

export abstract class WatchingActor {
  protected running = false;
  protected readonly work: KeyedWork;
  private readonly reflectors: Reflector<KubeObject>[] = [];

  /** `label` names the actor's timers; `namespace` limits what it watches (undefined: all namespaces). */
  constructor(
    private readonly deps: ActorDeps,
    label: string,
    private readonly namespace: string | undefined,
  ) {
    this.work = new KeyedWork(deps.timers, label, (key) => this.run(key));
  }

  /** One run of `key`'s work. */
  protected abstract run(key: string): Promise<void>;

  /** After a list replaced a mirrored Map (the start, or a watch that had to list again): every key is worked again. */
  protected abstract resyncAll(): void;

  /** Keeps `into` equal to the resource's objects, by `id`, calling `changed` for each one that changes. */
  protected watch<T extends KubeObject>(resource: Resource, into: Map<string, T>, id: (o: T) => string, changed: (o: T) => void): void {
    const sink = {
      replace: (items: T[]) => {
        into.clear();
        for (const item of items) into.set(id(item), item);
        this.resyncAll();
      },
      event: (e: WatchEvent<T>) => {
        if (e.type === 'DELETED') into.delete(id(e.object));
        else into.set(id(e.object), e.object);
        changed(e.object);
      },
    };
    const { client, timers, random } = this.deps;
    this.reflectors.push(new Reflector<T>({ client, resource, namespace: this.namespace, timers, random, sink }) as unknown as Reflector<KubeObject>);
  }

  start(): void {
    this.running = true;
    for (const r of this.reflectors) r.start();
  }

  stop(): void {
    this.running = false;
    for (const r of this.reflectors) r.stop();
    this.work.stop();
  }
}
