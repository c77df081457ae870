// The install commands test/e2e/docs-commands.test.ts runs on kube-apiserver are read from the docs; this
// checks, without a control plane, that the reading finds them in every file that has an install section,
// that NOT_RUN (the lines not run, with the reason) names only lines the docs still have, and that every
// `kubectl apply` of the manifests begins with the Namespace (kubectl applies -f files in order).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { installLines, installScripts, NOT_RUN, withoutComment } from '../e2e/doc-commands.js';

describe('the docs’ install commands', () => {
  it('are found in every install section, and NOT_RUN names only lines the docs still have', () => {
    const lines = installLines();
    for (const file of ['README.md', 'docs/user-guide.md', 'deploy/README.md']) assert.ok(lines.some((l) => l.file === file), `${file} has install commands`);
    assert.ok(installScripts().scripts.length >= 5, 'several installs from nothing (plain manifests, Helm, ordinal manifests)');
    const stale = Object.keys(NOT_RUN).filter((key) => !lines.some((l) => withoutComment(l.line) === key));
    assert.deepEqual(stale, [], 'every NOT_RUN entry is a line of the docs');
  });

  it('apply the Namespace before anything that lives in it', () => {
    const applies = installLines().filter((l) => /^kubectl apply (-f deploy\/\S+ ?)+/.test(l.line) && l.line.includes('deploy/deployment.yaml'));
    assert.ok(applies.length >= 3, 'README, the user guide and deploy/README apply the manifests');
    for (const { file, line } of applies) assert.match(line, /^kubectl apply -f deploy\/namespace\.yaml /, file);
  });
});
