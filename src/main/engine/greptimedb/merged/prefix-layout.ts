/**
 * Which GTWALOBJ v1 layout a GreptimeDB prefix is in, from what its scan read: chained (the
 * 54-byte header), merged (the 34-byte header), both - named as such with the first object of
 * each, never guessed - or none yet. Damaged objects count by the layout they were judged in.
 * Pure.
 */
import { MixedLayoutsError } from '../open-errors';
import type { GtScan } from '../scan';
import type { GtLayout } from '../writer-instance';

export type GtPrefixLayout = 'chained' | 'merged' | 'mixed' | 'empty';

export const GT_PREFIX_LAYOUT_NAMES: Readonly<Record<GtPrefixLayout, string>> = {
  chained: 'chained (54-byte header)',
  merged: 'merged (34-byte header, GreptimeDB main)',
  mixed: 'both layouts',
  empty: 'no object yet',
};

interface LayoutCount {
  objects: number;
  key: string | null;
}

function counted(scan: GtScan): Record<GtLayout, LayoutCount> {
  const counts: Record<GtLayout, LayoutCount> = {
    'chain-header': { objects: 0, key: null },
    'writer-instance-header': { objects: 0, key: null },
  };
  const seen = [...scan.objects, ...scan.damaged].sort((a, b) =>
    a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0,
  );
  for (const object of seen) {
    if (object.layout === null) continue;
    const count = counts[object.layout];
    count.objects += 1;
    count.key ??= object.key;
  }
  return counts;
}

export interface GtLayoutJudgement {
  readonly layout: GtPrefixLayout;
  /** Set when the prefix holds both layouts. */
  readonly mixed: MixedLayoutsError | null;
}

export function judgePrefixLayout(prefix: string, scan: GtScan): GtLayoutJudgement {
  const counts = counted(scan);
  const chained = counts['chain-header'];
  const merged = counts['writer-instance-header'];
  if (chained.objects > 0 && merged.objects > 0) {
    const mixed = new MixedLayoutsError(
      prefix,
      { objects: chained.objects, key: chained.key ?? '' },
      { objects: merged.objects, key: merged.key ?? '' },
    );
    return { layout: 'mixed', mixed };
  }
  if (merged.objects > 0) return { layout: 'merged', mixed: null };
  if (chained.objects > 0 || scan.damaged.length > 0) return { layout: 'chained', mixed: null };
  return { layout: 'empty', mixed: null };
}
