// src/api/schema/k8s-openapi.ts is generated from Kubernetes' own OpenAPI (scripts/k8s-openapi.ts): the
// trimming keeps a structural schema's shape only, and the checked-in data is what the generator makes of
// Kubernetes' api/openapi-spec/v3 (read from the Go module cache, where the control plane's build puts it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generate, OUTPUT, openApiDir, trimDefinitions } from '../../scripts/k8s-openapi.js';
import { KUBERNETES_VERSION } from '../../src/api/schema/k8s-definition.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('npm run k8s-openapi', () => {
  it('keeps what a structural schema needs, follows references, and leaves out the types built by hand', () => {
    const schemas = {
      'x.Pod': {
        description: 'dropped',
        type: 'object',
        required: ['spec'],
        properties: {
          spec: { allOf: [ref('x.Spec')], default: {}, description: 'dropped' },
          metadata: { allOf: [ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')] },
        },
      },
      'x.Spec': {
        type: 'object',
        properties: {
          size: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'),
          ports: { type: 'array', items: ref('x.Port'), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'] },
          labels: { type: 'object', additionalProperties: { type: 'string', default: '' } },
        },
      },
      'x.Port': { type: 'object', properties: { port: { type: 'integer', format: 'int32' }, protocol: { type: 'string', default: 'TCP' } } },
    };
    assert.deepEqual(trimDefinitions(schemas, ['x.Pod']), {
      'x.Pod': { type: 'object', required: ['spec'], properties: { metadata: { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }, spec: { ref: 'x.Spec' } } },
      'x.Spec': {
        type: 'object',
        properties: { labels: { type: 'object', additionalProperties: { type: 'string' } }, ports: { type: 'array', items: { ref: 'x.Port' } }, size: { ref: 'io.k8s.apimachinery.pkg.api.resource.Quantity' } },
      },
      'x.Port': { type: 'object', properties: { port: { type: 'integer', format: 'int32' }, protocol: { type: 'string' } } },
    });
  });

  it(`checked in: what it generates from Kubernetes ${KUBERNETES_VERSION}'s OpenAPI`, (t) => {
    let dir: string;
    try {
      dir = openApiDir({ ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' });
    } catch (e) {
      if (process.env.CI) throw e;
      return t.skip(`k8s.io/kubernetes@${KUBERNETES_VERSION} is not in the Go module cache (scripts/control-plane/build.sh puts it there)`);
    }
    assert.equal(readFileSync(OUTPUT, 'utf8'), generate(dir), 'regenerate: npm run k8s-openapi');
  });
});
