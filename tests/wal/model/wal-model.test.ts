/**
 * Model-based test of the WAL (quality.md "Model-based tests"): random sequences of appends,
 * waits, injected faults (unavailable creates, lost responses, delays), obsolete, stop,
 * reopen (takeover included), reads and read-only inspection, judged against the reference
 * log's invariants after every step, then one final clean reopen that replays every region.
 * Durable mode; no timing is asserted. A failing run prints its seed and shrunk commands:
 * replay with CAIRN_MODEL_SEED=<seed> (and the path fast-check prints, if needed).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { MODEL_REGIONS, WAL_COMMANDS, worldShape } from './wal-commands';
import { WalWorld } from './wal-world';

const seed =
  process.env.CAIRN_MODEL_SEED === undefined ? undefined : Number(process.env.CAIRN_MODEL_SEED);
/** CAIRN_MODEL_RUNS raises the run count for a soak; the default keeps the suite short. */
const numRuns = Number(process.env.CAIRN_MODEL_RUNS ?? 40);

describe('the WAL against its reference model', () => {
  it('keeps every acknowledged entry, exactly once, in order, through faults, obsolete and reopens', async () => {
    await fc.assert(
      fc.asyncProperty(
        worldShape,
        fc.commands([...WAL_COMMANDS], { maxCommands: 50, size: 'max' }),
        async (shape, commands) => {
          const world = new WalWorld(shape);
          try {
            await world.start();
            await fc.asyncModelRun(() => ({ model: {}, real: world }), commands);
            await world.finish(MODEL_REGIONS);
          } finally {
            await world.dispose();
          }
        },
      ),
      { numRuns, seed, endOnFailure: false },
    );
  }, 120_000);
});
