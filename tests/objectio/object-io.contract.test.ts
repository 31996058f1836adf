/** Runs the ObjectIo contract against every backend: memory, a local directory, and real S3. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { s3Lane } from '../support/s3';
import { batchDeleteContract, localBatchFailureContract } from './batch-delete-contract';
import { objectIoContract } from './object-io-contract';

objectIoContract('memory', async () => new MemoryObjectIo());
batchDeleteContract('memory', async () => new MemoryObjectIo());

const localRoots: string[] = [];
afterAll(async () => {
  await Promise.all(localRoots.map((root) => rm(root, { recursive: true, force: true })));
});
const localIo = async (): Promise<LocalObjectIo> => {
  const root = await mkdtemp(path.join(tmpdir(), 'cairn-objectio-'));
  localRoots.push(root);
  return new LocalObjectIo(root);
};
objectIoContract('local directory', localIo);
batchDeleteContract('local directory', localIo);
describe('local directory batch delete', () => localBatchFailureContract(localIo));

const lane = s3Lane();
if (lane !== null) {
  afterAll(() => lane.dispose());
  objectIoContract('S3', () => lane.makeIo('contract'));
  batchDeleteContract('S3', () => lane.makeIo('batch-delete'));
}
