import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommandQueue } from '../../../src/main/engine/wal/actor/command-queue';
import type { ControlCommand } from '../../../src/main/engine/wal/actor/write-state';

function command(index: number): ControlCommand {
  const noop = (): void => undefined;
  return {
    kind: index % 3 === 0 ? 'obsolete' : 'control',
    start: () => null,
    resolve: noop,
    reject: noop,
  };
}

describe('the actor command queue', () => {
  it('keeps arrival order through any mix of pushes and shifts, across compactions', () => {
    const step = fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 3000 }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const queue = new CommandQueue<ControlCommand>();
        const model: ControlCommand[] = [];
        let made = 0;
        for (const s of steps) {
          if (s === -1) {
            const taken = Math.min(model.length, 1500);
            for (let i = 0; i < taken; i++) {
              expect(queue.first()).toBe(model.shift());
              queue.shift();
            }
          } else {
            for (let i = 0; i < s; i++) {
              const next = command(made++);
              queue.push(next);
              model.push(next);
            }
          }
          expect(queue.length).toBe(model.length);
          expect(queue.first()).toBe(model[0]);
        }
        expect(queue.count((c) => c.kind === 'obsolete')).toBe(
          model.filter((c) => c.kind === 'obsolete').length,
        );
        expect(queue.takeAll()).toEqual(model);
        expect(queue.length).toBe(0);
        expect(queue.first()).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it('shifting an empty queue changes nothing', () => {
    const queue = new CommandQueue<ControlCommand>();
    queue.shift();
    expect(queue.length).toBe(0);
    queue.push(command(1));
    expect(queue.length).toBe(1);
  });
});
