/**
 * The public face of the namespace registry: the six operations of the spec, every one
 * idempotent and lock-free (races are reconciled inside, never surfaced). Owns the contract
 * only; the durable implementation is `ObjectNamespaceStore`.
 */
import type { MintOutcome, NamespaceOrigin, NamespacePlacement, NamespaceRecord } from './record';

export interface NamespaceStore {
  /** Create-if-absent (`created`), or refresh only `lastSeen` of the existing record (`touched`). */
  registerNamespace(name: string, origin: NamespaceOrigin): Promise<MintOutcome>;
  /** The same upsert with a whole record: created as given, or only `lastSeen` refreshed. */
  putNamespace(record: NamespaceRecord): Promise<MintOutcome>;
  /** The durable set, ascending by `createdAt`, ties by name. Raw truth: no filtering. */
  listNamespaces(): Promise<NamespaceRecord[]>;
  /** The record, or null for an absent name (never an error). */
  getNamespace(name: string): Promise<NamespaceRecord | null>;
  /** The updated record; null when absent (nothing minted). The same placement writes nothing. */
  setNamespacePlacement(
    name: string,
    placement: NamespacePlacement,
  ): Promise<NamespaceRecord | null>;
  /** Active to deprecated and the record after; deprecated or absent is a no-op (null if absent). */
  deprecateNamespace(name: string): Promise<NamespaceRecord | null>;
}

/** Told once per record this store minted, after it is durable (the API's "created" event). */
export type NamespaceCreatedListener = (record: NamespaceRecord) => void;
