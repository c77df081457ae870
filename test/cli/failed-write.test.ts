// `why`'s last failed write: the newest recent FailedCreate/FailedUpdate/FailedDelete Warning of the set itself.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lastFailedWrite, readFailedWrite } from '../../src/cli/explain/failed-write.js';
import { ApiError } from '../../src/api/errors.js';
import type { ClusterClient } from '../../src/api/client.js';
import { toTimestamp, type KubeEvent, type StatefulSet } from '../../src/api/types.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const set = { metadata: { name: 'db', namespace: 'default', uid: 'u1' }, spec: {} } as unknown as StatefulSet;

function event(reason: string, secondsAgo: number, more: { type?: 'Normal' | 'Warning'; name?: string; uid?: string; count?: number } = {}): KubeEvent {
  return {
    metadata: { name: `${reason}-${secondsAgo}` },
    involvedObject: { kind: 'StatefulSet', name: more.name ?? 'db', uid: more.uid ?? 'u1' },
    type: more.type ?? 'Warning',
    reason,
    message: `${reason} ${secondsAgo}`,
    count: more.count ?? 1,
    lastTimestamp: toTimestamp(NOW - secondsAgo * 1000),
  };
}

describe('lastFailedWrite', () => {
  it('picks the newest failed write of the set within ten minutes', () => {
    const events = [event('FailedUpdate', 30, { count: 4 }), event('FailedCreate', 5), event('FailedDelete', 700)];
    assert.deepEqual(lastFailedWrite(events, set, NOW), { reason: 'FailedCreate', message: 'FailedCreate 5', at: NOW - 5000, count: 1 });
  });

  it('ignores other sets (by name or uid), Normal events, other reasons and old failures', () => {
    const events = [
      event('FailedUpdate', 1, { name: 'web' }),
      event('FailedUpdate', 1, { uid: 'an-older-db' }),
      event('FailedUpdate', 1, { type: 'Normal' }),
      event('SafetyHalt', 1),
      event('FailedUpdate', 601),
    ];
    assert.equal(lastFailedWrite(events, set, NOW), undefined);
  });

  it('reads nothing when listing Events is forbidden, and passes any other error on', async () => {
    const failing = (e: Error) => ({ list: () => Promise.reject(e) }) as unknown as ClusterClient;
    assert.equal(await readFailedWrite(failing(new ApiError('events is forbidden', 403, 'Forbidden')), set, NOW), undefined);
    await assert.rejects(readFailedWrite(failing(new ApiError('boom', 500, 'InternalError')), set, NOW), /boom/);
  });
});
