/**
 * The Manifest's version history as diffs: each version says what changed from the one before
 * it, field by field, in the console's words - not every field of every version.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ManifestView, RegionsView } from '../../src/shared/contract/wal';
import { formatEntryId, formatRegionId } from '../../src/shared/id-notation';
import { registerChanges } from '../../src/main/services/wal/register-diff';
import { CONNECTION, PREFIX, seed, walApp, type WalApp } from './support';

const BASE = {
  'cairn.writer_epoch': '3',
  'cairn.writer_id': 'w3',
  'cairn.tail': '{"seq":"10","epoch":"3"}',
  'cairn.boundary': '0',
  'cairn.watermarks': '{"4294967297":"1048577"}',
  'cairn.segments': '[{"firstEpoch":"2","lastEpoch":"2","lastSeq":"5","reason":"taken-over"}]',
};

const texts = (before: Record<string, string> | null, after: Record<string, string>) =>
  registerChanges(before, after).map((change) => change.text);

describe('register changes', () => {
  it('names only the fields that moved, with before and after', () => {
    expect(
      texts(BASE, {
        ...BASE,
        'cairn.tail': '{"seq":"12","epoch":"3"}',
        'cairn.boundary': '64',
        'cairn.watermarks': '{"4294967297":"7340033","4294967298":"2097153"}',
      }),
    ).toEqual([
      'tail seq 10 · epoch 3 → seq 12 · epoch 3',
      'boundary 0 → 64',
      'watermark 1:1 1:1 → 7:1',
      'watermark 1:2 none → 2:1',
    ]);
  });

  it('says a new epoch and the seal record it added', () => {
    expect(
      texts(BASE, {
        ...BASE,
        'cairn.writer_epoch': '4',
        'cairn.writer_id': 'w4',
        'cairn.segments':
          '[{"firstEpoch":"2","lastEpoch":"2","lastSeq":"5","reason":"taken-over"},{"firstEpoch":"3","lastEpoch":"3","lastSeq":"10","reason":"stopped"}]',
      }),
    ).toEqual([
      'writer epoch 3 → 4',
      'writer id w3 → w4',
      '+ sealed epochs 3 (stopped, last seq 10)',
    ]);
  });

  it('tells an unchanged version, an oldest version and a field it cannot decode', () => {
    expect(texts(BASE, BASE)).toEqual([]);
    expect(texts(null, { 'cairn.writer_epoch': '1', 'cairn.writer_id': 'w1' })).toEqual([
      'writer epoch 0 → 1',
      'writer id none → w1',
    ]);
    expect(texts(BASE, { ...BASE, 'cairn.boundary': 'sixty-four', 'x.note': 'hi' })).toEqual([
      'cairn.boundary changed',
      'x.note added',
    ]);
  });
});

describe('wal.manifest history', () => {
  let app: WalApp;
  afterEach(() => app.close());

  it("an obsolete's version says which watermark moved", async () => {
    app = await walApp();
    await seed(app.io, 40, 1);
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const [region] = ((await app.call('wal.regions', { prefix: PREFIX })) as RegionsView).regions;
    if (region === undefined) throw new Error('a region expected');
    const name = formatRegionId(region.regionId);
    await app.call('wal.obsolete', {
      prefix: PREFIX,
      region: region.regionId,
      id: region.firstId,
      confirm: name,
    });
    const manifest = (await app.call('wal.manifest', { prefix: PREFIX })) as ManifestView;
    const texts = manifest.history.flatMap((entry) => entry.changes.map((c) => c.text));
    expect(texts).toContain(`watermark ${name} none → ${formatEntryId(region.firstId)}`);
    // Each version lists what it changed, not its every field.
    expect(manifest.history.every((entry) => entry.changes.length < 7)).toBe(true);
  });
});
