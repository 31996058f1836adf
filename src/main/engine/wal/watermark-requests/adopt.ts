/**
 * The one rule that lets a console write the register without fencing its holder
 * (docs/design/watermark-requests.md, "Adoption"): a newer version is a *request version* the
 * holder adopts as its base iff every field but `cairn.watermark_requests` is exactly the
 * holder's (the epoch, the writer id and the reader stamp included) and its request log is the
 * holder's followed by new pending requests only. Anything else is another writer: fenced.
 *
 * Why the newest version alone decides: `cairn.writer_epoch` never decreases along the chain
 * (an opener writes epoch + 1 from the newest version; a requester copies the newest
 * version's fields), and exactly one opener wins each epoch. A newest version that still
 * carries the holder's epoch and writer id was therefore preceded, since the holder's own
 * version, only by versions of that same epoch - the requesters' - never by an opener's.
 * Pure: decides, never reads or writes.
 */
import type { ManifestFields } from '../../manifest/manifest-store';
import { decodeRequestLog, REQUEST_FIELDS, type RequestLog } from './fields';

function sameRequest(a: RequestLog[number], b: RequestLog[number]): boolean {
  return JSON.stringify(encodeForCompare(a)) === JSON.stringify(encodeForCompare(b));
}

function encodeForCompare(request: RequestLog[number]): unknown {
  return Object.fromEntries(
    Object.entries(request).map(([key, value]) => [
      key,
      typeof value === 'bigint' ? value.toString() : value,
    ]),
  );
}

function otherFieldsEqual(held: ManifestFields, newer: ManifestFields): boolean {
  const names = new Set([...Object.keys(held), ...Object.keys(newer)]);
  names.delete(REQUEST_FIELDS.requests);
  for (const name of names) if (held[name] !== newer[name]) return false;
  return true;
}

/** The requests `newer` added to `held`'s log, or null when `newer` is not a request version. */
export function addedRequests(held: ManifestFields, newer: ManifestFields): RequestLog | null {
  if (!otherFieldsEqual(held, newer)) return null;
  let before: RequestLog;
  let after: RequestLog;
  try {
    before = decodeRequestLog(held);
    after = decodeRequestLog(newer);
  } catch {
    return null; // a log that does not decode was not written by a requester that keeps the rule
  }
  if (after.length < before.length) return null;
  for (let at = 0; at < before.length; at += 1) {
    const kept = after[at];
    const mine = before[at];
    if (kept === undefined || mine === undefined || !sameRequest(mine, kept)) return null;
  }
  const added = after.slice(before.length);
  return added.every((request) => request.state === 'pending') ? added : null;
}

/** Whether the holder of `held` may adopt `newer` as its base (a requester's version). */
export function isRequestVersion(held: ManifestFields, newer: ManifestFields): boolean {
  return addedRequests(held, newer) !== null;
}
