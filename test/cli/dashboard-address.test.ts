// Where `dashboard` listens: HOST:PORT parsed strictly, loopback by default, any other address refused unless
// --allow-remote (and then a warning), and the Host headers a request may carry.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { allowedHosts, DEFAULT_ADDRESS, isLoopback, parseListenAddress, remoteRefusal, remoteWarning } from '../../src/cli/dashboard/listen-address.js';

describe('dashboard --address', () => {
  it('parses HOST:PORT, [IPv6]:PORT and port 0; the default is loopback', () => {
    assert.deepEqual(parseListenAddress(DEFAULT_ADDRESS), { host: '127.0.0.1', port: 8290 });
    assert.deepEqual(parseListenAddress('localhost:0'), { host: 'localhost', port: 0 });
    assert.deepEqual(parseListenAddress('[::1]:9000'), { host: '::1', port: 9000 });
    assert.deepEqual(parseListenAddress('0.0.0.0:80'), { host: '0.0.0.0', port: 80 });
  });

  it('refuses what is not HOST:PORT, with the form it wants', () => {
    assert.throws(() => parseListenAddress('8290'), /--address 8290: want HOST:PORT, e\.g\. 127\.0\.0\.1:8290/);
    assert.throws(() => parseListenAddress('127.0.0.1:'), /want HOST:PORT/);
    assert.throws(() => parseListenAddress('127.0.0.1:70000'), /port 70000 is above 65535/);
    assert.throws(() => parseListenAddress('[nope]:1'), /nope is not an IPv6 address/);
    assert.throws(() => parseListenAddress('::1:80'), /want HOST:PORT/);
  });

  it('tells loopback from the rest', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.ok(isLoopback(h), h);
    for (const h of ['0.0.0.0', '::', '192.168.1.4', '10.0.0.1', 'example.org', '127.example.org']) assert.ok(!isLoopback(h), h);
  });

  it('refuses a non-loopback address without --allow-remote, and warns with it', () => {
    const any = parseListenAddress('0.0.0.0:8290');
    assert.match(remoteRefusal(any, false) ?? '', /^--address 0\.0\.0\.0:8290 is not a loopback address: anyone who can reach it could act with your kubeconfig's credentials; pass --allow-remote/);
    assert.equal(remoteRefusal(any, true), undefined);
    assert.equal(remoteRefusal(parseListenAddress(DEFAULT_ADDRESS), false), undefined);
    assert.match(remoteWarning(any, 'prod') ?? '', /^warning: serving on 0\.0\.0\.0:8290, which is not loopback: .* with the credentials of context prod$/);
    assert.equal(remoteWarning(parseListenAddress('[::1]:1'), 'prod'), undefined);
  });

  it('accepts only its own Host on loopback (no DNS rebinding), any Host elsewhere', () => {
    assert.deepEqual([...(allowedHosts(parseListenAddress('127.0.0.1:0'), 4321) ?? [])].sort(), ['127.0.0.1:4321', '[::1]:4321', 'localhost:4321']);
    assert.equal(allowedHosts(parseListenAddress('0.0.0.0:0'), 4321), undefined);
  });
});
