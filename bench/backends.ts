/** The backends a benchmark runs on: a fresh local directory always, S3 when the lane is set. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectIo } from '../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../src/main/engine/objectio/object-io';
import { createBucketIfMissing, S3ObjectIo } from '../src/main/engine/objectio/s3-object-io';

export interface BenchBackend {
  readonly name: 'local' | 's3';
  /** A fresh, empty store for one figure. */
  fresh(): Promise<ObjectIo>;
  dispose(): void;
}

export function localBackend(): BenchBackend {
  const made: string[] = [];
  return {
    name: 'local',
    fresh: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
      made.push(dir);
      return new LocalObjectIo(dir);
    },
    dispose: () => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  };
}

export function s3Backend(): BenchBackend | null {
  const endpoint = process.env.CAIRN_S3_ENDPOINT;
  if (!endpoint) return null;
  const credentials = {
    accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
    secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
  };
  const made: S3ObjectIo[] = [];
  return {
    name: 's3',
    fresh: async () => {
      const config = {
        bucket: `cairn-bench-${randomBytes(4).toString('hex')}`,
        endpoint,
        forcePathStyle: true,
        credentials,
      };
      await createBucketIfMissing(config);
      const io = new S3ObjectIo(config);
      made.push(io);
      return io;
    },
    dispose: () => made.forEach((io) => io.destroy()),
  };
}
