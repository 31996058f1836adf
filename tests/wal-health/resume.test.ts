/**
 * A verify records how far it read whole, page by page, in the coverage book, which the ledger
 * file keeps: a verify stopped part-way (a restart) resumes after the last page it finished
 * and, once it has read every object, is the prefix's complete pass - the objects read before
 * the stop counted once, the damage found before it kept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo, ListOptions } from '../../src/main/engine/objectio/object-io';
import { CoverageBook } from '../../src/main/services/wal/scrub/coverage-book';
import { DamageLedger } from '../../src/main/services/wal/scrub/damage-ledger';
import { LedgerFile } from '../../src/main/services/wal/scrub/ledger-file';
import { ScrubCancelled, ScrubGate } from '../../src/main/services/wal/scrub/scrub-gate';
import { emptyTally, scrubPrefix } from '../../src/main/services/wal/scrub/scrub-prefix';
import { listObjectsFrom } from '../../src/main/engine/wal/recovery';
import { DAMAGE_PREFIX, writeDamagedPrefix } from '../support/damaged-segment';

const SLOT = `embedded\n${DAMAGE_PREFIX}`;
let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The store listed two keys a page, so a scrub of a few objects has several pages. */
function pagedByTwo(io: ObjectIo): ObjectIo {
  const paged = Object.create(io) as ObjectIo;
  paged.list = (prefix: string, options: Omit<ListOptions, 'continuation'> = {}) =>
    io.list(prefix, { ...options, pageSize: 2 });
  return paged;
}

describe('a verify resumed after a restart', () => {
  it('reads only what the stopped pass had not, and counts the whole prefix once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-coverage-'));
    const store = new MemoryObjectIo();
    const damaged = await writeDamagedPrefix(store);
    const io = pagedByTwo(store);
    const target = { io, prefix: DAMAGE_PREFIX, format: 'cairn-v1' as const, slot: SLOT };

    // The first run stops during its second page (the app closed).
    const file = new LedgerFile(dir);
    const book: CoverageBook = new CoverageBook(Date.now, () =>
      file.saveCoverage(() => book.stored()),
    );
    const ledger: DamageLedger = new DamageLedger(Date.now, () => file.save(() => ledger.stored()));
    const gate = new ScrubGate();
    let verdicts = 0;
    const counting = Object.create(ledger) as DamageLedger;
    counting.recordVerdict = (slot, verdict, etag) => {
      ledger.recordVerdict(slot, verdict, etag);
      verdicts += 1;
      if (verdicts === 3) gate.cancel();
    };
    const first = emptyTally();
    await expect(scrubPrefix(target, counting, gate, first, { book })).rejects.toBeInstanceOf(
      ScrubCancelled,
    );
    await file.settled();
    expect(book.of(SLOT).complete).toBeNull();
    // Whole pages only: the page the stop met counts if every object of it was read.
    const stopped = book.of(SLOT).partial?.objects ?? 0;
    expect([2, 4]).toContain(stopped);

    // The next run reads the file and resumes after the first page.
    const again = new LedgerFile(dir);
    const restored = await again.loadAll();
    const next = new CoverageBook();
    next.restore(restored.coverage);
    const nextLedger = new DamageLedger();
    nextLedger.restore(restored.findings);
    const second = emptyTally();
    await scrubPrefix(target, nextLedger, new ScrubGate(), second, { book: next });
    const listed = await listObjectsFrom(store, DAMAGE_PREFIX);
    expect(second.checked).toBe(listed.length - stopped);
    expect(next.of(SLOT).partial).toBeNull();
    expect(next.of(SLOT).complete).toMatchObject({
      objects: listed.length,
      damaged: 1,
      throughSeq: listed.at(-1)?.seq,
    });
    // Found by the first run and kept: restored unconfirmed, shown once a read confirms it.
    expect(nextLedger.allFindings(SLOT).map((f) => f.key)).toEqual([damaged.key]);
  });

  it('starts over when the stopped pass is older than the verify age', () => {
    let now = 1_000;
    const book = new CoverageBook(() => now);
    book.progress(SLOT, { ...book.begin(SLOT, 60_000), afterKey: 'k', objects: 2 });
    now += 30_000;
    expect(book.begin(SLOT, 60_000)).toMatchObject({ afterKey: 'k', objects: 2 });
    now += 60_000;
    expect(book.begin(SLOT, 60_000)).toMatchObject({ afterKey: '', objects: 0, startedAtMs: now });
  });
});
