// `rollout history NAME [--revision N]`: the set's ControllerRevisions (kubectl's StatefulSetHistoryViewer)
// with what each one changed in the pod template, and which revisions the set's status calls current and
// update. With --revision, that revision's whole template and its change from the revision before. With
// `-o json|yaml`, as kubectl: the ControllerRevisions as a List, or with --revision the pod template it restores.

import { Resources, type ClusterClient, type Resource } from '../../api/client.js';
import { applyRevision } from '../../api/revision/hash.js';
import { sortRevisions } from '../../api/revision/order.js';
import type { ControllerRevision, PodTemplateSpec, StatefulSet } from '../../api/types.js';
import { stringify } from 'yaml';
import { controllerRefOf } from '../../runtime/set-targets.js';
import type { CommandIO } from '../explain/io.js';
import { structured } from '../explain/output-format.js';
import { qualifiedName } from '../explain/set-ref.js';
import { renderTable } from '../explain/table.js';
import { describeChange, revisionChanges, summarizeChanges } from '../../api/object-changes.js';

export const CHANGE_CAUSE = 'kubernetes.io/change-cause';

export interface RolloutHistoryArgs {
  resource: Resource;
  set: StatefulSet;
  /** 0 or undefined: the list. */
  revision?: number;
  output?: 'json' | 'yaml';
}

/** The set's revisions, oldest first (controlled by it: kubectl's controlledHistory). */
// upstream: kubectl/pkg/polymorphichelpers history.go controlledHistory
export async function setHistory(client: ClusterClient, set: StatefulSet): Promise<ControllerRevision[]> {
  const ns = set.metadata.namespace ?? 'default';
  const all = (await client.list<ControllerRevision>(Resources.controllerRevisions, ns)).items;
  return sortRevisions(all.filter((r) => controllerRefOf(r)?.uid === set.metadata.uid));
}

/** The pod template a revision restores (upstream ApplyRevision on the live set). */
export function templateOf(set: StatefulSet, rev: ControllerRevision): PodTemplateSpec {
  return applyRevision(set, rev).spec.template;
}

/** What `rev` changed from `prev`: the pod template, and the claim templates when the revisions record them. */
const changesOf = (set: StatefulSet, prev: ControllerRevision, rev: ControllerRevision) => revisionChanges(applyRevision(set, prev).spec, applyRevision(set, rev).spec);

function statusMark(set: StatefulSet, rev: ControllerRevision): string {
  const name = rev.metadata.name;
  const marks = [name === set.status?.currentRevision ? 'current' : '', name === set.status?.updateRevision ? 'update' : ''];
  return marks.filter(Boolean).join(',') || '-';
}

function historyTable(set: StatefulSet, history: readonly ControllerRevision[]): string[] {
  const rows = history.map((rev, i) => {
    const prev = history[i - 1];
    const change = prev === undefined ? '(first revision)' : summarizeChanges(changesOf(set, prev, rev));
    return [String(rev.revision), rev.metadata.name ?? '', statusMark(set, rev), rev.metadata.annotations?.[CHANGE_CAUSE] ?? '<none>', change];
  });
  return renderTable(['REVISION', 'NAME', 'STATUS', 'CHANGE-CAUSE', 'CHANGE'], rows);
}

function revisionDetail(set: StatefulSet, history: readonly ControllerRevision[], index: number): string[] {
  const rev = history[index] as ControllerRevision;
  const template = templateOf(set, rev);
  const lines = [`Name: ${rev.metadata.name ?? ''}`, `Status: ${statusMark(set, rev)}`, `Change-Cause: ${rev.metadata.annotations?.[CHANGE_CAUSE] ?? '<none>'}`];
  const prev = history[index - 1];
  if (prev !== undefined) {
    const changes = changesOf(set, prev, rev);
    lines.push(`Changes from revision #${prev.revision}:`, ...(changes.length ? changes.map((c) => `  ${describeChange(c)}`) : ['  (none)']));
  }
  lines.push('Pod Template:', ...stringify(template).trimEnd().split('\n').map((l) => `  ${l}`));
  return lines;
}

/** A revision as the API shows it: kind and apiVersion set, `data` as an object rather than stored text. */
function revisionObject(rev: ControllerRevision): object {
  const { apiVersion: _apiVersion, kind: _kind, data, ...rest } = rev;
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', ...rest, data: typeof data === 'string' ? (JSON.parse(data) as unknown) : data };
}

export async function rolloutHistory(client: ClusterClient, args: RolloutHistoryArgs, io: CommandIO): Promise<number> {
  const history = await setHistory(client, args.set);
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  if (args.revision) {
    const index = history.findIndex((r) => r.revision === args.revision);
    if (index < 0) {
      io.stderr(`error: unable to find the specified revision\n`);
      return 1;
    }
    if (args.output) io.stdout(structured(templateOf(args.set, history[index] as ControllerRevision), args.output));
    else io.stdout(`${name} with revision #${args.revision}\n${revisionDetail(args.set, history, index).join('\n')}\n`);
    return 0;
  }
  if (args.output) {
    io.stdout(structured({ apiVersion: 'v1', kind: 'List', items: history.map(revisionObject) }, args.output));
    return 0;
  }
  if (history.length === 0) {
    io.stdout('No rollout history found.\n');
    return 0;
  }
  io.stdout(`${name}\n${historyTable(args.set, history).join('\n')}\n`);
  return 0;
}
