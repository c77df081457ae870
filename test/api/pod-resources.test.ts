// A pod's QoS class and requests as kube-apiserver and the scheduler read them (pods/resize keeps the class and
// must fit the node's allocatable), and quantities scaled as upstream's ScaledValue rounds them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { podQOSClass, podRequests } from '../../src/api/pod-resources.js';
import type { Container, PodSpec } from '../../src/api/types.js';
import { scaledQuantity } from '../../src/api/validation/quantity.js';

const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>, extra: Partial<Container> = {}): Container => ({
  name,
  image: 'app:1',
  ...(requests || limits ? { resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } } : {}),
  ...extra,
});
const spec = (containers: Container[], initContainers?: Container[]): PodSpec => ({ containers, ...(initContainers ? { initContainers } : {}) });
const both = { cpu: '500m', memory: '1Gi' };

describe('podQOSClass', () => {
  for (const [desc, s, want] of [
    ['no requests or limits anywhere', spec([c('a'), c('b')]), 'BestEffort'],
    ['every container with equal non-zero cpu and memory requests and limits', spec([c('a', both, both), c('b', undefined, both)]), 'Guaranteed'],
    ['a limit without a request (the request defaults to it)', spec([c('a', undefined, { cpu: '1', memory: '1Gi' })]), 'Guaranteed'],
    ['equal quantities written differently', spec([c('a', { cpu: '0.5', memory: '1024Mi' }, both)]), 'Guaranteed'],
    ['a request below its limit', spec([c('a', { cpu: '250m', memory: '1Gi' }, both)]), 'Burstable'],
    ['memory only', spec([c('a', { memory: '1Gi' }, { memory: '1Gi' })]), 'Burstable'],
    ['one Guaranteed container beside a BestEffort one', spec([c('a', both, both), c('b')]), 'Burstable'],
    ['an init container without resources beside Guaranteed containers', spec([c('a', both, both)], [c('init')]), 'Burstable'],
  ] as const) {
    it(`is ${want} for ${desc}`, () => assert.equal(podQOSClass(s), want));
  }
});

describe('podRequests', () => {
  it('sums the containers and sidecars, and takes a larger plain init container instead', () => {
    const sidecar = c('proxy', { cpu: '100m', memory: '64Mi' }, undefined, { restartPolicy: 'Always' } as Partial<Container>);
    const init = c('migrate', { cpu: '2', memory: '128Mi' });
    assert.deepEqual(podRequests(spec([c('a', { cpu: '500m', memory: '1Gi' }), c('b', undefined, { cpu: '250m' })], [sidecar, init])), { cpuMilli: 2000, memoryBytes: 1024 ** 3 + 64 * 1024 ** 2 });
  });
});

describe('scaledQuantity', () => {
  it('rounds up to the unit asked for, as ScaledValue does', () => {
    assert.deepEqual([scaledQuantity('1.5', -3), scaledQuantity('100m', 0), scaledQuantity('1Ki', 0), scaledQuantity('1.1', 0), scaledQuantity('x', 0)], [1500, 1, 1024, 2, undefined]);
  });
});
