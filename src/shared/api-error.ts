/**
 * The one shape a failed call takes on the wire and in the renderer: the typed error's code,
 * its message and the fields it names. The renderer shows these; it never sees a stack.
 */
export type WireErrorDetails = Readonly<Record<string, string | number | bigint | boolean | null>>;

export interface WireError {
  readonly code: string;
  readonly message: string;
  readonly details: WireErrorDetails;
}

export class ApiError extends Error {
  readonly code: string;
  readonly details: WireErrorDetails;
  constructor(wire: WireError) {
    super(wire.message);
    this.name = wire.code;
    this.code = wire.code;
    this.details = wire.details;
  }
}

/** Replies of both transports: one per call, matched by `id`. */
export type CallReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: WireError };
