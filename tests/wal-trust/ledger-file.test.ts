/**
 * The damage ledger's file: findings round-trip with their ids exact; a file that is not a
 * ledger this app wrote is never trusted (the ledger starts empty, one warning says so) and
 * the next save replaces it; many changes in a row leave the last state on disk.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DamageLedger } from '../../src/main/services/wal/scrub/damage-ledger';
import { LedgerFile } from '../../src/main/services/wal/scrub/ledger-file';

const SLOT = 'conn\nwal/nodes/0/generations/0';
const KEY = 'wal/nodes/0/generations/0/objects/00000000000000000007.wal';
const REGION = (1n << 32n) | 5n;

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

function fileIn(warnings: string[] = []): LedgerFile {
  return new LedgerFile(dir, (message) => warnings.push(message));
}

function ledgerOn(file: LedgerFile): DamageLedger {
  const ledger: DamageLedger = new DamageLedger(Date.now, () => file.save(() => ledger.stored()));
  return ledger;
}

describe('LedgerFile', () => {
  it('keeps findings across a restart, ids exact, to be confirmed again before shown', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-ledger-'));
    const file = fileIn();
    const ledger = ledgerOn(file);
    ledger.recordVerdict(
      SLOT,
      { key: KEY, seq: 7n, size: 3, ok: false, check: 'segment-crc', region: REGION },
      'etag-1',
    );
    ledger.recordSkipped(SLOT, {
      key: KEY,
      seq: 7n,
      regionId: REGION,
      firstId: (7n << 20n) | 1n,
      lastId: (7n << 20n) | 4n,
      check: 'segment-crc',
      detail: '',
    });
    await file.settled();

    const restored = await fileIn().load();
    expect(restored).toEqual([
      {
        slot: SLOT,
        findings: [
          expect.objectContaining({
            key: KEY,
            seq: 7n,
            size: 3,
            etag: 'etag-1',
            regions: [REGION],
            ranges: [{ regionId: REGION, firstId: (7n << 20n) | 1n, lastId: (7n << 20n) | 4n }],
            checkedAtMs: 0,
          }),
        ],
      },
    ]);
  });

  it('never trusts a file it did not write, and replaces it at the next save', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-ledger-'));
    const warnings: string[] = [];
    await writeFile(join(dir, 'damage-ledger.json'), '{"format":"something-else","prefixes":1}');
    const file = fileIn(warnings);
    expect(await file.load()).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('is not one this app wrote')]);
    const ledger = ledgerOn(file);
    ledger.recordVerdict(SLOT, { key: KEY, seq: 7n, size: 3, ok: false, check: 'object-crc' }, 'e');
    ledger.recordVerdict(SLOT, { key: KEY, seq: 7n, size: 3, ok: true }, 'e');
    ledger.recordVerdict(SLOT, { key: KEY, seq: 7n, size: 3, ok: false, check: 'header-crc' }, 'e');
    await file.settled();
    const [prefix] = await fileIn().load();
    expect(prefix?.findings.map((finding) => finding.check)).toEqual(['header-crc']);
  });
});
