import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario } from '../../src/sim/scenario.js';
import { ScenarioError } from '../../src/sim/scenario-fields.js';
import { issuesOf } from './fixtures.js';

const SET = `
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: nginx, image: "nginx:1"}]}
`;


describe('parseScenario defaults', () => {
  it('fills in seed 1, endSeconds 86400, the kubelet defaults and the target from the objects', () => {
    const s = parseScenario(`kind: Scenario\nobjects:${SET}`);
    assert.equal(s.seed, 1);
    assert.equal(s.endSeconds, 86400);
    assert.deepEqual(s.cluster, { podStartSeconds: 1, podTerminationSeconds: 1, images: {} });
    assert.equal(s.controller.target, 'native');
    assert.deepEqual(s.steps, []);
    assert.equal(s.objects[0]!.object.metadata.namespace, 'default');
  });

  it('targets the CRD when the objects use apps.ordinal.dev/v1, and both when they mix', () => {
    const ordinal = SET.replace('apps/v1', 'apps.ordinal.dev/v1');
    assert.equal(parseScenario(`kind: Scenario\nobjects:${ordinal}`).controller.target, 'crd');
    const both = ordinal + SET.replace('name: web}', 'name: db}');
    assert.equal(parseScenario(`kind: Scenario\nobjects:${both}`).controller.target, 'both');
  });

  it('reads JSON as well as YAML', () => {
    const s = parseScenario(JSON.stringify({ kind: 'Scenario', seed: 7, steps: [{ advance: 5 }] }));
    assert.equal(s.seed, 7);
    assert.deepEqual(s.steps[0], { raw: { advance: 5 }, kind: 'advance', seconds: 5 });
  });
});

describe('parseScenario steps', () => {
  const parse = (steps: string) => parseScenario(`kind: Scenario\nobjects:${SET}\nsteps:\n${steps}`).steps;

  it('parses every step kind and keeps the step as given', () => {
    const steps = parse(`
  - waitFor: Converged
    timeoutSeconds: 60
  - waitFor: {pod: web-2, condition: Deleted}
  - waitFor: {statefulset: web}
  - patch: {kind: StatefulSet, name: web, merge: {spec: {replicas: 5}}}
  - setImage: {name: web, container: nginx, image: "nginx:2"}
  - deletePod: web-1
  - advance: 30
  - restartController: {}
  - expect: {status: {web: {readyReplicas: 3}}, pods: {web-0: {revision: update, ready: true}}, maxUnavailableObserved: {web: 1}, event: {reason: SuccessfulCreate}}
`);
    assert.deepEqual(
      steps.map((s) => s.kind),
      ['waitFor', 'waitFor', 'waitFor', 'patch', 'setImage', 'deletePod', 'advance', 'restartController', 'expect'],
    );
    assert.deepEqual(steps[0], { raw: { waitFor: 'Converged', timeoutSeconds: 60 }, kind: 'waitFor', target: { kind: 'allConverged' }, timeoutSeconds: 60 });
    assert.deepEqual((steps[1] as { target: unknown }).target, { kind: 'pod', ref: { namespace: 'default', name: 'web-2' }, condition: 'Deleted' });
    assert.deepEqual((steps[2] as { target: unknown; timeoutSeconds: number }).timeoutSeconds, 600);
    assert.equal((steps[3] as { target: { apiVersion: string } }).target.apiVersion, 'apps/v1');
    assert.deepEqual(steps[5], { raw: { deletePod: 'web-1' }, kind: 'deletePod', pod: { namespace: 'default', name: 'web-1' } });
  });

  it('names the field of a patch whose merge is not an object', () => {
    const issues = issuesOf(`kind: Scenario\nobjects:${SET}\nsteps:\n  - advance: 1\n  - advance: 1\n  - advance: 1\n  - patch: {kind: StatefulSet, name: web, merge: 3}\n`);
    assert.deepEqual(issues, ['steps[3].patch.merge: must be an object, got number 3']);
  });

  it('rejects a step with no action or two actions, and unknown keys', () => {
    const issues = issuesOf(`kind: Scenario\nsteps:\n  - {advance: 1, deletePod: web-0}\n  - {sleep: 3}\n  - {advance: 1, timeoutSeconds: 3}\n`);
    assert.deepEqual(issues, [
      'steps[0]: must have exactly one of waitFor, apply, patch, setImage, deletePod, advance, restartController, expect, delete, endpoint, pause, resume, promote, abort, retry, got advance, deletePod',
      'steps[1]: must have exactly one of waitFor, apply, patch, setImage, deletePod, advance, restartController, expect, delete, endpoint, pause, resume, promote, abort, retry',
      'steps[2].timeoutSeconds: unknown field (allowed: advance)',
    ]);
  });

  it('rejects unknown keys in the object form of deletePod', () => {
    const issues = issuesOf(`kind: Scenario\nsteps:\n  - deletePod: {name: web-3, nmespace: other}\n`);
    assert.deepEqual(issues, ['steps[0].deletePod.nmespace: unknown field (allowed: name, namespace)']);
  });

  it('parses a delete step of any kind, its apiVersion given or known, and names what is wrong with one', () => {
    const steps = parse(`  - delete: {kind: PersistentVolumeClaim, name: data-web-1}\n  - delete: {kind: StatefulSet, name: web, namespace: default}\n`);
    assert.deepEqual(steps.map((s) => (s.kind === 'delete' ? s.target : s.kind)), [
      { namespace: 'default', name: 'data-web-1', kind: 'PersistentVolumeClaim', apiVersion: 'v1' },
      { namespace: 'default', name: 'web', kind: 'StatefulSet', apiVersion: 'apps/v1' },
    ]);
    const issues = issuesOf(`kind: Scenario\nsteps:\n  - delete: {kind: Deployment, name: web}\n  - delete: {kind: Pod, nme: web-0}\n  - delete: web-0\n`);
    assert.deepEqual(issues, [
      'steps[0].delete.kind: unsupported kind Deployment',
      'steps[1].delete.nme: unknown field (allowed: kind, apiVersion, name, namespace)',
      'steps[1].delete.name: required',
      'steps[2].delete: must be an object, got string "web-0"',
    ]);
  });

  it('rejects a setImage for a StatefulSet the scenario never creates', () => {
    const issues = issuesOf(`kind: Scenario\nsteps:\n  - setImage: {name: nope, container: c, image: i}\n`);
    assert.deepEqual(issues, ['steps[0].setImage.name: no StatefulSet default/nope among the objects or earlier apply steps (or give apiVersion)']);
  });
});

describe('parseScenario bad files', () => {
  it('reports every bad field with its path in one go', () => {
    const issues = issuesOf(`
kind: Scenari
seed: -1
endSeconds: 0
cluster: {podStartSeconds: fast, images: {"app:x": {behavior: Sleepy}, "app:y": {behavior: NotReadyAfter}, "app:z": {pods: [], startSeconds: {samples: []}}, "app:w": {pods: [web-1, 3]}}}
faults: {apiErrors: {rate: 2, verbs: [create, get]}}
controller: {featureGates: {NoSuchGate: true, PodIndexLabel: false}, target: kcm}
`);
    assert.deepEqual(issues, [
      'kind: must be one of Scenario, got string "Scenari"',
      'seed: must be >= 0, got -1',
      'endSeconds: must be greater than 0, got 0',
      'cluster.podStartSeconds: must be a number, got string "fast"',
      'cluster.images["app:x"].behavior: must be one of ImagePullBackOff, CrashLoopBackOff, NotReadyAfter, got string "Sleepy"',
      'cluster.images["app:y"].seconds: required for behavior NotReadyAfter',
      'cluster.images["app:z"].startSeconds.samples: must not be empty',
      'cluster.images["app:z"].pods: must not be empty',
      'cluster.images["app:w"].pods[1]: must be a non-empty string, got number 3',
      'faults.apiErrors.verbs[1]: must be one of create, delete, update, patch, got string "get"',
      'faults.apiErrors.rate: must be <= 1, got 2',
      'controller.featureGates.NoSuchGate: ' +
        'unrecognized feature gate: NoSuchGate (known: MaxUnavailableStatefulSet, StatefulSetRecreateStrategy, StatefulSetSemanticRevisionComparison, StaleControllerConsistencyStatefulSet, EnforcedRollingUpdateInStatefulSet, StatefulSetMinReadySeconds, StatefulSetStartOrdinal, StatefulSetAutoDeletePVC, PodIndexLabel)',
      'controller.featureGates.PodIndexLabel: cannot set feature gate PodIndexLabel to false, feature is locked to true',
      'controller.target: must be one of crd, native, got string "kcm"',
    ]);
  });

  it('reads the node\'s allocatable, and names a bad quantity or key by its path', () => {
    const ok = parseScenario('kind: Scenario\ncluster: {allocatable: {cpu: 4, memory: 8Gi}}\n');
    assert.deepEqual(ok.cluster.allocatable, { cpu: '4', memory: '8Gi' });
    assert.deepEqual(issuesOf('kind: Scenario\ncluster: {allocatable: {cpu: -1, memory: lots, gpu: 1}}\n'), [
      'cluster.allocatable.gpu: unknown field (allowed: cpu, memory)',
      'cluster.allocatable.cpu: must be a non-negative quantity, e.g. "4", "500m", "8Gi"',
      'cluster.allocatable.memory: must be a non-negative quantity, e.g. "4", "500m", "8Gi"',
    ]);
  });

  it('reports YAML syntax errors in one line with the file and position', () => {
    assert.throws(() => parseScenario('kind: Scenario\nsteps: [\n', 'test.yaml'), (e: unknown) => {
      assert.ok(e instanceof ScenarioError);
      assert.match(e.message, /^test\.yaml:3:1: Flow sequence in block collection must be sufficiently indented and end with a \]$/);
      return true;
    });
  });

  it('rejects an invalid StatefulSet among the objects with the API field path', () => {
    const issues = issuesOf(`kind: Scenario\nobjects:${SET.replace('replicas: 3', 'replicas: -1')}`);
    assert.equal(issues.length, 1);
    assert.match(issues[0]!, /^objects\[0\]\.spec\.replicas: /);
  });

  for (const [typo, field] of [
    ['spec.replicaz', 'replicaz: 5'],
    ['spec.podManagmentPolicy', 'podManagmentPolicy: Parallel'],
    ['spec.updateStrategy.rollingUpdate.maxUnavailble', 'updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailble: 3}}'],
    ['spec.constructor', 'constructor: {x: 1}'],
    ['spec.__proto__', '__proto__: {x: 1}'],
  ] as const) {
    it(`refuses the unknown field ${typo} in objects and apply steps (kubectl's strict field validation)`, () => {
      const set = SET.replace('replicas: 3', `replicas: 3\n      ${field}`);
      assert.deepEqual(issuesOf(`kind: Scenario\nobjects:${set}`), [`objects[0].${typo}: unknown field "${typo}"`]);
      const applied = set.trim().replace(/^- /, '').split('\n').map((l) => `      ${l.replace(/^ {4}/, '')}`).join('\n');
      assert.deepEqual(issuesOf(`kind: Scenario\nsteps:\n  - apply:\n${applied}\n`), [`steps[0].apply.${typo}: unknown field "${typo}"`]);
    });
  }

  it('refuses an unknown field in a StatefulSet patch.merge', () => {
    const issues = issuesOf(`kind: Scenario\nobjects:${SET}steps:\n  - patch: {kind: StatefulSet, name: web, merge: {spec: {updateStrategy: {rollingUpdate: {maxUnavailble: 2}}}}}\n`);
    assert.deepEqual(issues, ['steps[0].patch.merge.spec.updateStrategy.rollingUpdate.maxUnavailble: unknown field "spec.updateStrategy.rollingUpdate.maxUnavailble"']);
  });

  it('refuses an unknown field in a pod template, in objects and patch.merge (Kubernetes 1.37\'s PodTemplateSpec)', () => {
    const set = SET.replace('{name: nginx, image: "nginx:1"}', '{name: nginx, image: "nginx:1", imagePullPolicyy: Always}');
    const field = 'spec.template.spec.containers[0].imagePullPolicyy';
    assert.deepEqual(issuesOf(`kind: Scenario\nobjects:${set}`), [`objects[0].${field}: unknown field "${field}"`]);
    const patch = '  - patch: {kind: StatefulSet, name: web, merge: {spec: {template: {spec: {containers: [{name: nginx, imagePullPolicyy: Always}]}}}}}\n';
    assert.deepEqual(issuesOf(`kind: Scenario\nobjects:${SET}steps:\n${patch}`), [`steps[0].patch.merge.${field}: unknown field "${field}"`]);
  });

  it('refuses an unknown field of a StorageClass in objects and patch.merge', () => {
    const cls = '  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: fast}, provisioner: x, allowVolumeExpension: true}\n';
    assert.deepEqual(issuesOf(`kind: Scenario\nobjects:\n${cls}`), ['objects[0].allowVolumeExpension: unknown field "allowVolumeExpension"']);
    const ok = cls.replace('allowVolumeExpension', 'allowVolumeExpansion');
    const patch = '  - patch: {kind: StorageClass, name: fast, merge: {allowVolumeExpension: false}}\n';
    assert.deepEqual(issuesOf(`kind: Scenario\nobjects:\n${ok}steps:\n${patch}`), ['steps[0].patch.merge.allowVolumeExpension: unknown field "allowVolumeExpension"']);
  });

  it('takes a PodDisruptionBudget (policy/v1, the default apiVersion of its kind in steps) and refuses its unknown fields', () => {
    const pdb = '  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: db}, spec: {minAvailible: 4, selector: {matchLabels: {app: db}}}}\n';
    assert.deepEqual(issuesOf(`kind: Scenario\nobjects:\n${pdb}`), ['objects[0].spec.minAvailible: unknown field "spec.minAvailible"']);
    const ok = pdb.replace('minAvailible', 'minAvailable');
    const parsed = parseScenario(`kind: Scenario\nobjects:\n${ok}steps:\n  - patch: {kind: PodDisruptionBudget, name: db, merge: {spec: {minAvailable: 3}}}\n`);
    assert.deepEqual(parsed.objects.map((o) => `${o.resource.group}/${o.resource.plural}`), ['policy/poddisruptionbudgets']);
  });

  it('refuses hostile YAML in one line with the file and position', () => {
    const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`)].join('\n');
    for (const [text, message] of [
      [`kind: Scenario\nname: x\n${bomb}\n`, 'test.yaml:9:10: aliases expand to more than 1000000 nodes'],
      [`kind: Scenario\nname: ${'['.repeat(1000)}${']'.repeat(1000)}\n`, 'test.yaml:2:106: nesting is deeper than 100 levels'],
      ['kind: Scenario\nseed: 1\nseed: 2\n', 'test.yaml:3:1: key "seed" already set in map'],
    ]) {
      assert.throws(() => parseScenario(text!, 'test.yaml'), (e: unknown) => e instanceof ScenarioError && e.message === message);
    }
  });

  it('accepts YAML merge keys', () => {
    const s = parseScenario(`kind: Scenario\nobjects:${SET.replace('matchLabels: {app: web}', 'matchLabels: {<<: {app: web}}')}`);
    assert.equal(s.objects.length, 1);
  });

  it('rejects unsupported kinds and objects without a name', () => {
    const issues = issuesOf(`kind: Scenario\nobjects:\n  - {apiVersion: v1, kind: Secret, metadata: {name: s}}\n  - {apiVersion: v1, kind: Service, metadata: {}}\n`);
    assert.equal(issues.length, 2);
    assert.match(issues[0]!, /^objects\[0\]\.kind: unsupported apiVersion\/kind v1 Secret/);
    assert.equal(issues[1], 'objects[1].metadata.name: required');
  });

  it('rejects a top-level list and unknown top-level fields', () => {
    assert.deepEqual(issuesOf('- a'), [': must be an object, got a list']);
    assert.deepEqual(issuesOf('kind: Scenario\nstep: []'), [
      'step: unknown field (allowed: kind, name, seed, endSeconds, cluster, faults, controller, objects, steps)',
    ]);
  });
});
