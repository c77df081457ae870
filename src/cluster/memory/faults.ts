// Fault injection for one actor's client. Every chance is drawn from the seeded
// `random`, and only for requests a fault could apply to, so a run with the same seed fails the same way.

import type { Resource } from '../../api/client.js';
import type { ApiError } from '../../api/errors.js';
import { internalError, staleConflict } from './messages.js';
import type { FaultConfig, FaultVerb } from './memory-types.js';
import type { StreamFaults } from './memory-watch.js';

const WRITES: readonly FaultVerb[] = ['create', 'update', 'updateStatus', 'patch', 'delete'];

const covers = (verbs: readonly FaultVerb[], verb: FaultVerb): boolean =>
  verbs.includes(verb) || (verb === 'updateStatus' && verbs.includes('update'));

export class FaultInjector {
  constructor(
    private readonly config: FaultConfig | undefined,
    private readonly random: () => number,
  ) {}

  /** The error this request fails with, if a fault hits it; a failed request has no effect. */
  failure(verb: FaultVerb, res: Resource, name: string): ApiError | undefined {
    const errors = this.config?.apiErrors;
    if (errors && errors.rate > 0 && covers(errors.verbs ?? WRITES, verb) && this.random() < errors.rate) {
      return internalError(`injected fault on ${verb} ${res.plural}/${name}`);
    }
    const conflicts = this.config?.conflicts;
    if (conflicts && conflicts.rate > 0 && (verb === 'update' || verb === 'updateStatus') && this.random() < conflicts.rate) {
      return staleConflict(res, name);
    }
    return undefined;
  }

  streamFaults(): StreamFaults {
    const w = this.config?.watch;
    const out: StreamFaults = { delayMs: Math.round((w?.delaySeconds ?? 0) * 1000), dropRate: w?.dropRate ?? 0 };
    if (w?.breakEverySeconds !== undefined && w.breakEverySeconds > 0) out.breakAfterMs = Math.round(w.breakEverySeconds * 1000);
    return out;
  }

  /** A resume from a specific resourceVersion answered with 410 Gone. */
  goneOnResume(resourceVersion: string): boolean {
    const rate = this.config?.watch?.goneRate ?? 0;
    if (rate <= 0 || resourceVersion === '' || resourceVersion === '0') return false;
    return this.random() < rate;
  }
}
