/**
 * The crash gate (spec/quality.md): `cairn wal append` runs several concurrent writers and
 * writes every acknowledgement to a file; it is SIGKILLed at a random moment; the next cycle
 * reopens the same prefix as a writer. At the end the prefix is replayed read-only and
 * compared with the acks: every acknowledged entry is present exactly once with its exact
 * bytes, and every present entry that was not acknowledged was in flight at a kill.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import { createBucketIfMissing, S3ObjectIo } from '../../../src/main/engine/objectio/s3-object-io';
import { openReadOnly } from '../../../src/main/engine/wal/read-only-log';
import { loadRegion } from '../../../src/main/services/wal/load-generator';

const cairn = resolve(__dirname, '..', '..', '..', 'bin', 'cairn.mjs');
const WRITERS = 6;
const REGIONS = 3;

interface Ack {
  readonly region: string;
  readonly id: string;
  readonly sha256: string;
}

/** A line of the acks file: ids as `table:region` / `seq:position`, each with its decimal u64. */
interface AckLine {
  readonly regionU64: string;
  readonly idU64: string;
  readonly sha256: string;
}

function readAcks(file: string): Ack[] {
  if (!existsSync(file)) return [];
  // A kill can cut the last line short: only whole lines were acknowledged to the file.
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.endsWith('}'))
      .map((line) => JSON.parse(line) as AckLine)
      // Keyed as the engine's replay below keys them: the decimal u64s printed beside the ids.
      .map((line) => ({ region: line.regionU64, id: line.idU64, sha256: line.sha256 }))
  );
}

/**
 * Runs one load-generator process and SIGKILLs it `killAfterMs` after it starts, or - with
 * `killAfterMs` null - as soon as its acks file has grown by one line; resolves with the time
 * it ran once it is gone.
 */
function appendThenKill(
  connection: readonly string[],
  acksFile: string,
  ack: 'durable' | 'enqueued',
  killAfterMs: number | null,
): Promise<number> {
  return new Promise((done) => {
    const started = performance.now();
    const acksBefore = readAcks(acksFile).length;
    const child = spawn(
      process.execPath,
      [
        cairn,
        'wal',
        'append',
        ...connection,
        '--writers',
        String(WRITERS),
        '--regions',
        String(REGIONS),
        '--count',
        '1000000',
        '--size',
        '200',
        '--ack',
        ack,
        '--flush-ms',
        '10',
        '--acks-out',
        acksFile,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...s3Env() } },
    );
    const timer =
      killAfterMs === null
        ? setInterval(() => {
            // Bounded: a writer that never acknowledges is killed too (the gate then fails).
            const waited = performance.now() - started > 60_000;
            if (waited || readAcks(acksFile).length > acksBefore) child.kill('SIGKILL');
          }, 20)
        : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', () => {
      clearTimeout(timer);
      clearInterval(timer);
      done(performance.now() - started);
    });
  });
}

function s3Env(): Record<string, string> {
  const { CAIRN_S3_ACCESS_KEY: key, CAIRN_S3_SECRET_KEY: secret } = process.env;
  return key && secret ? { AWS_ACCESS_KEY_ID: key, AWS_SECRET_ACCESS_KEY: secret } : {};
}

async function replayAll(io: ObjectIo): Promise<Map<string, { count: number; sha256: string }>> {
  const log = await openReadOnly(io, { root: 'wal', nodeId: 0n, generation: 0 });
  const present = new Map<string, { count: number; sha256: string }>();
  for (let index = 0; index < REGIONS; index += 1) {
    const region = loadRegion(index);
    for await (const entry of log.read({ prefix: log.prefix, regionId: region }, 1n)) {
      const key = `${region}/${entry.id}`;
      const seen = present.get(key);
      present.set(key, {
        count: (seen?.count ?? 0) + 1,
        sha256: createHash('sha256').update(entry.data).digest('hex'),
      });
    }
  }
  return present;
}

/**
 * Kill moments spread over the writer's life, some during the open and most while appending,
 * measured from how long this machine took to a first acknowledgement (`firstAckMs`), so a
 * slow machine shifts them instead of killing every writer before it acknowledges anything.
 */
function killMoments(cycles: number, firstAckMs: number): number[] {
  return Array.from(
    { length: cycles },
    (_, cycle) =>
      Math.round(firstAckMs * 0.6) + ((cycle * 977) % 1800) + (randomBytes(1)[0]! % 200),
  );
}

async function runGate(
  io: ObjectIo,
  connection: readonly string[],
  cycles: number,
  ack: 'durable' | 'enqueued',
  workDir: string,
) {
  const acksFile = join(workDir, `acks-${ack}.ndjson`);
  // The first cycle is killed at its first acknowledgement, and times the machine.
  const firstAckMs = await appendThenKill(connection, acksFile, ack, null);
  for (const moment of killMoments(cycles - 1, firstAckMs))
    await appendThenKill(connection, acksFile, ack, moment);
  const acks = readAcks(acksFile);
  const present = await replayAll(io);
  return { acks, present };
}

const workDirs: string[] = [];
afterAll(() => workDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-crash-'));
  workDirs.push(dir);
  return dir;
}

function expectDurableGate(
  { acks, present }: Awaited<ReturnType<typeof runGate>>,
  cycles: number,
): void {
  expect(acks.length).toBeGreaterThan(0);
  const acked = new Set<string>();
  for (const ack of acks) {
    const key = `${ack.region}/${ack.id}`;
    expect(acked.has(key), `id ${key} acknowledged twice`).toBe(false);
    acked.add(key);
    expect(present.get(key), `acknowledged ${key} is missing after the crash`).toEqual({
      count: 1,
      sha256: ack.sha256,
    });
  }
  for (const [key, seen] of present) expect(seen.count, `${key} replayed twice`).toBe(1);
  // Entries present but never acknowledged: at most one in-flight append per writer per kill.
  const unacknowledged = [...present.keys()].filter((key) => !acked.has(key));
  expect(unacknowledged.length).toBeLessThanOrEqual(WRITERS * cycles);
}

describe('crash gate on the local store', () => {
  it('keeps every acknowledged entry exactly once across 20 SIGKILL cycles (durable)', async () => {
    const dir = workDir();
    const result = await runGate(
      new LocalObjectIo(join(dir, 'store')),
      ['--dir', join(dir, 'store')],
      20,
      'durable',
      dir,
    );
    expectDurableGate(result, 20);
  }, 300_000);

  it('never duplicates an entry in enqueued mode, and loses at most the unpersisted backlog', async () => {
    const dir = workDir();
    const { acks, present } = await runGate(
      new LocalObjectIo(join(dir, 'store')),
      ['--dir', join(dir, 'store')],
      4,
      'enqueued',
      dir,
    );
    for (const [key, seen] of present) expect(seen.count, `${key} replayed twice`).toBe(1);
    const lost = acks.filter(
      (ack) => present.get(`${ack.region}/${ack.id}`)?.sha256 !== ack.sha256,
    );
    // The backlog a kill can drop is bounded by maxUnpersistedBytes (64 MiB) per cycle.
    expect(lost.length * 200).toBeLessThanOrEqual(4 * 64 * 1024 * 1024);
    for (const ack of acks) {
      const seen = present.get(`${ack.region}/${ack.id}`);
      if (seen) expect(seen.sha256).toBe(ack.sha256);
    }
  }, 300_000);
});

const endpoint = process.env.CAIRN_S3_ENDPOINT;

describe.skipIf(!endpoint)('crash gate on S3', () => {
  it('keeps every acknowledged entry exactly once across 5 SIGKILL cycles (durable)', async () => {
    const dir = workDir();
    const bucket = `cairn-crash-${randomBytes(4).toString('hex')}`;
    const config = {
      bucket,
      endpoint,
      forcePathStyle: true,
      credentials: {
        accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
        secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
      },
    };
    await createBucketIfMissing(config);
    const io = new S3ObjectIo(config);
    const result = await runGate(
      io,
      ['--bucket', bucket, '--s3-endpoint', endpoint!, '--path-style'],
      5,
      'durable',
      dir,
    );
    expectDurableGate(result, 5);
    io.destroy();
  }, 300_000);
});
