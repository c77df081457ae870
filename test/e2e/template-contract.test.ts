// The contract table of pod templates (test/deploy/template-cases.ts) on a real kube-apiserver, in one pass
// of server-side dry-run creates: each template as an apps/v1 StatefulSet and as an apps.ordinal.dev/v1 one
// (deploy/crd.yaml's CRD), beside `ordinal validate`'s verdict. An invalid template is refused by all three at
// the same field path (apps/v1 refuses a quantity that does not parse while decoding, with no path); a valid
// one is accepted by all three. Dry-run runs the same validation as a create: checked by creating one invalid
// and one valid template for real.
import { after, before, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Resources, type Resource } from '../../src/api/client.js';
import { ApiError, InvalidError } from '../../src/api/errors.js';
import { defaultFeatures } from '../../src/api/features.js';
import { validateObject } from '../../src/cli/commands/validate.js';
import type { KubeClient } from '../../src/cluster/kube/index.js';
import { INVALID_TEMPLATES, templateCaseSet, VALID_TEMPLATES, type TemplateCase } from '../deploy/template-cases.js';
import { createNamespace, deleteNamespace, ensureCrd, openSession } from './cluster-session.js';
import { controlPlaneFromEnv } from './control-plane.js';

interface Answer {
  refused: boolean;
  code?: number;
  paths: string[];
  message: string;
}

interface Verdicts {
  appsV1: Answer;
  crd: Answer;
  validate: Answer;
}

const CASES = [...VALID_TEMPLATES, ...INVALID_TEMPLATES];
const features = defaultFeatures();

async function answer(client: KubeClient, res: Resource, set: object, dryRun = true): Promise<Answer> {
  try {
    await client.create(res, set as never, { dryRun });
    return { refused: false, paths: [], message: '' };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const paths = e instanceof InvalidError ? e.issues.map((i) => i.path) : [];
    return { refused: true, code: e.code, paths, message: e.message };
  }
}

function validateAnswer(set: object): Answer {
  const r = validateObject('contract.yaml', { where: 'document 1', value: set }, features);
  return { refused: r.outcome !== 'valid', paths: r.issues.map((i) => i.path), message: r.message ?? '' };
}

let client: KubeClient | undefined;
let ns = '';
let verdicts: Map<TemplateCase, Verdicts> | undefined;
let passSeconds = 0;

before(async () => {
  const cp = controlPlaneFromEnv();
  if (!('kubeconfigPath' in cp)) return;
  client = openSession(cp).client;
  await ensureCrd(client);
  ns = await createNamespace(client, 'template-contract');
  const start = performance.now();
  const results = await Promise.all(
    CASES.map(async (c, i): Promise<[TemplateCase, Verdicts]> => {
      const set = templateCaseSet(c, ns, `t${i}`);
      const apps = { ...set, apiVersion: 'apps/v1' };
      const [appsV1, crd] = await Promise.all([answer(client!, Resources.statefulSets, apps), answer(client!, Resources.ordinalStatefulSets, set)]);
      return [c, { appsV1, crd, validate: validateAnswer(set) }];
    }),
  );
  passSeconds = (performance.now() - start) / 1000;
  verdicts = new Map(results);
});

after(async () => {
  if (client && ns) await deleteNamespace(client, ns);
});

function verdictsOf(t: TestContext, c: TemplateCase): Verdicts | undefined {
  if (verdicts === undefined) {
    if (process.env.CI) throw new Error('no control plane (ORDINAL_E2E_KUBECONFIG) under CI');
    t.skip('no control plane (scripts/control-plane/up.sh starts one)');
    return undefined;
  }
  return verdicts.get(c);
}

const show = (a: Answer): string => (a.refused ? `refused (${a.code ?? 422}): ${a.message}` : 'accepted');

describe('pod templates on kube-apiserver 1.37: apps/v1, the CRD and ordinal validate agree', () => {
  for (const c of VALID_TEMPLATES) {
    it(`all three accept ${c.desc}`, (t) => {
      const v = verdictsOf(t, c);
      if (!v) return;
      for (const [who, a] of Object.entries(v)) assert.equal(a.refused, false, `${who}: ${show(a)}`);
    });
  }
  for (const c of INVALID_TEMPLATES) {
    it(`all three refuse ${c.desc} at ${c.path}`, (t) => {
      const v = verdictsOf(t, c);
      if (!v) return;
      if (c.decodedBy) {
        assert.equal(v.appsV1.code, 400, `apps/v1 refuses it while decoding: ${show(v.appsV1)}`);
        assert.ok(v.appsV1.message.includes(c.decodedBy), `apps/v1: ${show(v.appsV1)}`);
      } else {
        assert.ok(v.appsV1.paths.includes(c.path!), `apps/v1 names ${c.path}: ${show(v.appsV1)}`);
      }
      const crdPath = c.crdPath ?? c.path!;
      assert.ok(v.crd.refused && v.crd.code === 422, `the CRD refuses it: ${show(v.crd)}`);
      assert.ok(!v.crd.message.includes('Checked value must be of type'), `the CRD reports a value out of its type's range at the field: ${show(v.crd)}`);
      assert.ok(v.crd.paths.includes(crdPath), `the CRD names ${crdPath}: ${show(v.crd)}`);
      assert.ok(v.validate.paths.includes(c.path!), `ordinal validate names ${c.path}: ${show(v.validate)}`);
    });
  }

  it('took one dry-run pass of a few seconds, whose verdicts a real create repeats', async (t) => {
    const c = INVALID_TEMPLATES[0]!;
    const v = verdictsOf(t, c);
    if (!v || !client) return;
    t.diagnostic(`${CASES.length * 2} dry-run creates in ${passSeconds.toFixed(2)} s`);
    const samePath = INVALID_TEMPLATES.filter((x) => [verdicts!.get(x)!.appsV1, verdicts!.get(x)!.crd, verdicts!.get(x)!.validate].every((a) => a.paths.includes(x.path!)));
    t.diagnostic(`${samePath.length} of ${INVALID_TEMPLATES.length} invalid templates refused by apps/v1, the CRD and ordinal validate as a field error at the same path`);
    const real = await answer(client, Resources.ordinalStatefulSets, templateCaseSet(c, ns, 'real-invalid'), false);
    assert.deepEqual(real.paths, v.crd.paths, `a real create refuses as the dry-run did: ${show(real)}`);
    const valid = await answer(client, Resources.ordinalStatefulSets, templateCaseSet(VALID_TEMPLATES[1]!, ns, 'real-valid'), false);
    assert.equal(valid.refused, false, show(valid));
    const stored = await client.get(Resources.ordinalStatefulSets, ns, 'real-valid');
    assert.equal(stored.metadata.name, 'real-valid');
  });
});
