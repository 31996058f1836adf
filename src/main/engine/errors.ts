/**
 * The root of every typed error the engine raises. Owns the shape that crosses the API:
 * a stable `code` callers match on, a message that names what is wrong, and the fields
 * the message was made from. Never carries a stack to the user.
 */
export type ErrorDetail = string | number | bigint | boolean | null;

export class CairnError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, ErrorDetail>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = code;
  }
}

export function isCairnError(error: unknown): error is CairnError {
  return error instanceof CairnError;
}
