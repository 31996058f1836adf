/**
 * Two managers in two processes on one real S3 bucket: what one publishes, the other sees once
 * its caughtUp answers true, both ways. The peer is a child process (`node --import tsx`)
 * speaking one JSON line per command on stdin / stdout.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ObjectRemoteLogMetadataManager,
  type RemoteLogSegmentMetadata,
} from '../../src/main/engine/tiering';
import { idsOf, segment, topicPartition, update } from './fixtures';
import { ROOT, s3 } from './lanes';

class Peer {
  private readonly replies: AsyncIterator<string>;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, null>,
    lines: Interface,
  ) {
    this.replies = lines[Symbol.asyncIterator]();
  }

  static async spawn(env: Record<string, string>): Promise<Peer> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'peer-process.ts')],
      {
        cwd: path.join(__dirname, '..', '..'),
        env: { ...process.env, ...env },
        // stderr inherited: nothing must fill an unread pipe and stall the peer.
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const peer = new Peer(child, createInterface({ input: child.stdout }));
    expect(await peer.next()).toEqual({ ready: true });
    return peer;
  }

  async ask(command: object): Promise<Record<string, unknown>> {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
    return this.next();
  }

  private async next(): Promise<Record<string, unknown>> {
    const line = await this.replies.next();
    if (line.done === true) throw new Error('the peer process closed its output');
    return JSON.parse(line.value) as Record<string, unknown>;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end(`${JSON.stringify({ op: 'exit' })}\n`);
    await exited;
  }
}

describe.skipIf(s3 === null)('two managers in two processes on one S3 bucket', () => {
  let peer: Peer | undefined;
  afterEach(async () => {
    await peer?.close();
  });

  it('each sees what the other publishes once caughtUp answers true', async () => {
    const io = await s3!.makeIo('tiering-peer');
    const tp = topicPartition(4);
    const here = new ObjectRemoteLogMetadataManager(io, ROOT);
    await here.assignPartitions([tp]);
    peer = await Peer.spawn({
      TIERING_PEER: JSON.stringify({ s3: { ...s3!.settings, bucket: io.bucket }, root: ROOT, tp }),
    });

    const mine = segment(tp, { start: 0, end: 99 });
    await here.addRemoteLogSegmentMetadata(mine);
    await here.updateRemoteLogSegmentMetadata(update(mine, 'COPY_SEGMENT_FINISHED'));
    expect(await peer.ask({ op: 'caughtUp' })).toEqual({ caughtUp: true });
    const found = (await peer.ask({ op: 'find', epoch: 0, offset: 42 }))
      .segment as RemoteLogSegmentMetadata;
    expect(found.segmentId.id).toBe(mine.segmentId.id);
    expect(found.state).toBe('COPY_SEGMENT_FINISHED');

    const theirs = segment(tp, { start: 100, end: 199 });
    expect(await peer.ask({ op: 'add', metadata: theirs })).toEqual({ ok: true });
    expect(await here.caughtUp(tp)).toBe(true);
    expect(idsOf(await here.listRemoteLogSegments(tp))).toEqual([
      mine.segmentId.id,
      theirs.segmentId.id,
    ]);
    // A retry of the peer's event from this process is recognised as applied.
    await here.addRemoteLogSegmentMetadata(theirs);
    expect(((await peer.ask({ op: 'list' })).segments as unknown[]).length).toBe(2);
  });
});
