/** The RemoteLogMetadataManager contract on every backend. */
import { describe } from 'vitest';
import { defineRlmmContract } from './rlmm-contract';
import { inMemoryLane, localIo, memoryIo, objectLane, s3 } from './lanes';

defineRlmmContract('in-memory reference', async () => inMemoryLane());
defineRlmmContract('object store on MemoryObjectIo', async () => objectLane(memoryIo()));
defineRlmmContract('object store on LocalObjectIo', async () => objectLane(await localIo()));
describe.skipIf(s3 === null)('S3', () => {
  defineRlmmContract('object store on S3', async () => objectLane(await s3!.makeIo('tiering')));
});
