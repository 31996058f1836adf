/**
 * The segment procedures through the real router and service stack: read-only refusal,
 * input validation, audit and events. Needs the segment procedures wired into the contract,
 * the router and the services.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/contract';
import { makeTestApp, type TestApp } from '../support/app-services';
import { SEGMENT_A, TOPIC_ID, addInput, failureOf } from './support';

let app: TestApp;
let events: ApiEvent[];
beforeEach(async () => {
  app = await makeTestApp();
  events = [];
  app.services.events.subscribe((event) => events.push(event));
});
afterEach(() => app.dispose());

const ref = { connectionId: 'embedded', topicId: TOPIC_ID, partition: 0 };
const add = () => app.router.call('segments.add', { connectionId: 'embedded', ...addInput() });

describe('segment procedures through the router', () => {
  it('refuses every mutation on a read-only connection and publishes nothing', async () => {
    expect(await failureOf(add())).toMatchObject({
      code: 'ReadOnly',
      details: { connectionId: 'embedded', action: 'segments.add' },
    });
    expect(
      (
        await failureOf(
          app.router.call('segments.update', {
            ...ref,
            segmentId: SEGMENT_A,
            state: 'COPY_SEGMENT_FINISHED',
          }),
        )
      ).code,
    ).toBe('ReadOnly');
    expect(
      (
        await failureOf(
          app.router.call('segments.deletePartition', { ...ref, state: 'DELETE_PARTITION_MARKED' }),
        )
      ).code,
    ).toBe('ReadOnly');
    expect(await app.router.call('segments.partitions', { connectionId: 'embedded' })).toEqual([]);
    expect(events.filter((event) => event.type === 'segments.changed')).toEqual([]);
  });

  it('in operator mode publishes, audits and announces each change', async () => {
    await app.services.connections.setOperator('embedded', true);
    await add();
    await app.router.call('segments.update', {
      ...ref,
      segmentId: SEGMENT_A,
      state: 'COPY_SEGMENT_FINISHED',
    });
    const found = (await app.router.call('segments.find', { ...ref, epoch: 1, offset: 75 })) as {
      segmentId: string;
    } | null;
    expect(found?.segmentId).toBe(SEGMENT_A);
    expect(await app.router.call('segments.highest', { ...ref, epoch: 1 })).toBe(99);
    expect(events.filter((event) => event.type === 'segments.changed')).toEqual([
      { type: 'segments.changed', connectionId: 'embedded', topicId: TOPIC_ID, partition: 0 },
      { type: 'segments.changed', connectionId: 'embedded', topicId: TOPIC_ID, partition: 0 },
    ]);
    const audit = await app.services.audit.recent(10);
    expect(audit.slice(0, 2).map((entry) => [entry.action, entry.result])).toEqual([
      ['segments.update', 'ok'],
      ['segments.add', 'ok'],
    ]);
  });

  it('audits a refused transition as an error with its typed code', async () => {
    await app.services.connections.setOperator('embedded', true);
    await add();
    const refused = await failureOf(
      app.router.call('segments.update', {
        ...ref,
        segmentId: SEGMENT_A,
        state: 'DELETE_SEGMENT_FINISHED',
      }),
    );
    expect(refused.code).toBe('InvalidSegmentTransition');
    const [latest] = await app.services.audit.recent(1);
    expect(latest).toMatchObject({
      action: 'segments.update',
      result: 'error',
      error: expect.stringContaining('InvalidSegmentTransition'),
    });
  });

  it('refuses bad input before any handler runs, naming the field', async () => {
    await app.services.connections.setOperator('embedded', true);
    const bad = await failureOf(
      app.router.call('segments.add', {
        connectionId: 'embedded',
        ...addInput({ segmentLeaderEpochs: [] }),
      }),
    );
    expect(bad).toMatchObject({ code: 'InvalidInput', details: { field: 'segmentLeaderEpochs' } });
    expect(
      (await failureOf(app.router.call('segments.list', { ...ref, topicId: 'not-a-uuid' }))).details
        .field,
    ).toBe('topicId');
    expect(await app.router.call('segments.partitions', { connectionId: 'embedded' })).toEqual([]);
  });

  it('offers the valid next states without a connection', async () => {
    expect(
      await app.router.call('segments.transitions', {
        lifecycle: 'segment',
        from: 'DELETE_SEGMENT_STARTED',
      }),
    ).toEqual(['DELETE_SEGMENT_STARTED', 'DELETE_SEGMENT_FINISHED']);
  });
});
