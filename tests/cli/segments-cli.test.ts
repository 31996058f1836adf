/** `cairn segments ...` as a user runs it: JSON output, exit codes 0 / 1 (typed error) / 2 (usage). */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cairn = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');
const TOPIC_ID = '6f1c2d3e-0000-4000-8000-000000000001';
const SEGMENT = 'aaaaaaaa-0000-4000-8000-00000000000a';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-segments-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function segments(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [cairn, 'segments', ...args, '--store', join(dir, 'store')],
    {
      encoding: 'utf8',
      env: { ...process.env, CAIRN_DATA_DIR: join(dir, 'data') },
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
const onPartition = (...args: string[]) =>
  segments(...args, '--topic-id', TOPIC_ID, '--partition', '0');
const json = (run: { code: number | null; stdout: string; stderr: string }): unknown => {
  expect([run.code, run.stderr]).toEqual([0, '']);
  return JSON.parse(run.stdout) as unknown;
};

describe('cairn segments', () => {
  it('walks a segment through add, update, ls, find, highest and delete-partition', () => {
    expect(json(segments('ls', '--json'))).toEqual([]);
    const added = json(
      onPartition(
        'add',
        '--topic',
        'orders',
        '--segment-id',
        SEGMENT,
        '--start',
        '0',
        '--end',
        '99',
        '--epochs',
        '0:0,1:50',
        '--size',
        '2048',
        '--broker',
        '3',
        '--max-timestamp',
        '1700000000000',
        '--json',
      ),
    );
    expect(added).toMatchObject({
      segmentId: SEGMENT,
      state: 'COPY_SEGMENT_STARTED',
      segmentLeaderEpochs: [
        { epoch: 0, startOffset: 0 },
        { epoch: 1, startOffset: 50 },
      ],
      brokerId: 3,
    });
    expect(json(onPartition('find', '--epoch', '1', '--offset', '60', '--json'))).toBeNull();
    expect(
      json(
        onPartition(
          'update',
          '--segment-id',
          SEGMENT,
          '--state',
          'COPY_SEGMENT_FINISHED',
          '--json',
        ),
      ),
    ).toMatchObject({ state: 'COPY_SEGMENT_FINISHED', brokerId: 3 });
    expect(json(segments('ls', '--json'))).toEqual([
      // Each partition is read for the listing, so its recorded topic name is known.
      { topicId: TOPIC_ID, partition: 0, topic: 'orders', damage: null },
    ]);
    expect(json(onPartition('ls', '--json'))).toMatchObject({
      partition: { topic: 'orders' },
      version: 2,
      caughtUp: true,
      segments: [{ segmentId: SEGMENT }],
    });
    expect(json(onPartition('get', '--segment-id', SEGMENT, '--json'))).toMatchObject({
      segmentId: SEGMENT,
      endOffset: 99,
    });
    expect(json(onPartition('find', '--epoch', '1', '--offset', '60', '--json'))).toMatchObject({
      segmentId: SEGMENT,
    });
    expect(json(onPartition('highest', '--epoch', '0', '--json'))).toEqual({
      epoch: 0,
      highestOffset: 99,
    });
    expect(json(onPartition('caught-up', '--json'))).toEqual({ caughtUp: true, version: 2 });
    const human = onPartition('ls');
    expect(human.stdout).toMatch(/SEGMENT-ID\s+STATE\s+START\s+END\s+EPOCHS/);
    expect(human.stdout).toContain(`${SEGMENT}  COPY_SEGMENT_FINISHED`);
    for (const state of [
      'DELETE_PARTITION_MARKED',
      'DELETE_PARTITION_STARTED',
      'DELETE_PARTITION_FINISHED',
    ]) {
      expect(json(onPartition('delete-partition', '--state', state, '--json'))).toMatchObject({
        state,
      });
    }
    expect(json(onPartition('ls', '--json'))).toMatchObject({
      segments: [],
      deleteMarker: { state: 'DELETE_PARTITION_FINISHED' },
    });
  });

  it('exits 1 with the typed error on stderr for a refused event', () => {
    const partition = ['--topic-id', TOPIC_ID, '--partition', '7'];
    expect(
      segments(
        'add',
        ...partition,
        '--topic',
        'orders',
        '--segment-id',
        SEGMENT,
        '--start',
        '0',
        '--end',
        '9',
      ).code,
    ).toBe(0);
    const refused = segments(
      'update',
      ...partition,
      '--segment-id',
      SEGMENT,
      '--state',
      'DELETE_SEGMENT_FINISHED',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^InvalidSegmentTransition: /);
    expect(JSON.parse(refused.stderr.split('\n')[1]!)).toMatchObject({
      error: 'InvalidSegmentTransition',
      from: 'COPY_SEGMENT_STARTED',
      to: 'DELETE_SEGMENT_FINISHED',
    });
    expect(refused.stderr).not.toContain('    at ');
    expect(
      segments('add', ...partition, '--segment-id', SEGMENT, '--start', '0', '--end', '9').stderr,
    ).toMatch(/^InvalidAdd: /);
    expect(
      segments('get', ...partition, '--segment-id', 'bbbbbbbb-0000-4000-8000-00000000000b').code,
    ).toBe(1);
  });

  it('exits 2 on bad usage, naming the flag', () => {
    expect(segments('find', '--epoch', '0', '--offset', '1')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--topic-id'),
    });
    expect(onPartition('add', '--topic', 'orders', '--start', '5', '--end', '1')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--end'),
    });
    expect(
      onPartition('add', '--topic', 'orders', '--start', '0', '--end', '9', '--epochs', 'zero'),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining('--epochs') });
    expect(segments('ls', '--topic-id', 'nope', '--partition', '0')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--topic-id'),
    });
    expect(onPartition('update', '--segment-id', SEGMENT, '--state', 'GONE')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--state'),
    });
    expect(onPartition('highest', '--epoch', '-1').code).toBe(2);
  });
});
