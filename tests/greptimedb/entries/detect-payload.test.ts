/**
 * What a replayed payload is shown as: on a GreptimeDB prefix a `WalEntry` or damage; on
 * Cairn's prefixes rows only for a plausible `WalEntry`, then JSON text, then raw bytes. Also
 * a replay job's entries carry that decoding, and payloads over the console's limit are left
 * undecoded.
 */
import { describe, expect, it } from 'vitest';
import { checkPayload, decodePayload } from '../../../src/shared/greptime/decode/detect-payload';
import type { WalEntry } from '../../../src/main/engine/wal/entry';
import { ReplayJob } from '../../../src/main/services/wal/replay-job';
import {
  REPLAY_DECODED_BYTES,
  REPLAY_PAYLOAD_BYTES,
  type ReplayEntryView,
} from '../../../src/shared/contract/wal';
import type { GtValue } from '../../../src/shared/greptime/decode/wal-entry';
import { column, encodeWalEntry } from './wal-entry-encoder';

const metrics = encodeWalEntry({
  mutations: [
    {
      opType: 1,
      sequence: 1n,
      rows: {
        schema: [column('host', 12, 0), column('v', 10, 1)],
        rows: [
          [
            { kind: 'string', value: 'a' },
            { kind: 'f64', value: 1 },
          ],
        ],
      },
      primaryKeyEncoding: null,
    },
  ],
  bulkEntries: [],
});
const text = (value: string) => new TextEncoder().encode(value);

describe('decodePayload', () => {
  it('reads every payload of a GreptimeDB prefix as a WalEntry or names why it is not one', () => {
    expect(decodePayload(metrics, true).kind).toBe('wal-entry');
    expect(decodePayload(new Uint8Array(0), true)).toEqual({
      kind: 'wal-entry',
      table: { mutations: [], bulk: [] },
    });
    expect(decodePayload(text('{"a":1}'), true)).toMatchObject({
      kind: 'not-wal-entry',
      failure: { offset: 0 },
    });
  });

  it.each([
    ['a metrics WalEntry', metrics, 'wal-entry'],
    ['JSON text', text('{"order":1}'), 'json'],
    ['a JSON number', text('42'), 'json'],
    ['an empty payload', new Uint8Array(0), 'raw'],
    ['valid protobuf with nothing plausible in it', Uint8Array.of(0x18, 0x01), 'raw'],
    ['a mutation without rows', Uint8Array.of(0x0a, 0x02, 0x08, 0x01), 'raw'],
    ['random bytes', Uint8Array.of(0xff, 0x00, 0x13, 0x37), 'raw'],
  ])('on a Cairn prefix shows %s as %s', (_, bytes, kind) => {
    expect(decodePayload(bytes, false).kind).toBe(kind);
  });
});

/** The entries a replay job checking payloads on a Cairn prefix hands on. */
async function replayed(payloads: readonly Uint8Array[]): Promise<ReplayEntryView[]> {
  async function* source(): AsyncGenerator<WalEntry> {
    for (const [at, data] of payloads.entries())
      yield { id: BigInt(at + 1), data, regionId: 1n, provider: { prefix: 'p', regionId: 1n } };
  }
  const seen: ReplayEntryView[] = [];
  const job = new ReplayJob(
    'job',
    source(),
    { chunkSize: 10, latestId: BigInt(payloads.length), decode: (b) => checkPayload(b, false) },
    {
      chunk: (entries) => {
        seen.push(...entries);
      },
      done: () => undefined,
    },
  );
  await job.finished;
  return seen;
}

describe('a replay job that decodes', () => {
  it('hands each entry on with its payload decoded, and leaves a huge one undecoded', async () => {
    const seen = await replayed([
      metrics,
      text('{"a":1}'),
      new Uint8Array(REPLAY_DECODED_BYTES + 1),
    ]);
    expect(seen.map((entry) => entry.payload?.kind)).toEqual(['wal-entry', 'json', 'not-decoded']);
  });

  it('counts a WalEntry and hands it on whole for the page to decode; other payloads are cut', async () => {
    const rows = Array.from({ length: 1500 }, (_, at): GtValue[] => [
      { kind: 'string', value: `host-${at}` },
      { kind: 'f64', value: at / 10 },
    ]);
    const big = encodeWalEntry({
      mutations: [
        {
          opType: 1,
          sequence: 1n,
          rows: { schema: [column('host', 12, 0), column('v', 10, 1)], rows },
          primaryKeyEncoding: null,
        },
      ],
      bulkEntries: [],
    });
    const json = text(`[${'1,'.repeat(REPLAY_PAYLOAD_BYTES)}1]`);
    expect(big.length).toBeGreaterThan(REPLAY_PAYLOAD_BYTES);
    const [entry, other] = await replayed([big, json]);
    expect(entry!.payload).toEqual({
      kind: 'wal-entry',
      summary: { mutations: 1, rows: 1500, bulk: 0 },
    });
    expect(entry!.data).toEqual(big);
    expect(other!.payload).toEqual({ kind: 'json' });
    expect(other!.data).toEqual(json.subarray(0, REPLAY_PAYLOAD_BYTES));
    expect(other!.size).toBe(json.length);
  });
});
