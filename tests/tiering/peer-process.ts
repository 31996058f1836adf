/**
 * A second manager in its own process, for the cross-process test: it opens the bucket named
 * in TIERING_PEER (JSON: { s3, root, tp }), takes the partition on, then answers one JSON
 * command per stdin line with one JSON line on stdout. Not a test file itself.
 */
import { createInterface } from 'node:readline';
import { S3ObjectIo, type S3ObjectIoConfig } from '../../src/main/engine/objectio/s3-object-io';
import {
  ObjectRemoteLogMetadataManager,
  type RemoteLogSegmentMetadata,
  type TopicIdPartition,
} from '../../src/main/engine/tiering';

interface PeerConfig {
  readonly s3: S3ObjectIoConfig;
  readonly root: string;
  readonly tp: TopicIdPartition;
}

type Command =
  | { op: 'caughtUp' }
  | { op: 'list' }
  | { op: 'find'; epoch: number; offset: number }
  | { op: 'add'; metadata: RemoteLogSegmentMetadata }
  | { op: 'exit' };

async function answer(
  rlmm: ObjectRemoteLogMetadataManager,
  tp: TopicIdPartition,
  command: Command,
): Promise<unknown> {
  switch (command.op) {
    case 'caughtUp':
      return { caughtUp: await rlmm.caughtUp(tp) };
    case 'list':
      return { segments: await rlmm.listRemoteLogSegments(tp) };
    case 'find':
      return { segment: await rlmm.remoteLogSegmentMetadata(tp, command.epoch, command.offset) };
    case 'add':
      await rlmm.addRemoteLogSegmentMetadata(command.metadata);
      return { ok: true };
    case 'exit':
      return { bye: true };
  }
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env.TIERING_PEER ?? '') as PeerConfig;
  const rlmm = new ObjectRemoteLogMetadataManager(new S3ObjectIo(config.s3), config.root);
  await rlmm.assignPartitions([config.tp]);
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as Command;
    const reply = await answer(rlmm, config.tp, command).catch(
      (error: { code?: string; message?: string }) => ({
        error: error.code ?? 'unknown',
        message: error.message,
      }),
    );
    process.stdout.write(`${JSON.stringify(reply)}\n`);
    if (command.op === 'exit') break;
  }
}

void main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ fatal: String(error) })}\n`);
  process.exitCode = 1;
});
