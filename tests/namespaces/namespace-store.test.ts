import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { s3Lane } from '../support/s3';
import { namespaceStoreContract } from './namespace-store-contract';

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(
    directories.map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

namespaceStoreContract('MemoryObjectIo', { makeIo: () => Promise.resolve(new MemoryObjectIo()) });

namespaceStoreContract('LocalObjectIo', {
  makeIo: async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cairn-ns-'));
    directories.push(directory);
    return new LocalObjectIo(directory);
  },
});

const lane = s3Lane();
namespaceStoreContract('S3 (radosgw)', lane && { makeIo: () => lane.makeIo('namespaces') });
