/**
 * Model-based test of the WAL (quality.md "Model-based tests"): random sequences of appends,
 * waits for seals, injected faults (unavailable creates, lost responses, delays), obsolete /
 * obsoleteAll, waitDurable, stop, reopen (takeover included), reads and read-only inspection,
 * judged against the reference log's invariants after every step, then one final clean reopen
 * that replays every region. The durable property is the main one; the enqueued property
 * checks what that mode promises instead. No timing is asserted. A failing run prints its seed
 * and shrunk commands: replay with CAIRN_MODEL_SEED=<seed>.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  MODEL_REGIONS,
  WAL_COMMANDS,
  withinLiveness,
  worldShape,
  type WorldShape,
} from './wal-commands';
import { WalWorld } from './wal-world';

const seed =
  process.env.CAIRN_MODEL_SEED === undefined ? undefined : Number(process.env.CAIRN_MODEL_SEED);
/** CAIRN_MODEL_RUNS raises the run count for a soak; the defaults keep the suite short. */
const runsOverride =
  process.env.CAIRN_MODEL_RUNS === undefined ? undefined : Number(process.env.CAIRN_MODEL_RUNS);

function modelProperty(ackMode: WorldShape['ackMode'], numRuns: number): Promise<void> {
  return fc.assert(
    fc.asyncProperty(
      worldShape(ackMode),
      fc.commands([...WAL_COMMANDS], { maxCommands: 50, size: 'max' }),
      async (shape, commands) => {
        const world = new WalWorld(shape);
        try {
          await world.start();
          await fc.asyncModelRun(() => ({ model: {}, real: world }), commands);
          await withinLiveness('the final reopen and replay', world.finish(MODEL_REGIONS));
        } finally {
          await world.dispose();
        }
      },
    ),
    { numRuns: runsOverride ?? numRuns, seed, endOnFailure: false },
  );
}

describe('the WAL against its reference model', () => {
  it('durable: every acknowledged entry exactly once, in order, through faults, obsolete and reopens', async () => {
    await modelProperty('durable', 40);
  }, 120_000);

  it('enqueued: every entry reported durable exactly once; a lost backlog is reported and bounded', async () => {
    await modelProperty('enqueued', 25);
  }, 120_000);
});
