/**
 * Errors of the CAS register: the two ways a compare-and-swap can lose, a stored version
 * that is not what its key says, and a version no cell can hold. Storage errors pass
 * through the register unchanged; these are the only ones it adds.
 */
import { CairnError } from '../errors';
import { BackendError } from '../objectio/errors';

/** The cell moved past the witnessed version: re-read and decide again. */
export class ConflictError extends CairnError {
  override readonly code = 'Conflict' as const;
  constructor(
    readonly cell: string,
    readonly version: number,
  ) {
    super('Conflict', `register ${cell} changed since version ${version} was read`, {
      cell,
      version,
    });
  }
}

/** A concurrent creator initialised the cell first: re-read. */
export class CellExistsError extends CairnError {
  override readonly code = 'AlreadyExists' as const;
  constructor(readonly cell: string) {
    super('AlreadyExists', `register ${cell} already exists`, { cell });
  }
}

/**
 * A stored version that cannot be what its key says: unparsable, or a body whose version
 * disagrees with its key. Terminal like any Backend error (it stays in the storage errors'
 * closed set, code 'Backend'); the class tells a corrupt register from a failing store.
 */
export class CellCorruptError extends BackendError {
  constructor(
    key: string,
    endpoint: string,
    readonly problem: string,
  ) {
    super(key, endpoint, `corrupt register version (${problem})`);
  }
}

/** A version number that no cell can hold (below 1, fractional or beyond 20 digits). */
export class InvalidVersionError extends CairnError {
  override readonly code = 'InvalidVersion' as const;
  constructor(
    readonly cell: string,
    readonly version: number,
  ) {
    super('InvalidVersion', `register ${cell} has no version ${version}`, { cell, version });
  }
}
