/**
 * Bad input: one partition cell whose newest version is not valid JSON (or not metadata)
 * never hides the healthy partitions; the listing names it with its cell key and reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { versionKey } from '../../src/main/engine/cas/version-key';
import {
  ROOT,
  SEGMENT_B,
  TOPIC_ID,
  addInput,
  tieringFixture,
  type TieringFixture,
} from './support';

let fx: TieringFixture;
beforeEach(async () => {
  fx = await tieringFixture();
});
afterEach(() => fx.dispose());

const desk = () => fx.service.console('embedded');
const CELL_1 = `${ROOT}/tiering/${TOPIC_ID}-1`;

describe('a damaged tiering cell', () => {
  it.each([
    ['bad JSON', '{"version": 2, "fields": '],
    ['JSON that is not partition metadata', '{"hello":"world"}'],
  ])('holding %s is named; the healthy partition still lists', async (_, body) => {
    await (await desk()).add(addInput());
    await (await desk()).add(addInput({ partition: 1, segmentId: SEGMENT_B }));
    await fx.io.putIfAbsent(versionKey(CELL_1, 2), new TextEncoder().encode(body));

    // A fresh console (another window, the CLI) reads the store as it now is.
    const fresh = await fx.service.console('other-window');
    const partitions = await fresh.partitions();
    expect(partitions).toEqual([
      { topicId: TOPIC_ID, partition: 0, topic: 'orders', damage: null },
      {
        topicId: TOPIC_ID,
        partition: 1,
        topic: null,
        damage: { key: `${CELL_1}/`, reason: expect.any(String) as string },
      },
    ]);
    expect(partitions[1]?.damage?.reason).not.toBe('');
    expect((await fresh.list({ topicId: TOPIC_ID, partition: 0 })).segments).toHaveLength(1);
  });
});
