/**
 * What a backend tells its controller about itself (`ObjectIo.link`): whether its requests wait
 * on a network round trip, and how many it runs at once. Imports nothing, so the ObjectIo
 * interface and every backend can name it without reaching into the controller.
 */
export interface LinkShape {
  /** Requests wait on a network round trip (an S3 endpoint), not on a local disk. */
  readonly remote: boolean;
  /** The most requests the backend runs at once rather than queueing out of sight (an S3 agent's sockets). */
  readonly maxInFlight: number;
}

/** A local directory's: its read thread and the pool keep up with this many. */
export const LOCAL_LINK: LinkShape = { remote: false, maxInFlight: 16 };
