/**
 * The registry's decisions as pure functions: given the record a shard holds now (or none)
 * and one operation, what to write (if anything) and what to answer. The durable store runs
 * them after every read, and again after every lost compare-and-swap, so a racer's write is
 * judged on what it actually left, never re-applied blindly. Never touches storage or clocks.
 */
import type {
  MintOutcome,
  NamespaceOrigin,
  NamespacePlacement,
  NamespaceRecord,
  NamespaceState,
  ShardOwner,
} from './record';
import { samePlacement } from './validation';

/** What an operation does to a shard: nothing, or write this record; and what it answers. */
export type Decision<Answer> =
  | { readonly write: null; readonly answer: Answer }
  | { readonly write: NamespaceRecord; readonly answer: Answer };

/** The record state machine, as data: the states each state may move to. */
export const STATE_TRANSITIONS: Readonly<Record<NamespaceState, readonly NamespaceState[]>> = {
  active: ['deprecated'],
  deprecated: [],
};

export function canTransition(from: NamespaceState, to: NamespaceState): boolean {
  return STATE_TRANSITIONS[from].includes(to);
}

/** Only the owner mutates a shard; a shard nobody created yet will be its creator's. */
export function ownsShard(owner: ShardOwner | null, nodeId: number): boolean {
  return owner === null || owner.nodeId === nodeId;
}

/** `lastSeen` never moves backwards, whatever the clocks of the nodes that touch it. */
function refreshed(record: NamespaceRecord, now: number): NamespaceRecord {
  return now > record.lastSeen ? { ...record, lastSeen: now } : record;
}

function touch(current: NamespaceRecord, now: number): Decision<MintOutcome> {
  const next = refreshed(current, now);
  return next === current ? { write: null, answer: 'touched' } : { write: next, answer: 'touched' };
}

export function mintedRecord(name: string, origin: NamespaceOrigin, now: number): NamespaceRecord {
  return {
    name,
    origin,
    createdAt: now,
    lastSeen: now,
    config: {},
    state: 'active',
    placement: null,
  };
}

/** Create-if-absent; an existing record (whoever wrote it) only has `lastSeen` refreshed. */
export function decideRegister(
  current: NamespaceRecord | null,
  name: string,
  origin: NamespaceOrigin,
  now: number,
): Decision<MintOutcome> {
  if (current === null) return { write: mintedRecord(name, origin, now), answer: 'created' };
  return touch(current, now);
}

/** The same upsert with a caller's record: created as given, or only `lastSeen` refreshed. */
export function decidePut(
  current: NamespaceRecord | null,
  record: NamespaceRecord,
  now: number,
): Decision<MintOutcome> {
  if (current === null) return { write: record, answer: 'created' };
  return touch(current, now);
}

/** Absent: none, nothing minted. Same placement: no write. Else placement and `lastSeen` only. */
export function decidePlacement(
  current: NamespaceRecord | null,
  placement: NamespacePlacement,
  now: number,
): Decision<NamespaceRecord | null> {
  if (current === null) return { write: null, answer: null };
  if (samePlacement(current.placement, placement)) return { write: null, answer: current };
  const next = { ...refreshed(current, now), placement };
  return { write: next, answer: next };
}

/** Active to deprecated; deprecated or absent is a no-op. Nothing else of the record changes. */
export function decideDeprecate(current: NamespaceRecord | null): Decision<NamespaceRecord | null> {
  if (current === null || !canTransition(current.state, 'deprecated'))
    return { write: null, answer: current };
  const next: NamespaceRecord = { ...current, state: 'deprecated' };
  return { write: next, answer: next };
}

/** The owner after a take-over: this node, one epoch above whatever owned the shard before. */
export function decideTakeOwnership(current: ShardOwner | null, nodeId: number): ShardOwner {
  return { nodeId, ownerEpoch: current === null ? 1 : current.ownerEpoch + 1 };
}

/** The owner of a shard cell created on first use. */
export function creatorOwner(nodeId: number): ShardOwner {
  return { nodeId, ownerEpoch: 1 };
}

/** The listing order: ascending `createdAt`, ties by name (code-unit order). */
export function compareListed(a: NamespaceRecord, b: NamespaceRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
