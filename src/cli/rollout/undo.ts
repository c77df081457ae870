// `rollout undo NAME [--to-revision N]`: writes an earlier revision's pod template back into the set, as
// kubectl's StatefulSetRollbacker does (there is no rollback API: the controller then finds the equal
// revision, re-numbers it and rolls the pods to it like any update). Under volumeClaimUpdatePolicy InPlace
// the revision holds the claim templates too: their labels, annotations and volumeAttributesClassName come
// back, but a claim never shrinks, so a storage request stays the larger one and the command says which
// claims keep their size.

import type { ClusterClient, Resource } from '../../api/client.js';
import { Resources } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { applyRevision, carriesClaimTemplates } from '../../api/revision/hash.js';
import { claimRequest, type ControllerRevision, type PersistentVolumeClaim, type StatefulSet } from '../../api/types.js';
import { deepEqual } from '../../api/validation/json.js';
import { compareQuantities, largerQuantity } from '../../api/validation/quantity.js';
import { claimOrdinal } from '../../controller/model/claim-identity.js';
import { retryOnConflict } from '../../runtime/conflict-retry.js';
import type { CommandIO } from '../explain/io.js';
import { qualifiedName } from '../explain/set-ref.js';
import { checkUpdate, dryRunSuffix, type DryRun } from './dry-run.js';
import { setHistory, templateOf } from './rollout-history.js';

export interface RolloutUndoArgs {
  resource: Resource;
  set: StatefulSet;
  /** 0: the revision before the newest. */
  toRevision: number;
  dryRun?: DryRun;
}

export class RollbackError extends Error {
  override name = 'RollbackError';
}

/** The revision to go back to: `toRevision`, or the second newest when 0. `history` is sorted. */
// upstream: kubectl/pkg/polymorphichelpers rollback.go findHistory
export function findRollbackRevision(history: readonly ControllerRevision[], toRevision: number): ControllerRevision {
  if (toRevision < 0) throw new RollbackError(`unable to find specified revision ${toRevision} in history`);
  if (toRevision === 0) {
    const previous = history[history.length - 2];
    if (previous === undefined) throw new RollbackError('no last revision to roll back to');
    return previous;
  }
  const found = history.find((r) => r.revision === toRevision);
  if (found === undefined) throw new RollbackError(`unable to find specified revision ${toRevision} in history`);
  return found;
}

type ClaimTemplates = NonNullable<StatefulSet['spec']['volumeClaimTemplates']>;

/** The claim templates `rev` holds (an InPlace set's revisions hold them; others none). */
function revisionClaimTemplates(set: StatefulSet, rev: ControllerRevision): ClaimTemplates {
  return applyRevision({ ...set, spec: { ...set.spec, volumeClaimTemplates: [] } }, rev).spec.volumeClaimTemplates ?? [];
}

/**
 * InPlace: `rev`'s claim templates, by name and in its order (an undo takes back templates added or removed).
 * A template the set still has keeps what it stores, with what may change taken from `rev`'s — its labels,
 * annotations and volumeAttributesClassName, and the larger of the two storage requests (a claim template
 * may not shrink, and no claim does): the revision holds the templates as the controller defaulted them
 * (volumeMode: Filesystem), which a CRD does not add, and the rule that a template's fixed fields never
 * change would take the added default for a change. A template the set no longer has comes back as `rev`
 * holds it, and mounts the claims its removal kept.
 */
function restoredClaimTemplates(set: StatefulSet, rev: ControllerRevision): ClaimTemplates | undefined {
  // a revision from before the set was InPlace holds no claim templates: the set keeps its own
  if (set.spec.volumeClaimUpdatePolicy !== 'InPlace' || !carriesClaimTemplates(rev)) return undefined;
  const current = set.spec.volumeClaimTemplates ?? [];
  return revisionClaimTemplates(set, rev).map((was) => {
    const now = current.find((t) => t.metadata?.name === was.metadata?.name);
    return now === undefined ? was : mutableFrom(now, was);
  });
}

/** `now` with the fields a claim template may change taken from `was` (the storage only when larger). */
function mutableFrom(now: PersistentVolumeClaim, was: PersistentVolumeClaim): PersistentVolumeClaim {
  const { labels: _l, annotations: _a, ...metadata } = now.metadata ?? {};
  const { volumeAttributesClassName: _v, ...spec } = now.spec ?? {};
  const storage = largerQuantity(claimRequest(now), claimRequest(was));
  const requests = storage === undefined || storage === claimRequest(now) ? now.spec?.resources?.requests : { ...now.spec?.resources?.requests, storage };
  const vac = was.spec?.volumeAttributesClassName;
  return {
    ...now,
    metadata: { ...metadata, ...pick(was.metadata, 'labels', 'annotations') },
    spec: { ...spec, ...(requests === undefined ? {} : { resources: { ...spec.resources, requests } }), ...(vac === undefined ? {} : { volumeAttributesClassName: vac }) },
  };
}

const pick = <T extends object, K extends keyof T>(o: T | undefined, ...keys: K[]): Partial<Pick<T, K>> =>
  Object.fromEntries(keys.flatMap((k) => (o?.[k] === undefined ? [] : [[k, o[k]]]))) as Partial<Pick<T, K>>;

/** Sets the template (and InPlace claim templates) from `rev`, re-reading the set on conflict; false when it already matched. */
async function restoreTemplate(client: ClusterClient, resource: Resource, first: StatefulSet, rev: ControllerRevision, dryRun: DryRun): Promise<boolean> {
  return retryOnConflict(async (i) => {
    const ns = first.metadata.namespace ?? 'default';
    const set = i === 0 ? first : await client.get<StatefulSet>(resource, ns, first.metadata.name ?? '');
    const template = templateOf(set, rev);
    const claimTemplates = restoredClaimTemplates(set, rev) ?? set.spec.volumeClaimTemplates;
    if (deepEqual(template, set.spec.template) && deepEqual(claimTemplates, set.spec.volumeClaimTemplates)) return false;
    const spec = { ...set.spec, template, ...(claimTemplates === undefined ? {} : { volumeClaimTemplates: claimTemplates }) };
    if (dryRun === 'client') checkUpdate(resource, { ...set, spec }, set);
    else await client.update<StatefulSet>(resource, { ...set, spec }, { dryRun: dryRun === 'server' });
    return true;
  });
}

/** InPlace: the set's claims whose request is larger than `rev`'s template asked for (they keep their size). */
async function claimsKeptLarger(client: ClusterClient, set: StatefulSet, rev: ControllerRevision): Promise<string[]> {
  if (set.spec.volumeClaimUpdatePolicy !== 'InPlace') return [];
  const old = revisionClaimTemplates(set, rev);
  if (old.length === 0) return [];
  const claims = (await client.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, set.metadata.namespace ?? 'default')).items;
  return claims.flatMap((c) => {
    const template = old.find((t) => claimOrdinal(set, t, c.metadata.name ?? '') !== undefined);
    const was = template === undefined ? undefined : claimRequest(template);
    const has = claimRequest(c);
    return was !== undefined && has !== undefined && compareQuantities(has, was) === 1 ? [`${c.metadata.name ?? ''} (${has}, revision ${rev.revision} had ${was})`] : [];
  });
}

// upstream: kubectl/pkg/polymorphichelpers rollback.go StatefulSetRollbacker.Rollback
export async function rolloutUndo(client: ClusterClient, args: RolloutUndoArgs, io: CommandIO): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  let rev: ControllerRevision;
  try {
    rev = findRollbackRevision(await setHistory(client, args.set), args.toRevision);
  } catch (e) {
    if (!(e instanceof RollbackError)) throw e;
    io.stderr(`error: ${e.message}\n`);
    return 1;
  }
  const dryRun = args.dryRun ?? 'none';
  let changed: boolean;
  try {
    changed = await restoreTemplate(client, args.resource, args.set, rev, dryRun);
  } catch (e) {
    // the client dry run's own checks: no server answered
    if (!(dryRun === 'client' && e instanceof ApiError)) throw e;
    io.stderr(`error: ${e.message}\n`);
    return 1;
  }
  io.stdout(changed ? `${name} rolled back${dryRunSuffix(dryRun)}\n` : `${name} skipped rollback (current template already matches revision ${rev.revision})\n`);
  const larger = await claimsKeptLarger(client, args.set, rev);
  if (larger.length > 0) io.stdout(`claims never shrink; these keep their size: ${larger.join(', ')}\n`);
  return 0;
}
