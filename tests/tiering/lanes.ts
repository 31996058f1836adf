/**
 * The backends the tiering suites run on: the in-memory reference and the object manager on
 * MemoryObjectIo, LocalObjectIo (a tmp dir) and a real S3 (skipped when CAIRN_S3_ENDPOINT is
 * unset). Each `make*` call builds a fresh store.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CasCell } from '../../src/main/engine/cas/cas-cell';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import {
  InMemoryRemoteLogMetadataManager,
  ObjectRemoteLogMetadataManager,
  type TopicIdPartition,
} from '../../src/main/engine/tiering';
import { s3Lane } from '../support/s3';
import type { RlmmLane } from './rlmm-contract';

export const ROOT = 'cluster-a';

export function inMemoryLane(): RlmmLane {
  // One reference manager is the whole store: every "open" shares it.
  const store = new InMemoryRemoteLogMetadataManager();
  return { open: async () => store };
}

/** The cell version committed for `tp`, read by an observer that never writes (0: no cell). */
export async function committedVersionOf(
  io: ObjectIo,
  tp: TopicIdPartition,
  root = ROOT,
): Promise<number> {
  const observer = new ObjectRemoteLogMetadataManager(io, root);
  return (await new CasCell(io, observer.cellNameOf(tp)).read())?.version ?? 0;
}

export function objectLane(io: ObjectIo, root = ROOT): RlmmLane {
  return {
    open: async () => new ObjectRemoteLogMetadataManager(io, root),
    committedVersion: (tp) => committedVersionOf(io, tp, root),
  };
}

export async function localIo(): Promise<LocalObjectIo> {
  return new LocalObjectIo(await mkdtemp(path.join(tmpdir(), 'cairn-tiering-')));
}

export const memoryIo = (): MemoryObjectIo => new MemoryObjectIo();
export const s3 = s3Lane();
