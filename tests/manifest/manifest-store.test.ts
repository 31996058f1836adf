import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CellManifestStore } from '../../src/main/engine/manifest/cell-manifest-store';
import { MemoryManifestStore } from '../../src/main/engine/manifest/memory-manifest-store';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { s3Lane } from '../support/s3';
import {
  manifestStoreContract,
  type OpenRegister,
  type RegisterClient,
} from './manifest-store-contract';

const WAL_PREFIX = 'stores/orders/wal';

/** Clients of one cell register, each with its own CasCell and its own fault injector. */
function cellRegister(io: ObjectIo, close?: () => Promise<void>): OpenRegister {
  let clients = 0;
  return {
    client(): RegisterClient {
      const faulty = new FaultyObjectIo(io);
      const store = new CellManifestStore(faulty, WAL_PREFIX, { writerId: `client-${clients++}` });
      return {
        store,
        loseNextCreate(alsoFailReadBack) {
          faulty.inject({
            op: 'putIfAbsent',
            kind: alsoFailReadBack ? 'apply-then-5xx' : 'apply-then-lose',
            count: 1,
          });
          if (alsoFailReadBack) faulty.inject({ op: 'get', kind: 'unavailable', count: 1 });
        },
        faultsFired: () => faulty.fired,
      };
    },
    close,
  };
}

manifestStoreContract({
  name: 'MemoryManifestStore',
  available: true,
  increments: { clean: 16, faulty: 16 },
  async open() {
    const store = new MemoryManifestStore();
    return { client: () => ({ store }) };
  },
});

manifestStoreContract({
  name: 'CellManifestStore on MemoryObjectIo',
  available: true,
  increments: { clean: 16, faulty: 16 },
  async open() {
    return cellRegister(new MemoryObjectIo());
  },
});

manifestStoreContract({
  name: 'CellManifestStore on LocalObjectIo',
  available: true,
  increments: { clean: 6, faulty: 12 },
  async open() {
    const root = await mkdtemp(path.join(tmpdir(), 'cairn-manifest-'));
    return cellRegister(new LocalObjectIo(root), () => rm(root, { recursive: true, force: true }));
  },
});

const s3 = s3Lane();
manifestStoreContract({
  name: 'CellManifestStore on S3',
  available: s3 !== null,
  increments: { clean: 6, faulty: 12 },
  async open() {
    if (s3 === null) throw new Error('S3 lane unavailable');
    return cellRegister(await s3.makeIo('manifest'));
  },
});
