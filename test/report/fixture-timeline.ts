// A small hand-written timeline: set web, two pods, a rollout from rev-a to rev-b, one warning event.

import type { TimelineRecord } from '../../src/sim/timeline.js';

const pod = (t: number, name: string, ordinal: number, revision: string, event: string): TimelineRecord =>
  ({ t, type: 'pod', namespace: 'default', name, set: 'web', ordinal, revision, event }) as TimelineRecord;

const status = (t: number, ready: number, updated: number): TimelineRecord => ({
  t,
  type: 'status',
  namespace: 'default',
  name: 'web',
  generation: 1,
  status: { replicas: 2, readyReplicas: ready, availableReplicas: ready, currentReplicas: 2 - updated, updatedReplicas: updated },
});

export function sampleTimeline(): TimelineRecord[] {
  return [
    { t: 0, type: 'step', index: 0, step: { waitFor: 'Converged' } },
    pod(0, 'web-0', 0, 'web-rev-a', 'Created'),
    pod(0, 'web-0', 0, 'web-rev-a', 'Scheduled'),
    pod(1, 'web-0', 0, 'web-rev-a', 'Running'),
    pod(1, 'web-0', 0, 'web-rev-a', 'Ready'),
    pod(1, 'web-1', 1, 'web-rev-a', 'Created'),
    pod(2, 'web-1', 1, 'web-rev-a', 'Ready'),
    status(2, 2, 0),
    { t: 2, type: 'step', index: 1, step: { setImage: { name: 'web', container: 'nginx', image: 'nginx:2' } } },
    pod(2, 'web-1', 1, 'web-rev-a', 'Terminating'),
    pod(3, 'web-1', 1, 'web-rev-a', 'Deleted'),
    pod(3, 'web-1', 1, 'web-rev-b', 'Created'),
    {
      t: 3,
      type: 'event',
      namespace: 'default',
      involvedObject: { kind: 'Pod', name: 'web-1' },
      eventType: 'Warning',
      reason: 'BackOff',
      message: 'Back-off <pulling> image "x&y"',
    },
    pod(4, 'web-1', 1, 'web-rev-b', 'Ready'),
    status(4, 2, 1),
    { t: 5, type: 'expect', index: 2, ok: true, message: 'web-1 revision update' },
    {
      t: 5,
      type: 'summary',
      converged: false,
      convergedAt: null,
      endedAt: 5,
      sets: { web: { replicas: 2, readyReplicas: 2 } },
      metrics: { 'statefulset_controller_statefulset_max_unavailable{pod_management_policy="OrderedReady",statefulset_name="web",statefulset_namespace="default"}': 1 },
      violations: [],
      rollouts: [
        {
          namespace: 'default',
          name: 'web',
          generation: 2,
          revision: 'web-rev-b',
          startedAt: 2,
          convergedAt: null,
          replacedAt: null,
          podsDeleted: 1,
          podsCreated: 1,
          lowestAvailable: { replicas: 1, of: 2, at: 2 },
        },
      ],
    },
  ];
}
