/**
 * A bulk obsolete is audited one entry per region, whatever its outcome: applied regions ok,
 * the region that failed with its cause, the regions never run named as such; a refusal
 * before any change names each region asked for.
 */
import { describe, expect, it } from 'vitest';
import { auditParts } from '../../src/main/api/audit-splits';
import { BulkObsoleteStoppedError } from '../../src/main/services/wal/errors';
import { toWireError } from '../../src/main/api/router';

const PREFIX = 'wal/nodes/0/generations/0';
const region = (n: number) => (1n << 32n) | BigInt(n);
const input = {
  connectionId: 'embedded',
  prefix: PREFIX,
  regions: [1, 2, 3, 4].map((n) => ({ region: region(n) })),
  upTo: { kind: 'latest' as const },
};

describe('audit entries of a bulk obsolete', () => {
  it('names each region of one that stopped midway', () => {
    const stopped = new BulkObsoleteStoppedError(
      PREFIX,
      '1:3',
      { code: 'Fenced', message: 'fenced by epoch 9' },
      [
        { region: '1:1', id: '5:1', result: 'ok' },
        { region: '1:2', id: '5:2', result: 'ok' },
        { region: '1:3', id: '5:3', result: 'error' },
        { region: '1:4', id: '5:4', result: 'not-run' },
      ],
    );
    const parts = auditParts('wal.obsolete.bulk', input, {
      ok: false,
      error: toWireError(stopped),
    });
    expect(parts?.map((part) => [part.target, part.result, part.error])).toEqual([
      ['1:1', 'ok', undefined],
      ['1:2', 'ok', undefined],
      ['1:3', 'error', 'Fenced: fenced by epoch 9'],
      ['1:4', 'error', 'NotRun: the bulk stopped at region 1:3'],
    ]);
  });

  it('names each region asked for when it was refused before any change', () => {
    const parts = auditParts('wal.obsolete.bulk', input, {
      ok: false,
      error: { code: 'RegionNotFound', message: 'region 1:4 does not exist', details: {} },
    });
    expect(parts?.map((part) => [part.target, part.result])).toEqual([
      ['1:1', 'error'],
      ['1:2', 'error'],
      ['1:3', 'error'],
      ['1:4', 'error'],
    ]);
    expect(parts?.[0]?.parameters).toMatchObject({ upTo: { kind: 'latest' }, bulk: 4 });
  });

  it('leaves every other call to one entry', () => {
    expect(
      auditParts(
        'wal.gc',
        { connectionId: 'embedded', prefix: PREFIX },
        { ok: true, output: null as never },
      ),
    ).toBeNull();
  });
});
