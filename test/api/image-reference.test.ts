// Image references compared as a container runtime reports them (a kubelet may say docker.io/library/nginx:latest
// for a spec's nginx): the controller relabels a pod updated in place only once its containers report its images.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizedImage, sameImage } from '../../src/api/image-reference.js';

describe('image references', () => {
  for (const [ref, normal] of [
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['bitnami/postgresql:17', 'docker.io/bitnami/postgresql:17'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    ['localhost/app', 'localhost/app:latest'],
    ['registry.example.com:5000/team/app', 'registry.example.com:5000/team/app:latest'],
    ['nginx@sha256:0123abcd', 'docker.io/library/nginx@sha256:0123abcd'],
  ] as const) {
    it(`normalises ${ref} to ${normal}`, () => assert.equal(normalizedImage(ref), normal));
  }

  it('matches a reported image to its spec by the normalised name, and tells different tags apart', () => {
    assert.equal(sameImage('docker.io/library/nginx:1.27', 'nginx:1.27'), true);
    assert.equal(sameImage('docker.io/library/nginx:1.27', 'nginx:1.28'), false);
    assert.equal(sameImage(undefined, 'nginx'), false);
  });
});
