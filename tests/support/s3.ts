/**
 * The real-S3 test lane. Reads `CAIRN_S3_ENDPOINT`, `CAIRN_S3_ACCESS_KEY`, `CAIRN_S3_SECRET_KEY`
 * (and optionally `CAIRN_S3_REGION`) and hands out `S3ObjectIo`s, each on a fresh bucket, so
 * tests never share state. Credentials are passed explicitly: a developer's own AWS profile is
 * never picked up by accident.
 *
 * Usage:
 *   const lane = s3Lane();
 *   describe.skipIf(!lane)('thing on S3', () => {
 *     afterAll(() => lane?.dispose());
 *     it('...', async () => { const io = await lane!.makeIo('thing'); });
 *   });
 * When the endpoint is unset, `s3Lane()` returns null and one line per test run says so.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteBucketCommand, DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { objectsUnder } from '../../src/main/engine/objectio/object-io';
import {
  createBucketIfMissing,
  S3ObjectIo,
  type S3ObjectIoConfig,
} from '../../src/main/engine/objectio/s3-object-io';

export interface S3Lane {
  /** A new S3ObjectIo on a bucket created for this call; `prefixHint` goes into the bucket name. */
  makeIo(prefixHint: string): Promise<S3ObjectIo>;
  /** The connection settings without a bucket, for tests that build their own config. */
  readonly settings: Omit<S3ObjectIoConfig, 'bucket'>;
  /** Empties and removes every bucket this lane made and closes its clients (call in afterAll). */
  dispose(): Promise<void>;
}

export function s3Lane(): S3Lane | null {
  const settings = laneSettings();
  if (settings === null) {
    warnOncePerRun();
    return null;
  }
  const made: S3ObjectIo[] = [];
  return {
    settings,
    async makeIo(prefixHint) {
      const config = { ...settings, bucket: freshBucketName(prefixHint) };
      await createBucketIfMissing(config);
      const io = new S3ObjectIo(config);
      made.push(io);
      return io;
    },
    async dispose() {
      const ios = made.splice(0);
      await Promise.all(ios.map((io) => removeBucket(settings, io)));
    },
  };
}

/** radosgw's memstore keeps every object in RAM: give it back after a suite. */
async function removeBucket(
  settings: Omit<S3ObjectIoConfig, 'bucket'>,
  io: S3ObjectIo,
): Promise<void> {
  const keys: string[] = [];
  for await (const object of objectsUnder(io, '')) keys.push(object.key);
  for (let at = 0; at < keys.length; at += 1000) {
    const batch = keys.slice(at, at + 1000).map((Key) => ({ Key }));
    await client(settings).send(
      new DeleteObjectsCommand({ Bucket: io.bucket, Delete: { Objects: batch, Quiet: true } }),
    );
  }
  await client(settings).send(new DeleteBucketCommand({ Bucket: io.bucket }));
  io.destroy();
}

let adminClient: S3Client | undefined;
function client(settings: Omit<S3ObjectIoConfig, 'bucket'>): S3Client {
  adminClient ??= new S3Client({
    ...settings,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return adminClient;
}

/**
 * Vitest runs each test file in its own process; a marker file keyed by the runner's pid (every
 * worker's parent) lets only the first worker of a run print the line.
 */
function warnOncePerRun(): void {
  const marker = path.join(tmpdir(), `cairn-s3-lane-skipped-${process.ppid}`);
  try {
    writeFileSync(marker, '', { flag: 'wx' });
  } catch {
    return; // Another worker of this run already said it.
  }
  console.warn('S3 lanes skipped: CAIRN_S3_ENDPOINT is not set');
}

function laneSettings(): Omit<S3ObjectIoConfig, 'bucket'> | null {
  const endpoint = process.env.CAIRN_S3_ENDPOINT;
  if (!endpoint) return null;
  return {
    endpoint,
    region: process.env.CAIRN_S3_REGION || 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
      secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
    },
  };
}

/** A valid, unique bucket name: 3-63 chars of [a-z0-9-], starting and ending alphanumeric. */
export function freshBucketName(prefixHint: string): string {
  const hint = prefixHint
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30);
  const unique = `${Date.now().toString(36)}-${randomBytes(5).toString('hex')}`;
  return ['cairn', hint, unique].filter((part) => part !== '').join('-');
}
