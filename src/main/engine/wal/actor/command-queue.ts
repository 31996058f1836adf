/**
 * The actor's commands in arrival order. Not a bare array: a saturated writer holds tens of
 * thousands of appends waiting for pipeline room, and `Array.prototype.shift` on a backing
 * store that large (V8 keeps it in large-object space, which it cannot trim from the front)
 * copies every element behind the head - once per admitted append. Here taking the head
 * moves an index, and the taken slots are dropped in one copy once they are half the array.
 * Generic over what it holds, so it imports nothing of the actor (write-state.ts owns the
 * command types and makes a queue of them).
 */

/** Below this many taken slots the array is left as it is: a copy would cost more. */
const COMPACT_FROM = 1024;

export class CommandQueue<Command> {
  /** Taken slots hold undefined, so a taken command is not kept alive. */
  private items: Array<Command | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(command: Command): void {
    this.items.push(command);
  }

  /** The oldest command, still queued. */
  first(): Command | undefined {
    return this.items[this.head];
  }

  /** Removes the oldest command (the one `first` gave). */
  shift(): void {
    if (this.head >= this.items.length) return;
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= COMPACT_FROM && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Every queued command, oldest first, leaving the queue empty. */
  takeAll(): Command[] {
    const taken = this.items.slice(this.head) as Command[];
    this.items = [];
    this.head = 0;
    return taken;
  }

  /** How many queued commands `test` holds for. */
  count(test: (command: Command) => boolean): number {
    let count = 0;
    for (let i = this.head; i < this.items.length; i++)
      if (test(this.items[i] as Command)) count += 1;
    return count;
  }
}
