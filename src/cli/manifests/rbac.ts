// Least-privilege RBAC for `ordinal controller`, modelled on kube-controller-manager's
// system:controller:statefulset-controller role: read sets and write only their status (and finalizers,
// which blockOwnerDeletion on pod ownerReferences requires); full pod lifecycle; claims created and
// re-owned but never deleted (retention works through ownerReferences and the garbage collector);
// ControllerRevisions; Events; StorageClasses, PodDisruptionBudgets and Nodes read (apps.ordinal.dev/v1: InPlace
// claim expansion, rollingUpdate.respectPodDisruptionBudgets and topologyKey; none of them is written), and
// pods/eviction created (respectPodDisruptionBudgets' update deletions). The Lease is a namespaced Role in the
// controller's own namespace.

import { Resources, type Resource } from '../../api/client.js';
import { commonLabels, type ManifestOptions } from './options.js';

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };

const rule = (groups: string[], resources: string[], verbs: string[]): Rule => ({ apiGroups: groups, resources, verbs });

function setRules(res: Resource): Rule[] {
  return [
    rule([res.group], [res.plural], ['get', 'list', 'watch']),
    rule([res.group], [`${res.plural}/status`], ['get', 'update', 'patch']),
    rule([res.group], [`${res.plural}/finalizers`], ['update']),
  ];
}

export function clusterRules(target: ManifestOptions['target']): Rule[] {
  const sets = [
    ...(target !== 'native' ? setRules(Resources.ordinalStatefulSets) : []),
    ...(target !== 'crd' ? setRules(Resources.statefulSets) : []),
  ];
  return [
    ...sets,
    rule([''], ['pods'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
    rule([''], ['persistentvolumeclaims'], ['get', 'list', 'watch', 'create', 'update', 'patch']),
    rule(['apps'], ['controllerrevisions'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
    rule(['', 'events.k8s.io'], ['events'], ['create', 'update', 'patch']),
    // InPlace claim updates (apps.ordinal.dev/v1) check that a claim's class allows expansion before patching it
    ...(target !== 'native' ? [rule(['storage.k8s.io'], ['storageclasses'], ['get', 'list', 'watch'])] : []),
    // respectPodDisruptionBudgets (apps.ordinal.dev/v1) checks the budgets selecting a pod before an update deletion,
    // which it then sends as an eviction (the API server checks the budget again)
    ...(target !== 'native' ? [rule(['policy'], ['poddisruptionbudgets'], ['list', 'watch']), rule([''], ['pods/eviction'], ['create'])] : []),
    // topologyKey (apps.ordinal.dev/v1) reads the zone label of the node a pod runs on
    ...(target !== 'native' ? [rule([''], ['nodes'], ['list', 'watch'])] : []),
  ];
}

export function buildRbac(o: ManifestOptions): Record<string, unknown>[] {
  const labels = commonLabels(o);
  const sa = { kind: 'ServiceAccount', name: o.name, namespace: o.namespace };
  const leaseRole = `${o.name}-leader-election`;
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: o.name, namespace: o.namespace, labels }, automountServiceAccountToken: true },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: o.name, labels }, rules: clusterRules(o.target) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: o.name, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: o.name },
      subjects: [sa],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: leaseRole, namespace: o.namespace, labels },
      rules: [
        // `create` cannot be limited by resourceNames; everything else is limited to our Lease.
        rule(['coordination.k8s.io'], ['leases'], ['create']),
        { ...rule(['coordination.k8s.io'], ['leases'], ['get', 'update', 'patch']), resourceNames: [o.name] },
        rule(['', 'events.k8s.io'], ['events'], ['create', 'patch']),
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: leaseRole, namespace: o.namespace, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: leaseRole },
      subjects: [sa],
    },
  ];
}
