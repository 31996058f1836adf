/**
 * What changed between two reads of the same thing, for the views to mark it: the value a
 * field had before it moved, and the rows of a list written since its previous read.
 * Both compare renders (React's "state from the previous render" pattern), never time.
 */
import { useState } from 'react';

/**
 * The value before the last change, or null while it has not changed since first shown
 * (null or undefined is "not read yet": its first value is no change). `subject`: whose value
 * it is - a recycled row shows another item's value, which is no change of this one's.
 */
export function usePreviousValue<T>(value: T | null | undefined, subject?: unknown): T | null {
  const [seen, setSeen] = useState<{
    value: T | null | undefined;
    subject: unknown;
    before: T | null;
  }>({ value, subject, before: null });
  if (!Object.is(seen.subject, subject)) {
    setSeen({ value, subject, before: null });
    return null;
  }
  if (!Object.is(seen.value, value)) {
    const before = seen.value ?? null;
    setSeen({ value, subject, before });
    return before;
  }
  return seen.before;
}

interface ListRead {
  /** Keys of the rows read, joined by newlines (one string: cheap to compare per render). */
  readonly joined: string;
  /** The newest number of the whole list then (null: the list was empty). */
  readonly newest: bigint | null;
}

/**
 * The keys of `rows` written since `before` was read: not in that read, and numbered above
 * the newest it knew. Nothing is new without an earlier read. Pure.
 */
export function rowsWrittenSince(
  before: ListRead | null,
  rows: ReadonlyArray<{ readonly key: string; readonly seq: bigint }>,
): ReadonlySet<string> {
  if (before === null) return new Set();
  const seen = new Set(before.joined === '' ? [] : before.joined.split('\n'));
  const newest = before.newest;
  return new Set(
    rows
      .filter((row) => !seen.has(row.key) && (newest === null || row.seq > newest))
      .map((row) => row.key),
  );
}

/**
 * The rows that arrived with the latest read of a list of objects numbered in the order they
 * are written (a WAL prefix's sequences), by `rowsWrittenSince`: a row a collection moved onto
 * the page shown was written before - its position changed, not its novelty. `newest` is the
 * whole list's newest number (every page). A new `scope` (another filter) starts over: nothing
 * in its first read is new; another page of the same scope is no change either.
 */
export function useNewRows(
  scope: string,
  rows: ReadonlyArray<{ readonly key: string; readonly seq: bigint }> | undefined,
  newest: bigint | null | undefined,
): ReadonlySet<string> {
  const read: ListRead | null =
    rows === undefined || newest === undefined
      ? null
      : { joined: rows.map((row) => row.key).join('\n'), newest };
  const [seen, setSeen] = useState<{
    scope: string;
    read: ListRead | null;
    fresh: ReadonlySet<string>;
  }>({ scope, read, fresh: new Set() });
  if (seen.scope !== scope) {
    setSeen({ scope, read, fresh: new Set() });
    return new Set();
  }
  if (
    read !== null &&
    rows !== undefined &&
    (seen.read?.joined !== read.joined || seen.read.newest !== read.newest)
  ) {
    const fresh = rowsWrittenSince(seen.read, rows);
    setSeen({ scope, read, fresh });
    return fresh;
  }
  return seen.fresh;
}
