/**
 * Model-based test of watermark requests (docs/design/watermark-requests.md; quality.md
 * "Model-based tests"): random sequences of appends, console requests (reachable or above
 * every id, some with their response lost), direct obsoletes, GC passes, races of all three,
 * lost responses of the holder's register writes, crashes and take-overs, judged after every
 * command: no request lost or settled twice, no watermark above what was asked, no live
 * writer fenced by a request; at the end a new holder has applied everything and every region
 * replays exactly its acknowledged ids above its watermark. No timing is asserted. A failing
 * run prints its seed: replay with CAIRN_MODEL_SEED=<seed>.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { withinLiveness } from '../model/wal-commands';
import { REGIONS, RequestsWorld } from './requests-world';

const seed =
  process.env.CAIRN_MODEL_SEED === undefined ? undefined : Number(process.env.CAIRN_MODEL_SEED);
const runs = process.env.CAIRN_MODEL_RUNS === undefined ? 20 : Number(process.env.CAIRN_MODEL_RUNS);

type Run = (world: RequestsWorld) => Promise<void>;

function command(label: string, run: Run): fc.AsyncCommand<object, RequestsWorld> {
  return {
    check: () => true,
    run: async (_model, world) => {
      await withinLiveness(label, run(world));
      await world.check();
    },
    toString: () => label,
  };
}

const region = fc.constantFrom(...REGIONS);
const pick = fc.oneof(fc.nat({ max: 20 }), fc.constant('future' as const));

const COMMANDS = [
  fc
    .tuple(region, fc.integer({ min: 1, max: 3 }))
    .map(([r, n]) => command(`append(${r}, ${n})`, (w) => w.append(r, n))),
  fc
    .tuple(region, pick, fc.boolean())
    .map(([r, p, lose]) =>
      command(`submit(${r}, ${p}, lose=${lose})`, (w) => w.submit(r, p, lose)),
    ),
  fc
    .tuple(region, fc.nat({ max: 20 }))
    .map(([r, p]) => command(`obsolete(${r}, ${p})`, (w) => w.obsolete(r, p))),
  fc.constant(command('gc', (w) => w.gc())),
  fc.tuple(region, fc.nat({ max: 20 })).map(([r, p]) =>
    command(`race(append, submit(${r}, ${p}), gc)`, async (w) => {
      await Promise.all([w.append(r, 1), w.submit(r, p, false), w.gc()]);
    }),
  ),
  fc.constant(
    command('lose the holder next register response', async (w) => w.loseNextRegisterWrite()),
  ),
  fc.constant(command('crash', async (w) => w.crash())),
  fc.constant(command('take over', (w) => w.openHolder())),
  fc.constant(command('quiesce', (w) => w.quiesce())),
];

describe('watermark requests against their model', () => {
  it('no request lost or applied twice, nothing hidden above what was asked, no live writer fenced', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 24 }), async (commands) => {
        const world = new RequestsWorld();
        try {
          await world.openHolder();
          await fc.asyncModelRun(() => ({ model: {}, real: world }), commands);
          await withinLiveness('the final take-over and replay', world.finish());
        } finally {
          await world.dispose();
        }
      }),
      { numRuns: runs, seed, endOnFailure: false },
    );
  }, 60_000);
});
