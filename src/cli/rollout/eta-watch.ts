// The forecast behind a watch's ETA (`rollout status --watch`, the dashboard): asked for once per update
// revision, when the status first shows the rollout under way; an answer for a revision the set has since left
// (a fix during the rollout) is dropped. The set's pods seen going (deletion requested → gone) are what the
// forecast learns termination times from first: a forecast that had to take the grace period for want of one
// is asked again once the watch has seen a pod go.

import type { ClusterClient, Resource } from '../../api/client.js';
import type { Instant, Pod, StatefulSet } from '../../api/types.js';
import { isTerminating, stateSince } from '../../controller/pod-state.js';
import type { WatchedTermination } from '../../sim/learned-durations.js';
import { forecastEta, isTerminationUnknown, type EtaForecast } from './rollout-eta.js';

export class EtaWatch {
  private eta: EtaForecast;
  private revision: string | undefined;
  private readonly watched: WatchedTermination[] = [];

  /** `onAnswer`: the forecast arrived (or failed), so what shows it may draw again. */
  constructor(
    private readonly client: ClusterClient,
    private readonly resource: Resource,
    private readonly onAnswer: () => void = () => {},
  ) {}

  /** undefined until asked, 'pending' while asked, 'none' when no rollout is under way (see forecastEta). */
  get forecast(): EtaForecast {
    return this.eta;
  }

  /** One of the set's pods is gone: if it was seen terminating, its deletion → gone is a direct observation. */
  sawGone(pod: Pod, now: Instant): void {
    const requested = isTerminating(pod) ? stateSince(pod) : undefined;
    if (requested === undefined) return;
    this.watched.push({ pod: pod.metadata.name ?? '', seconds: Math.max(0, now - requested) / 1000 });
    // The forecast took the grace period for want of this: make it again.
    if (isTerminationUnknown(this.eta)) this.revision = undefined;
  }

  /** Asks for the forecast when a rollout of a revision not asked about yet is under way (`progressing`). */
  update(set: StatefulSet, pods: readonly Pod[], progressing: boolean): void {
    const s = set.status;
    const rolling = s?.currentRevision !== s?.updateRevision && s?.observedGeneration === set.metadata.generation;
    if (progressing && rolling && this.revision !== s?.updateRevision) this.ask(set, pods);
  }

  private ask(set: StatefulSet, pods: readonly Pod[]): void {
    const revision = set.status?.updateRevision;
    const watched = [...this.watched];
    this.eta = 'pending';
    this.revision = revision;
    const answer = (eta: EtaForecast) => {
      if (this.revision !== revision) return;
      this.eta = eta;
      if (isTerminationUnknown(eta) && this.watched.length > watched.length) this.revision = undefined;
      this.onAnswer();
    };
    forecastEta(this.client, this.resource, set, pods, watched).then(
      (eta) => answer(eta === undefined ? 'none' : typeof eta === 'string' ? { error: eta } : eta),
      (e: unknown) => answer({ error: e instanceof Error ? e.message : String(e) }),
    );
  }
}
