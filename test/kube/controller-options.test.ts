import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatures } from '../../src/api/features.js';
import { parseBindAddress, parseControllerFlags, parseDuration, UsageError, type OptionsEnv } from '../../src/cli/controller/controller-options.js';
import { formatTextLine } from '../../src/cli/controller/pino-logger.js';

const env: OptionsEnv = { fileExists: (p) => p === '/ok/kubeconfig' };

describe('ordinal controller flags', () => {
  it('defaults to the CRD target, all namespaces, 5 syncs, 20 qps/30 burst, metrics :8080, probes :8081, JSON logs', () => {
    const c = parseControllerFlags({}, env);
    assert.equal(c.target, 'crd');
    assert.equal(c.namespaces, undefined);
    assert.equal(c.concurrentSyncs, 5);
    assert.deepEqual([c.qps, c.burst], [20, 30]);
    assert.deepEqual(c.metrics, { port: 8080 });
    assert.deepEqual(c.health, { port: 8081 });
    assert.equal(c.logFormat, 'json');
    assert.equal(c.leaderElection, undefined);
    assert.deepEqual(c.features, defaultFeatures());
    assert.equal(c.gracefulShutdownTimeoutMs, 25_000);
  });

  it('collects repeated --namespace values without duplicates', () => {
    assert.deepEqual(parseControllerFlags({ namespace: ['a', 'b', 'a'] }, env).namespaces, ['a', 'b']);
  });

  it('takes the Lease namespace from the flag, then $POD_NAMESPACE, then the service account file', () => {
    assert.deepEqual(parseControllerFlags({ leaderElect: true, leaderElectNamespace: 'x' }, { ...env, podNamespace: 'y' }).leaderElection, {
      namespace: 'x',
      id: 'ordinal-controller',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    assert.equal(parseControllerFlags({ leaderElect: true }, { ...env, podNamespace: 'y' }).leaderElection?.namespace, 'y');
    assert.equal(parseControllerFlags({ leaderElect: true }, { ...env, serviceAccountNamespace: 'z\n' }).leaderElection?.namespace, 'z');
    assert.equal(parseControllerFlags({ leaderElect: true }, env).leaderElection?.namespace, 'default');
  });

  it('takes the lease timings from kube-controller-manager\'s flags and refuses what client-go refuses', () => {
    const le = parseControllerFlags({ leaderElect: true, leaderElectLeaseDuration: '6s', leaderElectRenewDeadline: '4s', leaderElectRetryPeriod: '1s' }, env).leaderElection;
    assert.deepEqual([le?.leaseDurationMs, le?.renewDeadlineMs, le?.retryPeriodMs], [6_000, 4_000, 1_000]);
    const refused = (flags: Parameters<typeof parseControllerFlags>[0]) => () => parseControllerFlags({ leaderElect: true, ...flags }, env);
    assert.throws(refused({ leaderElectLeaseDuration: '10s' }), /--leader-elect-lease-duration: leaseDuration must be greater than renewDeadline/);
    assert.throws(refused({ leaderElectRenewDeadline: '2400ms' }), /--leader-elect-renew-deadline: renewDeadline must be greater than retryPeriod\*JitterFactor/);
    assert.throws(refused({ leaderElectRetryPeriod: 'soon' }), /--leader-elect-retry-period=soon: want a duration/);
  });

  it('applies --feature-gates on top of the defaults', () => {
    const c = parseControllerFlags({ featureGates: 'StatefulSetRecreateStrategy=false' }, env);
    assert.equal(c.features.StatefulSetRecreateStrategy, false);
    assert.equal(c.features.MaxUnavailableStatefulSet, true);
  });

  it('disables an endpoint with 0 and accepts host:port and [ipv6]:port', () => {
    assert.equal(parseControllerFlags({ metricsBindAddress: '0' }, env).metrics, undefined);
    assert.deepEqual(parseBindAddress('x', '127.0.0.1:9090'), { host: '127.0.0.1', port: 9090 });
    assert.deepEqual(parseBindAddress('x', '[::1]:9090'), { host: '::1', port: 9090 });
  });

  it('parses Go-style durations', () => {
    assert.equal(parseDuration('d', '1m30s'), 90_000);
    assert.equal(parseDuration('d', '500ms'), 500);
    assert.throws(() => parseDuration('d', '10'), UsageError);
  });

  const bad: [string, Parameters<typeof parseControllerFlags>[0], RegExp][] = [
    ['an unknown target', { target: 'pods' }, /--target=pods: must be one of crd, native, both/],
    ['an invalid namespace', { namespace: ['Bad_NS'] }, /--namespace=Bad_NS: a lowercase RFC 1123 label/],
    ['a missing kubeconfig file', { kubeconfig: '/nope' }, /--kubeconfig=\/nope: no such file/],
    ['an unknown feature gate', { featureGates: 'Nope=true' }, /--feature-gates: unrecognized feature gate: Nope/],
    ['a locked feature gate turned off', { featureGates: 'PodIndexLabel=false' }, /locked to true/],
    ['zero concurrent syncs', { concurrentSyncs: '0' }, /--concurrent-syncs=0: must be a positive integer/],
    ['a non-numeric qps', { kubeApiQps: 'fast' }, /--kube-api-qps=fast: must be a positive number/],
    ['a fractional burst', { kubeApiBurst: '1.5' }, /--kube-api-burst=1.5: must be a positive integer/],
    ['a bind address without a port', { metricsBindAddress: 'localhost' }, /--metrics-bind-address=localhost: want \[host\]:port/],
    ['a port out of range', { healthProbeBindAddress: ':70000' }, /--health-probe-bind-address=:70000/],
    ['metrics and probes on one port', { metricsBindAddress: ':9000', healthProbeBindAddress: ':9000' }, /both use port 9000/],
    ['an unknown log format', { logFormat: 'xml' }, /--log-format=xml: must be one of json, text/],
    ['an invalid Lease name', { leaderElect: true, leaderElectId: 'Not A Name' }, /--leader-elect-id=Not A Name/],
  ];
  for (const [what, flags, message] of bad) {
    it(`rejects ${what} with a message naming the flag`, () => {
      assert.throws(() => parseControllerFlags(flags, env), (e: unknown) => e instanceof UsageError && message.test(e.message));
    });
  }
});

describe('text log format', () => {
  it('renders time, level, message and the remaining fields as key=value', () => {
    const line = formatTextLine(JSON.stringify({ level: 40, time: '2026-01-02T03:04:05.000Z', pid: 1, hostname: 'h', msg: 'restarting watch', path: '/api/v1/pods', why: 'no event for 300000 ms' }));
    assert.equal(line, '2026-01-02T03:04:05.000Z WARN  restarting watch path=/api/v1/pods why="no event for 300000 ms"\n');
  });
});
