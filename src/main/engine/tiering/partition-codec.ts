/**
 * The encoding of a partition's metadata state into the fields of its CasCell. Deterministic:
 * the same state always encodes to the same bytes (sorted keys, canonical array order), so
 * versions can be compared and diffed. Owns the format and its validation on decode; never
 * reads or writes storage.
 */
import { z } from 'zod';
import type { CellFields } from '../cas/cell-snapshot';
import { InvalidMetadataError } from './errors';
import { PartitionMetadataState, type PartitionStateData } from './partition-state';
import {
  parseOrThrow,
  remoteLogSegmentMetadataSchema,
  remotePartitionDeleteMetadataSchema,
  topicIdPartitionSchema,
} from './types';

export const FORMAT_FIELD = 'tiering.format';
export const STATE_FIELD = 'tiering.partition';
const FORMAT_VERSION = '1';

const epochIndexSchema = z.strictObject({
  epoch: z.int().min(0),
  highestEpochEnd: z.int().min(0).nullable(),
  referenced: z.array(z.strictObject({ startOffset: z.int().min(0), segmentId: z.string() })),
});

const partitionStateSchema = z.strictObject({
  topicIdPartition: topicIdPartitionSchema,
  deleteMetadata: remotePartitionDeleteMetadataSchema.nullable(),
  segments: z.array(remoteLogSegmentMetadataSchema),
  epochs: z.array(epochIndexSchema),
  appliedEventIds: z.array(z.string()),
});

export function encodePartitionState(state: PartitionMetadataState): CellFields {
  return { [FORMAT_FIELD]: FORMAT_VERSION, [STATE_FIELD]: canonicalJson(state.toData()) };
}

/** Throws InvalidMetadataError naming the field when the cell holds something we did not write. */
export function decodePartitionState(fields: CellFields): PartitionMetadataState {
  if (fields[FORMAT_FIELD] !== FORMAT_VERSION) {
    throw new InvalidMetadataError(
      FORMAT_FIELD,
      `unsupported format ${String(fields[FORMAT_FIELD])}`,
    );
  }
  const text = fields[STATE_FIELD];
  if (text === undefined) throw new InvalidMetadataError(STATE_FIELD, 'missing');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidMetadataError(STATE_FIELD, 'not JSON');
  }
  const data: PartitionStateData = parseOrThrow(partitionStateSchema, json, STATE_FIELD);
  return PartitionMetadataState.fromData(data);
}

/** JSON with object keys sorted at every level and undefined members left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
    const entries = Object.entries(member as Record<string, unknown>).filter(
      ([, v]) => v !== undefined,
    );
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
