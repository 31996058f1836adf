/**
 * The "obsolete up to" points of a bulk obsolete as a person types them - a region's latest
 * id, an entry id (`seq:position` or decimal), a time (the browser's local date and time) -
 * and the API's points made from them, or what is wrong with the text. Pure.
 */
import type {
  ObsoletePoint,
  ObsoletePointInput,
} from '../../../../shared/contract/wal-bulk-obsolete';
import { formatEntryId, parseEntryId } from '../../../../shared/id-notation';

export type PointKind = ObsoletePoint['kind'];

export interface PointDraft {
  readonly kind: PointKind;
  /** The id or the time typed (unused for `latest`). */
  readonly text: string;
}

export const LATEST: PointDraft = { kind: 'latest', text: '' };

export const POINT_KINDS: ReadonlyArray<{ readonly kind: PointKind; readonly label: string }> = [
  { kind: 'latest', label: 'its latest id' },
  { kind: 'id', label: 'an entry id' },
  { kind: 'time', label: 'a time' },
];

/**
 * The API's point for a draft, or the problem with its text. Ids travel as `seq:position`
 * text: the point is also a query key, which holds no bigint.
 */
export function pointOf(draft: PointDraft): { point: ObsoletePointInput } | { problem: string } {
  if (draft.kind === 'latest') return { point: { kind: 'latest' } };
  if (draft.kind === 'id') {
    const id = parseEntryId(draft.text);
    return id === null
      ? { problem: 'an entry id is seq:position or a decimal u64' }
      : { point: { kind: 'id', id: formatEntryId(id) } };
  }
  // `datetime-local` gives the local wall time without a zone: Date reads it as local.
  const atMs = draft.text === '' ? Number.NaN : new Date(draft.text).getTime();
  return Number.isFinite(atMs) && atMs >= 0
    ? { point: { kind: 'time', atMs } }
    : { problem: 'a time is a date and a time of day' };
}
