// Revision colours (by order of first appearance) and how each pod state is drawn.

import type { PodState } from './model.js';

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#e15759'];

export function revisionColor(revisions: readonly string[], revision: string | null): string {
  if (revision === null) return '#999999';
  const i = revisions.indexOf(revision);
  return i < 0 ? '#999999' : (PALETTE[i % PALETTE.length] ?? '#999999');
}

export const STATE_STYLE: Record<PodState, { opacity: number; className: string; help: string }> = {
  Pending: { opacity: 0.25, className: 'st-pending', help: 'created, not running yet' },
  Running: { opacity: 0.55, className: 'st-running', help: 'running, not ready' },
  NotAvailable: { opacity: 0.75, className: 'st-notavailable', help: 'ready, not yet available: within minReadySeconds' },
  Ready: { opacity: 1, className: 'st-ready', help: 'running and ready' },
  NotReady: { opacity: 0.55, className: 'st-notready', help: 'was ready, now not ready' },
  Restarting: { opacity: 0.55, className: 'st-restarting', help: 'updated in place: the same pod, its container starting again on the new image' },
  Failed: { opacity: 1, className: 'st-failed', help: 'failed' },
  Terminating: { opacity: 0.35, className: 'st-terminating', help: 'deletion requested' },
};

export const UNAVAILABLE_COLOR = '#c62828';

export const COUNTER_COLORS: Record<string, string> = {
  replicas: '#555555',
  readyReplicas: '#4e79a7',
  availableReplicas: '#59a14f',
  updatedReplicas: '#f28e2b',
  currentReplicas: '#b07aa1',
};
