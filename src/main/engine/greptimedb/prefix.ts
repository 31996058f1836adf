/**
 * GreptimeDB's rule for an instance's prefix, which Cairn applies to every raw prefix it is
 * given (`--prefix`, a prefix picked in the console): trimmed, one trailing `/` dropped; empty,
 * absolute, or with an empty, `.` or `..` component it is refused with `InvalidPrefix`.
 * Objects then live at `<prefix>/objects/<seq, 20 digits>.wal`. Never touches storage.
 */
import { InvalidPrefixError } from '../wal/errors';

export function normalizePrefix(raw: string): string {
  const trimmed = raw.trim();
  const prefix = trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed;
  if (prefix === '') throw new InvalidPrefixError(raw, 'it is empty');
  if (prefix.startsWith('/')) throw new InvalidPrefixError(raw, 'it is absolute');
  for (const part of prefix.split('/')) {
    if (part === '') throw new InvalidPrefixError(raw, 'it has an empty component');
    if (part === '.' || part === '..')
      throw new InvalidPrefixError(raw, `it has a '${part}' component`);
  }
  return prefix;
}
