/**
 * Model-based test of the CasCell: random creates, updates (current or stale), reads,
 * isCurrent checks, pruning and history from two clients, with responses of creates lost
 * (applied, applied with the read-back failing too, or not applied), against a reference
 * register of a few numbers. After every step the stored versions are exactly the range the
 * model keeps: nothing lost, nothing doubled, no recreated version left behind.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CasCell } from '../../src/main/engine/cas/cas-cell';
import type { CellFields } from '../../src/main/engine/cas/cell-snapshot';
import { CellExistsError, ConflictError } from '../../src/main/engine/cas/errors';
import { versionKey, versionOfKey } from '../../src/main/engine/cas/version-key';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { ScriptedObjectIo } from './scripted-io';

const CELL = 'model/cell';
const KEPT = 16;

/** The reference register: current version (0 = never created), its fields, lowest stored. */
interface Model {
  version: number;
  fields: CellFields;
  lowest: number;
}

interface Real {
  readonly memory: MemoryObjectIo;
  readonly scripted: ScriptedObjectIo;
  readonly faulty: FaultyObjectIo;
  readonly clients: readonly CasCell[];
}

type Loss = 'none' | 'lost' | 'lost-unreadable' | 'not-applied';
type Expected = { ok: CellFields } | 'Conflict' | 'AlreadyExists' | 'Unavailable';

const stored = (m: Model, version: number): boolean =>
  m.version > 0 && version >= m.lowest && version <= m.version;

/** What a create of `version` from `base` must answer, whatever the loss, per the model. */
function expectedCreate(m: Model, base: number, fields: CellFields, loss: Loss): Expected {
  const current = base === m.version;
  const lost: Expected = base === 0 ? 'AlreadyExists' : 'Conflict';
  // A base that does not exist is refused before any create is attempted.
  if (!attemptsCreate(m, base)) return 'Conflict';
  if (loss === 'not-applied') {
    if (current) return 'Unavailable';
    // Read back: someone's version is there (lost the race), or nothing is and the base is gone.
    return stored(m, base + 1) ? lost : 'Unavailable';
  }
  return current ? { ok: fields } : lost;
}

function attemptsCreate(m: Model, base: number): boolean {
  return base === 0 || stored(m, base);
}

function arm(real: Real, loss: Loss, version: number): void {
  if (loss === 'lost') real.faulty.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
  if (loss === 'lost-unreadable') {
    real.faulty.inject({ op: 'putIfAbsent', kind: 'apply-then-5xx', count: 1 });
    real.faulty.inject({ op: 'get', kind: 'unavailable', count: 1 });
  }
  if (loss === 'not-applied') real.scripted.loseCreateOf(versionKey(CELL, version));
}

async function outcomeOf(
  call: () => Promise<unknown>,
): Promise<{ ok: CellFields; version: number } | string> {
  try {
    const snapshot = (await call()) as { fields: CellFields; version: number };
    return { ok: snapshot.fields, version: snapshot.version };
  } catch (error) {
    if (error instanceof ConflictError) return 'Conflict';
    if (error instanceof CellExistsError) return 'AlreadyExists';
    if (error instanceof Error && 'code' in error && error.code === 'Unavailable')
      return 'Unavailable';
    throw error;
  }
}

class WriteCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    private readonly client: number,
    /** null: create; otherwise how far behind the current version the witnessed one is. */
    private readonly staleness: number | null,
    private readonly fields: CellFields,
    private readonly loss: Loss,
  ) {}

  check(): boolean {
    return true;
  }

  async run(m: Model, real: Real): Promise<void> {
    const base = this.staleness === null ? 0 : Math.max(1, m.version - this.staleness);
    const expected = expectedCreate(m, base, this.fields, this.loss);
    const cell = real.clients[this.client] as CasCell;
    const call = () => (base === 0 ? cell.create(this.fields) : cell.update(base, this.fields));
    arm(real, this.loss, base + 1);
    let outcome = await outcomeOf(call);
    if (this.loss === 'lost-unreadable' && attemptsCreate(m, base)) {
      // The outcome stayed unknown; an as-is retry learns it and must not apply twice.
      expect(outcome).toBe('Unavailable');
      outcome = await outcomeOf(call);
    }
    real.faulty.clear();
    real.scripted.disarm();
    if (typeof expected === 'object') {
      expect(outcome).toEqual({ ok: this.fields, version: base + 1 });
      m.version = base + 1;
      m.fields = this.fields;
    } else {
      expect(outcome).toBe(expected);
    }
  }

  toString(): string {
    return `${this.staleness === null ? 'create' : `update(-${this.staleness})`}#${this.client} ${JSON.stringify(this.fields)} ${this.loss}`;
  }
}

class ReadCommand implements fc.AsyncCommand<Model, Real> {
  constructor(private readonly client: number) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, real: Real): Promise<void> {
    const snapshot = await (real.clients[this.client] as CasCell).read();
    expect(
      snapshot === null ? null : { version: snapshot.version, fields: snapshot.fields },
    ).toEqual(m.version === 0 ? null : { version: m.version, fields: m.fields });
  }
  toString(): string {
    return `read#${this.client}`;
  }
}

class IsCurrentCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    private readonly client: number,
    private readonly offset: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, real: Real): Promise<void> {
    const version = Math.max(1, m.version - this.offset);
    expect(await (real.clients[this.client] as CasCell).isCurrent(version)).toBe(
      version === m.version,
    );
  }
  toString(): string {
    return `isCurrent#${this.client}(-${this.offset})`;
  }
}

class PruneCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    private readonly client: number,
    private readonly keep: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, real: Real): Promise<void> {
    const held = m.version === 0 ? 0 : m.version - m.lowest + 1;
    const doomed = Math.max(0, held - Math.max(KEPT, this.keep));
    expect(await (real.clients[this.client] as CasCell).prune(this.keep)).toBe(doomed);
    m.lowest += doomed;
  }
  toString(): string {
    return `prune#${this.client}(${this.keep})`;
  }
}

class HistoryCommand implements fc.AsyncCommand<Model, Real> {
  constructor(private readonly limit: number) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, real: Real): Promise<void> {
    const versions = (await (real.clients[0] as CasCell).history(this.limit)).map((s) => s.version);
    const first = m.version === 0 ? 1 : Math.max(m.lowest, m.version - this.limit + 1);
    expect(versions).toEqual(
      Array.from({ length: Math.max(0, m.version - first + 1) }, (_, i) => m.version - i),
    );
  }
  toString(): string {
    return `history(${this.limit})`;
  }
}

async function storedVersions(io: MemoryObjectIo): Promise<number[]> {
  const page = await io.listPage(`${CELL}/`);
  return page.objects.map((o) => versionOfKey(CELL, o.key) ?? -1);
}

const client = fc.integer({ min: 0, max: 1 });
const fieldsArb = fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 3 }), {
  maxKeys: 2,
});
const lossArb = fc.oneof(
  { arbitrary: fc.constant<Loss>('none'), weight: 5 },
  { arbitrary: fc.constantFrom<Loss>('lost', 'lost-unreadable', 'not-applied'), weight: 3 },
);
const stalenessArb = fc.oneof(
  { arbitrary: fc.constant(0), weight: 6 },
  { arbitrary: fc.integer({ min: 1, max: 20 }), weight: 1 },
);

const commands = fc.commands(
  [
    fc.tuple(client, fieldsArb, lossArb).map(([c, f, l]) => new WriteCommand(c, null, f, l)),
    // Updates dominate, so runs grow past the 16 kept versions and pruning bites.
    fc
      .tuple(client, stalenessArb, fieldsArb, lossArb)
      .map(([c, s, f, l]) => new WriteCommand(c, s, f, l)),
    fc
      .tuple(client, stalenessArb, fieldsArb, lossArb)
      .map(([c, s, f, l]) => new WriteCommand(c, s, f, l)),
    fc
      .tuple(client, stalenessArb, fieldsArb, lossArb)
      .map(([c, s, f, l]) => new WriteCommand(c, s, f, l)),
    fc
      .tuple(client, stalenessArb, fieldsArb, lossArb)
      .map(([c, s, f, l]) => new WriteCommand(c, s, f, l)),
    fc
      .tuple(client, stalenessArb, fieldsArb, lossArb)
      .map(([c, s, f, l]) => new WriteCommand(c, s, f, l)),
    client.map((c) => new ReadCommand(c)),
    fc.tuple(client, fc.integer({ min: 0, max: 3 })).map(([c, o]) => new IsCurrentCommand(c, o)),
    fc.tuple(client, fc.integer({ min: 0, max: 24 })).map(([c, k]) => new PruneCommand(c, k)),
    fc.integer({ min: 0, max: 20 }).map((l) => new HistoryCommand(l)),
  ],
  { maxCommands: 100, size: 'max' },
);

describe('CasCell against a reference register', () => {
  it('agrees with the model under lost responses and pruning', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const memory = new MemoryObjectIo();
        const scripted = new ScriptedObjectIo(memory);
        const faulty = new FaultyObjectIo(scripted);
        const real: Real = {
          memory,
          scripted,
          faulty,
          clients: [
            new CasCell(faulty, CELL, { writerId: 'w' }),
            new CasCell(faulty, CELL, { writerId: 'w' }),
          ],
        };
        const model: Model = { version: 0, fields: {}, lowest: 1 };
        await fc.asyncModelRun(
          () => ({ model, real }),
          [...cmds].map((cmd) => checkedAfter(cmd)),
        );
      }),
      { numRuns: 60 },
    );
  });
});

/** Run `cmd`, then check that storage holds exactly the versions the model keeps. */
function checkedAfter(cmd: fc.AsyncCommand<Model, Real>): fc.AsyncCommand<Model, Real> {
  return {
    check: (m) => cmd.check(m),
    async run(m, real) {
      await cmd.run(m, real);
      const expected =
        m.version === 0
          ? []
          : Array.from({ length: m.version - m.lowest + 1 }, (_, i) => m.lowest + i);
      expect(await storedVersions(real.memory)).toEqual(expected);
    },
    toString: () => cmd.toString(),
  };
}
