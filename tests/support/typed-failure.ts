/** How tests read a typed failure: its code, fields and message, or a clear test failure. */
import { isCairnError } from '../../src/main/engine/errors';

export interface TypedFailure {
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly message: string;
}

/** The typed error `promise` rejects with; fails the test if it resolves or throws untyped. */
export async function failureOf(promise: Promise<unknown>): Promise<TypedFailure> {
  try {
    await promise;
  } catch (error) {
    if (isCairnError(error))
      return { code: error.code, details: { ...error.details }, message: error.message };
    throw error;
  }
  throw new Error('expected a typed error, but the call succeeded');
}

/** The `code` of a caught value, when it has one. */
export function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}
