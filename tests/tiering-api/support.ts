/**
 * Shared pieces of the tiering API suites: a temp local store, a TieringService over it that
 * records the events it publishes, fixed ids, and a typed-error probe.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiEvent } from '../../src/shared/contract';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { EventBus } from '../../src/main/services/event-bus';
import { TieringService } from '../../src/main/services/tiering/tiering-service';
export { failureOf } from '../support/typed-failure';

export const TOPIC_ID = '6f1c2d3e-0000-4000-8000-000000000001';
export const SEGMENT_A = 'aaaaaaaa-0000-4000-8000-00000000000a';
export const SEGMENT_B = 'bbbbbbbb-0000-4000-8000-00000000000b';
export const ROOT = 'cluster-a';

export interface TieringFixture {
  readonly dir: string;
  readonly io: LocalObjectIo;
  readonly service: TieringService;
  readonly events: ApiEvent[];
  dispose(): Promise<void>;
}

export async function tieringFixture(): Promise<TieringFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-tiering-api-'));
  const io = new LocalObjectIo(dir);
  const bus = new EventBus();
  const events: ApiEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const service = new TieringService({ io: async () => ({ io, root: ROOT }) }, bus);
  return { dir, io, service, events, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** A valid add input for partition 0 of TOPIC_ID (without a connection id). */
export function addInput(overrides: Record<string, unknown> = {}) {
  return {
    topicId: TOPIC_ID,
    partition: 0,
    topic: 'orders',
    segmentId: SEGMENT_A,
    startOffset: 0,
    endOffset: 99,
    segmentLeaderEpochs: [
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 50 },
    ],
    segmentSizeBytes: 2048,
    brokerId: 3,
    maxTimestampMs: 1_700_000_000_000,
    ...overrides,
  };
}
