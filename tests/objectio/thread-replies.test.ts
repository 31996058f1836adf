/**
 * The store threads' bookkeeping of unanswered requests: each reply reaches its own waiter
 * once, a stopped thread's waiters all get the stop's answer, and the worker holds the
 * process open exactly while something waits.
 */
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ThreadReplies } from '../../src/main/engine/objectio/thread-replies';

/** A worker that only records whether it is referenced. */
function recordingWorker(): { worker: Worker; calls: string[] } {
  const calls: string[] = [];
  const worker = { ref: () => calls.push('ref'), unref: () => calls.push('unref') };
  return { worker: worker as unknown as Worker, calls };
}

describe('ThreadReplies', () => {
  it('answers each waiter once, by id, and references the worker only while one waits', () => {
    const { worker, calls } = recordingWorker();
    const replies = new ThreadReplies<string>();
    const got: string[] = [];
    const first = replies.add(worker, (reply) => got.push(`first:${reply}`));
    const second = replies.add(worker, (reply) => got.push(`second:${reply}`));
    expect(first).not.toBe(second);
    expect(calls).toEqual(['ref']);

    replies.answer(worker, second, 'b');
    replies.answer(worker, second, 'again'); // no longer waiting
    replies.answer(worker, 99, 'unknown');
    expect(calls).toEqual(['ref']);
    replies.answer(worker, first, 'a');
    expect(got).toEqual(['second:b', 'first:a']);
    expect(calls).toEqual(['ref', 'unref']);

    replies.add(worker, () => undefined);
    expect(calls).toEqual(['ref', 'unref', 'ref']);
  });

  it('hands the stop answer to every waiter, and nothing after', () => {
    const { worker } = recordingWorker();
    const replies = new ThreadReplies<string>();
    const got: string[] = [];
    const id = replies.add(worker, (reply) => got.push(`a:${reply}`));
    replies.add(worker, (reply) => got.push(`b:${reply}`));
    replies.answerAll('stopped');
    replies.answer(worker, id, 'late');
    expect(got).toEqual(['a:stopped', 'b:stopped']);
  });
});
