/**
 * The typed confirmations of destructive calls: which procedures need one and the phrase the
 * user must type, as a function of the call's input. The renderer's dialogs show the phrase
 * and send what was typed as `confirm`; the main process's router refuses the call unless
 * `confirm` equals the phrase, so a script or a page that skips the dialog is refused too.
 * One table, so the phrase the UI asks for and the one the router checks cannot drift.
 */
import type { ParsedInputOf, ProcedureName } from './index';
import { shardLabel } from './namespaces';
import { formatWalRegion } from './wal';
import { bulkObsoletePhrase } from './wal-bulk-obsolete';

type PhraseOf<K extends ProcedureName> = (input: ParsedInputOf<K>) => string | null;

/** What a user types to confirm a partition delete: `<topic>-<n>`, or `<topicId>-<n>` when unnamed. */
export function partitionPhrase(partition: {
  readonly topicId: string;
  readonly partition: number;
  readonly topic?: string | null;
}): string {
  return `${partition.topic ?? partition.topicId}-${partition.partition}`;
}

export function shardPhrase(shard: number): string {
  return `shard ${shardLabel(shard)}`;
}

const phrases: { readonly [K in ProcedureName]?: PhraseOf<K> } = {
  'wal.obsolete': (input) => formatWalRegion(input.region),
  'wal.obsoleteAll': (input) => formatWalRegion(input.region),
  'wal.obsolete.bulk': (input) => bulkObsoletePhrase(input.regions),
  'wal.obsolete.request': (input) => formatWalRegion(input.region),
  'wal.namespaces.delete': (input) => formatWalRegion(input.region),
  'wal.gc': (input) => input.prefix,
  // Opening a writer fences others only when taking over from a live one.
  'wal.writer.open': (input) => (input.takeOver ? input.prefix : null),
  'namespaces.deprecate': (input) => input.name,
  'namespaces.takeOwnership': (input) => shardPhrase(input.shard),
  'segments.deletePartition': (input) => partitionPhrase(input),
};

/** The phrase `name` needs for this (validated) input, or null when it needs none. */
export function confirmationPhrase<K extends ProcedureName>(
  name: K,
  input: ParsedInputOf<K>,
): string | null {
  const phraseOf = phrases[name];
  return phraseOf === undefined ? null : phraseOf(input);
}

/** The procedures that can need a confirmation, for tests and docs. */
export const CONFIRMED_PROCEDURES = Object.keys(phrases) as ProcedureName[];
