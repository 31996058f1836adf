/**
 * `cairn wal gc` as a user runs it on a local store: the dry run takes and writes nothing,
 * lists exactly what the pass then deletes and names who holds the register (the epoch a pass
 * would fence, and that it looks live); a fresh register is refused without --take-over; the
 * pass appends one deletion entry to the app's audit log; `cairn wal inspect` shows the
 * bounded prefix afterwards.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import { readControl, registerStoreOf } from '../../../src/main/engine/wal/register';
import { walPrefix } from '../../../src/main/engine/wal/keys';
import { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import { REGION_A, REGION_B, entriesOf, providerOf } from '../support/writer-harness';
import { storedSeqs } from './gc-support';
import { runCairn } from '../../support/cairn-cli';

let dir: string;
const CONFIG = { root: 'wal', nodeId: 0n, generation: 0, flushIntervalMs: 10 };
const PREFIX = walPrefix('wal', 0n, 0);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-wal-gc-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  return runCairn(args, { CAIRN_DATA_DIR: join(dir, 'data') });
}

describe('cairn wal gc', () => {
  it('dry run, refusal of a live writer, a pass, and inspect showing the collected prefix', async () => {
    const store = join(dir, 'store');
    const io = new LocalObjectIo(store);
    const writer = await ObjectStoreLogStore.open(io, CONFIG, {
      probe: false,
      gcAfterObsolete: false,
    });
    let lastB = 0n;
    for (let i = 0; i < 5; i++) {
      const result = await writer.appendBatch([
        ...entriesOf(writer, REGION_A, `a${i}`),
        ...entriesOf(writer, REGION_B, `b${i}`),
      ]);
      lastB = result.lastEntryIds.get(REGION_B) ?? 0n;
    }
    await writer.obsoleteAll(providerOf(writer, REGION_A), REGION_A);
    await writer.obsolete(providerOf(writer, REGION_B), REGION_B, lastB - (1n << 20n));
    await writer.stop();
    const before = await storedSeqs(io, PREFIX);

    const dry = run('wal', 'gc', '--dry-run', '--json', '--dir', store);
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout) as {
      dryRun: boolean;
      boundary: string;
      objects: Array<{ seq: string }>;
      bytes: number;
      holder: string;
      epoch: string | null;
      register: { epoch: string; live: boolean } | null;
      heldBack: { seq: string; regions: Array<{ regionIdU64: string }> } | null;
    };
    expect(planned.dryRun).toBe(true);
    // The writer just stopped: its register is fresh, so a pass would fence a live writer.
    expect(planned).toMatchObject({ holder: 'live-writer', epoch: String(writer.epoch) });
    expect(planned.register).toMatchObject({ epoch: String(writer.epoch), live: true });
    // B's newest object is above its watermark: it holds the boundary where it is.
    expect(planned.heldBack?.regions.map((r) => r.regionIdU64)).toEqual([REGION_B.toString()]);
    expect(planned.objects.map((o) => BigInt(o.seq))).toEqual(
      before.filter((seq) => seq < lastB >> 20n),
    );
    expect(await storedSeqs(io, PREFIX)).toEqual(before);
    expect((await readControl(registerStoreOf(io, PREFIX)))?.control.boundary).toBe(0n);

    const refused = run('wal', 'gc', '--dir', store);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^LiveWriter:/);
    expect(await storedSeqs(io, PREFIX)).toEqual(before);

    const pass = run('wal', 'gc', '--take-over', '--json', '--dir', store);
    expect(pass.code).toBe(0);
    const report = JSON.parse(pass.stdout) as {
      dryRun: boolean;
      holder: string;
      objects: Array<{ seq: string; key: string }>;
      failure: string | null;
      boundary: string;
    };
    expect(report).toMatchObject({ dryRun: false, holder: 'writer', failure: null });
    // The writer open added its start object (wholly obsolete) above the dry run's boundary.
    expect(report.objects.map((o) => o.seq)).toEqual(planned.objects.map((o) => o.seq));
    expect((await storedSeqs(io, PREFIX)).every((seq) => seq >= lastB >> 20n)).toBe(true);
    const audit = (await readFile(join(dir, 'data', 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            action: string;
            target: string;
            parameters: Record<string, unknown>;
          },
      )
      // The commands' own entries (written ahead, then answered) are beside the deletion's.
      .filter((line) => line.action === 'wal.gc.delete');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'wal.gc.delete',
      target: PREFIX,
      // The log keeps parameters in the wire encoding (superjson: `json`, bigints exact).
      parameters: {
        json: {
          objects: report.objects.length,
          firstKey: report.objects[0]?.key,
          lastKey: report.objects.at(-1)?.key,
          requestedBy: [{ action: 'cli wal gc' }],
        },
      },
    });

    const inspect = run('wal', 'inspect', '--json', '--dir', store);
    expect(inspect.code).toBe(0);
    const inspected = JSON.parse(inspect.stdout) as {
      listed: number;
      register: { boundary: string };
      regions: Array<{ regionIdU64: string; entries: number }>;
    };
    expect(BigInt(inspected.register.boundary)).toBe(lastB >> 20n);
    expect(inspected.listed).toBe(2); // B's newest object and the gc's start object
    expect(inspected.regions.find((r) => r.regionIdU64 === REGION_B.toString())?.entries).toBe(1);
  }, 60_000);
});
