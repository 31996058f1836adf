/**
 * What changed between two reads of the same thing, for the views to mark it: the value a
 * field had before it moved, and the keys of a list that were not in its previous read.
 * Both compare renders (React's "state from the previous render" pattern), never time.
 */
import { useState } from 'react';

/**
 * The value before the last change, or null while it has not changed since first shown
 * (null or undefined is "not read yet": its first value is no change).
 */
export function usePreviousValue<T>(value: T | null | undefined): T | null {
  const [seen, setSeen] = useState<{ value: T | null | undefined; before: T | null }>({
    value,
    before: null,
  });
  if (!Object.is(seen.value, value)) {
    const before = seen.value ?? null;
    setSeen({ value, before });
    return before;
  }
  return seen.before;
}

/**
 * The keys that arrived with the latest read of a list (not in the read before it). A new
 * `scope` (another page, another filter) starts over: nothing in it is "new".
 */
export function useNewKeys(
  scope: string,
  keys: readonly string[] | undefined,
): ReadonlySet<string> {
  const joined = keys?.join('\n') ?? null;
  const [seen, setSeen] = useState<{
    scope: string;
    joined: string | null;
    fresh: ReadonlySet<string>;
  }>({ scope, joined, fresh: new Set() });
  if (seen.scope !== scope) {
    setSeen({ scope, joined, fresh: new Set() });
    return new Set();
  }
  if (seen.joined !== joined && keys !== undefined) {
    const before = new Set(seen.joined === null ? keys : seen.joined.split('\n'));
    const fresh = new Set(keys.filter((key) => !before.has(key)));
    setSeen({ scope, joined, fresh });
    return fresh;
  }
  return seen.fresh;
}
