/**
 * The requests a worker thread of the store has not answered yet (`LocalReadThread`,
 * `S3Thread`): ids for the messages, each request's waiter, and the worker kept referenced
 * only while something waits, so an idle thread never holds the process open.
 */
import type { Worker } from 'node:worker_threads';

export class ThreadReplies<R> {
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: R) => void>();

  /** Registers a waiter; the id it returns goes in the request. */
  add(worker: Worker, settle: (reply: R) => void): number {
    if (this.waiting.size === 0) worker.ref();
    const id = this.nextId++;
    this.waiting.set(id, settle);
    return id;
  }

  /** Hands `reply` to the waiter of `id`, unless none waits any more (the thread stopped). */
  answer(worker: Worker | null, id: number, reply: R): void {
    const settle = this.waiting.get(id);
    if (settle === undefined) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) worker?.unref();
    settle(reply);
  }

  /** Hands `reply` to every waiter: the thread stopped before answering them. */
  answerAll(reply: R): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const settle of waiting) settle(reply);
  }
}
