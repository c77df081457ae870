// The leader's write fence: open only while this process is sure it still holds the Lease. client-go's
// leaderelection says of itself that it "does not guarantee that only one client is acting as a leader (a.k.a.
// fencing)", and kube-controller-manager relies on exiting after `leaderelection lost`; a process paused past
// its lease (SIGSTOP, a VM freeze, a long GC) resumes with syncs in flight and writes before its next renewal
// tells it that another holder took over. So the elector grants the fence until `start of the renewal +
// renewDeadline` on a monotonic clock after every renewal the API server accepted, and revokes it when it sees
// another holder or stops; a successor takes over no earlier than leaseDuration after it saw that renewal,
// and renewDeadline < leaseDuration (the margin covers clocks that run at different rates). Every write path
// reads `refusal()` just before it sends, so a resumed process refuses its next write before any of its
// timers has had a chance to fire.

import type { Instant } from '../api/types.js';
import type { Clock } from './clock.js';

/** A write refused because this process is not sure it holds the Lease; never retried. */
export class FencedError extends Error {
  override name = 'FencedError';
}

export function isFenced(err: unknown): err is FencedError {
  return err instanceof FencedError;
}

/** What write paths consult: the client before each request, the executor before each batch, the event recorder. */
export interface WriteFence {
  /** Undefined while writes may go out; else the error to fail the write with. Cheap: read before every write. */
  refusal(): FencedError | undefined;
  /** Aborted when the fence is revoked (for good); its reason is the FencedError. */
  readonly signal: AbortSignal;
}

export class LeaseFence implements WriteFence {
  private until = -Infinity;
  private readonly revocation = new AbortController();

  /** `clock` must be monotonic in production (a wall-clock jump must not move the deadline). */
  constructor(private readonly clock: Clock) {}

  get signal(): AbortSignal {
    return this.revocation.signal;
  }

  /** Writes may go out until `until` (on the fence's clock), unless revoked; a later grant extends it. */
  grant(until: Instant): void {
    if (!this.revocation.signal.aborted) this.until = until;
  }

  /** The instant the current grant ends (on the fence's clock); -Infinity before the first. */
  grantedUntil(): Instant {
    return this.until;
  }

  /** Shuts the fence for good: every later `refusal()` returns an error naming `reason`. Idempotent. */
  revoke(reason: string): void {
    if (this.revocation.signal.aborted) return;
    this.until = -Infinity;
    this.revocation.abort(new FencedError(`not the leader (${reason}): write refused`));
  }

  refusal(): FencedError | undefined {
    const { signal } = this.revocation;
    if (signal.aborted) return signal.reason as FencedError;
    if (this.until === -Infinity) return new FencedError('not the leader yet: write refused');
    const now = this.clock.now();
    if (now < this.until) return undefined;
    return new FencedError(`the Lease was last renewed more than the renew deadline ago (${Math.round(now - this.until)} ms past it): write refused`);
  }
}

/** A fence that never refuses: a controller run without leader election. */
export const OPEN_FENCE: WriteFence = { refusal: () => undefined, signal: new AbortController().signal };
