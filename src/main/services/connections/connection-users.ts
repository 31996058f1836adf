/**
 * What a service keeps for a connection, as the removal of that connection sees it: a service
 * that holds something the operator must end first (a writer that holds an epoch) says so and
 * the removal is refused; everything else it keeps (views, caches, stores opened for reads) it
 * drops once the connection is gone, before the connection's storage client is closed.
 */
export interface ConnectionUser {
  /** Why `connectionId` cannot be removed now (it names what to stop first), or null. */
  holdOn(connectionId: string): string | null;
  /** Drops what it keeps for `connectionId`, which no longer exists; waits for its reads. */
  release(connectionId: string): Promise<void>;
}
