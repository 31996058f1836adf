/**
 * Destructive calls need the typed confirmation in their input, checked by the router in the
 * main process (issue #16): operator mode alone is not enough. Without it, or with the wrong
 * phrase, the call is refused typed and changes nothing; with it, the call goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRMED_PROCEDURES } from '../../src/shared/contract/confirmations';
import { makeTestApp, type TestApp } from '../support/app-services';
import { failureOf } from '../support/typed-failure';

const PREFIX = 'wal/nodes/0/generations/0';
const TOPIC_ID = '3f1c9a52-6b0d-4b8e-9f3a-2d7c1e5a8b40';

/** Each destructive call, its input, and the phrase its dialog asks the user to type. */
const DESTRUCTIVE: ReadonlyArray<[string, Record<string, unknown>, string]> = [
  ['wal.obsolete', { prefix: PREFIX, region: '1:1', id: 1n }, '1:1'],
  ['wal.obsoleteAll', { prefix: PREFIX, region: '1:2' }, '1:2'],
  ['wal.obsolete.request', { prefix: PREFIX, region: '1:3', id: 1n }, '1:3'],
  [
    'wal.obsolete.bulk',
    { prefix: PREFIX, regions: [{ region: '1:1' }, { region: '1:2' }] },
    'obsolete 2 regions',
  ],
  ['wal.obsolete.bulk', { prefix: PREFIX, regions: 'all' }, 'obsolete all regions'],
  ['wal.namespaces.delete', { prefix: PREFIX, region: String((7n << 32n) | 1n) }, '7:1'],
  ['wal.gc', { prefix: PREFIX }, PREFIX],
  ['wal.writer.open', { prefix: PREFIX, takeOver: true }, PREFIX],
  ['namespaces.deprecate', { name: 'orders' }, 'orders'],
  ['namespaces.takeOwnership', { shard: 3 }, 'shard 03'],
  [
    'segments.deletePartition',
    { topicId: TOPIC_ID, partition: 2, topic: 'payments', state: 'DELETE_PARTITION_MARKED' },
    'payments-2',
  ],
  [
    'segments.deletePartition',
    { topicId: TOPIC_ID, partition: 2, state: 'DELETE_PARTITION_MARKED' },
    `${TOPIC_ID}-2`,
  ],
];

let app: TestApp;
beforeAll(async () => {
  app = await makeTestApp();
  await app.services.connections.setOperator('embedded', true);
});
afterAll(async () => {
  await app.services.wal.closeAll();
  await app.dispose();
});

function call(name: string, input: Record<string, unknown>): Promise<unknown> {
  return app.router.call(name, { connectionId: 'embedded', ...input });
}

describe('typed confirmations at the API', () => {
  it('covers every destructive procedure of the issue', () => {
    expect(new Set(CONFIRMED_PROCEDURES)).toEqual(new Set(DESTRUCTIVE.map(([name]) => name)));
  });

  it.each(DESTRUCTIVE)('refuses %s without the phrase, typed', async (name, input, phrase) => {
    for (const confirm of [undefined, '', `${phrase} `, phrase.toUpperCase() + 'x']) {
      const failure = await failureOf(call(name, { ...input, confirm }));
      expect(failure).toMatchObject({
        code: 'ConfirmationRequired',
        details: { procedure: name, expected: phrase },
      });
    }
  });

  it.each(DESTRUCTIVE)('lets %s through with the phrase', async (name, input, phrase) => {
    // The call may still fail for its own reasons (no writer open); never for the confirmation.
    const outcome = await call(name, { ...input, confirm: phrase }).then(
      () => 'ok',
      (error: unknown) => (error as { code?: string }).code,
    );
    expect(outcome).not.toBe('ConfirmationRequired');
  });

  it('opens a writer without a phrase when it does not take over', async () => {
    await call('wal.writer.open', { prefix: 'wal/nodes/9/generations/0' });
    await app.services.wal.closeAll();
  });

  it('records nothing in the activity log for a refused confirmation', async () => {
    const before = (await app.services.audit.recent(100)).length;
    await failureOf(call('wal.gc', { prefix: PREFIX }));
    expect((await app.services.audit.recent(100)).length).toBe(before);
  });
});
