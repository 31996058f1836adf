/**
 * The caller actions of the WAL model test as fast-check commands: appends (awaited or left in
 * flight), waits for seals, injected storage faults, obsolete / obsoleteAll, stop, reopen,
 * reads and read-only inspection. Each command only chooses its arguments and calls the world;
 * the world and the reference log decide what is right.
 */
import fc from 'fast-check';
import type { FaultRule } from '../../../src/main/engine/objectio/faulty-object-io';
import { makeEntryId, seqOf, type EntryId } from '../../../src/main/engine/wal/ids';
import { REGION_A, REGION_B, REGION_C } from '../lanes/lane-kit';
import type { WalWorld } from './wal-world';

/** Writer settings that change the shape of the pipeline: tiny batches, one or many creates. */
export interface WorldShape {
  readonly ackMode: 'durable' | 'enqueued';
  readonly maxBatchBytes: number;
  readonly maxInFlightCreates: number;
}

export function worldShape(ackMode: WorldShape['ackMode']): fc.Arbitrary<WorldShape> {
  return fc.record({
    ackMode: fc.constant(ackMode),
    maxBatchBytes: fc.constantFrom(1, 600, 8 * 1024 * 1024),
    maxInFlightCreates: fc.integer({ min: 1, max: 4 }),
  });
}

export const MODEL_REGIONS = [REGION_A, REGION_B, REGION_C] as const;

type WalCommand = fc.AsyncCommand<object, WalWorld>;

/** A command that is always applicable: the world handles every state (stopped included). */
function command(label: string, run: (world: WalWorld) => Promise<void>): WalCommand {
  return {
    check: () => true,
    run: (_model, world) => withinLiveness(label, run(world)),
    toString: () => label,
  };
}

/** A liveness guard, not a timing claim: a command that never settles fails (and shrinks). */
const HUNG_AFTER_MS = 10_000;

export async function withinLiveness(label: string, running: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not settle (hung)`)), HUNG_AFTER_MS);
  });
  try {
    await Promise.race([running, hung]);
  } finally {
    clearTimeout(timer);
  }
}

const region = fc.constantFrom(...MODEL_REGIONS);

/** An id a caller could pass: none, one acknowledged (by index), or one just past it. */
type IdChoice =
  | { readonly kind: 'zero' }
  | { readonly kind: 'acked'; readonly index: number; readonly plus: 0n | 1n };

const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  fc.constant({ kind: 'zero' as const }),
  fc.record({
    kind: fc.constant('acked' as const),
    index: fc.nat(40),
    plus: fc.constantFrom(0n as const, 1n as const),
  }),
);

function resolveId(world: WalWorld, where: bigint, choice: IdChoice): EntryId {
  if (choice.kind === 'zero') return 0n;
  const ids = world.log.ackedIds(where);
  if (ids.length === 0) return 0n;
  return (ids[choice.index % ids.length] ?? 0n) + choice.plus;
}

const showId = (choice: IdChoice): string =>
  choice.kind === 'zero' ? '0' : `acked[${choice.index}]+${choice.plus}`;

const append = fc
  .record({
    parts: fc.array(fc.tuple(region, fc.integer({ min: 0, max: 300 })), {
      minLength: 1,
      maxLength: 4,
    }),
    awaited: fc.boolean(),
  })
  .map(({ parts, awaited }) =>
    command(
      `append(${parts.map(([r, n]) => `${r & 0xffn}:${n}`).join(',')}${awaited ? '' : ', in flight'})`,
      (w) => w.append(parts, awaited),
    ),
  );

const settleAll = fc.constant(command('settle in-flight appends', (w) => w.settleInFlight()));

const waitForSeals = fc
  .integer({ min: 0, max: 25 })
  .map((ms) =>
    command(`wait ${ms} ms`, () => new Promise<void>((resolve) => setTimeout(resolve, ms))),
  );

const faultRule: fc.Arbitrary<FaultRule> = fc.oneof(
  fc.record({
    op: fc.constant('putIfAbsent' as const),
    key: fc.constant(/objects\//),
    kind: fc.constant('unavailable' as const),
    count: fc.integer({ min: 1, max: 2 }),
  }),
  fc.record({
    op: fc.constant('putIfAbsent' as const),
    key: fc.constantFrom(/objects\//, /manifest\//),
    kind: fc.constantFrom('apply-then-lose' as const, 'apply-then-5xx' as const),
    count: fc.constant(1),
  }),
  fc.record({
    op: fc.constantFrom('putIfAbsent' as const, 'get' as const, 'head' as const),
    key: fc.constantFrom(/objects\//, /manifest\//),
    kind: fc.constant('delay' as const),
    count: fc.integer({ min: 1, max: 3 }),
    delayMs: fc.integer({ min: 5, max: 40 }),
  }),
);

const fault = faultRule.map((rule) =>
  command(`fault(${rule.op} ${String(rule.key)} ${rule.kind} x${rule.count ?? '∞'})`, async (w) =>
    w.io.inject(rule),
  ),
);

const obsolete = fc
  .record({
    where: region,
    choice: fc.oneof(
      idChoice,
      fc.record({ kind: fc.constant('future' as const), ahead: fc.integer({ min: 1, max: 3 }) }),
    ),
  })
  .map(({ where, choice }) =>
    command(
      `obsolete(${where & 0xffn}, ${choice.kind === 'future' ? `future+${choice.ahead}` : showId(choice)})`,
      (w) => {
        // A future id names an object above every one acknowledged: it moves the sequence floor.
        const id =
          choice.kind === 'future'
            ? makeEntryId(seqOf(w.log.maxAckedId()) + BigInt(choice.ahead), 1n)
            : resolveId(w, where, choice);
        return w.obsolete(where, id);
      },
    ),
  );

const obsoleteAll = region.map((where) =>
  command(`obsoleteAll(${where & 0xffn})`, (w) => w.obsoleteAll(where)),
);

const waitDurable = region.map((where) =>
  command(`waitDurable(${where & 0xffn}, handed out)`, (w) => w.waitDurable(where)),
);

const stop = fc.constant(command('stop', (w) => w.stop()));
const spendStartGap = fc.constant(
  command('every create fails until the start gap is spent', (w) => w.spendStartGap()),
);
const reopen = fc.constant(command('reopen', (w) => w.reopen()));

const read = fc
  .record({ where: region, choice: idChoice })
  .map(({ where, choice }) =>
    command(`read(${where & 0xffn}, from ${showId(choice)})`, (w) =>
      w.read(where, resolveId(w, where, choice)),
    ),
  );

const inspect = fc
  .record({ where: region, choice: idChoice })
  .map(({ where, choice }) =>
    command(`inspect + read-only read(${where & 0xffn}, from ${showId(choice)})`, (w) =>
      w.inspect(where, resolveId(w, where, choice)),
    ),
  );

/** Appends weigh most; the others often enough that most runs reopen and obsolete. */
export const WAL_COMMANDS: ReadonlyArray<fc.Arbitrary<WalCommand>> = [
  append,
  append,
  append,
  append,
  append,
  append,
  settleAll,
  waitForSeals,
  fault,
  fault,
  obsolete,
  obsoleteAll,
  waitDurable,
  stop,
  reopen,
  reopen,
  spendStartGap,
  read,
  read,
  inspect,
];
