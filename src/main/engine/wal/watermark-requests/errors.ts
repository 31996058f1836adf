/**
 * The typed refusals of a watermark request (docs/design/watermark-requests.md): each names
 * what the requester must do instead. Decides nothing.
 */
import { CairnError } from '../../errors';

/** The register's holder does not read requests (an older Cairn, or no writer ever opened). */
export class RequestsNotAcceptedError extends CairnError {
  override readonly code = 'RequestsNotAccepted' as const;
  constructor(
    readonly prefix: string,
    readonly epoch: bigint,
  ) {
    super(
      'RequestsNotAccepted',
      `the writer holding epoch ${epoch} of ${prefix} does not read watermark requests ` +
        '(a Cairn without them, or no writer opened): take the writer over instead',
      { prefix, epoch },
    );
  }
}

export class TooManyPendingRequestsError extends CairnError {
  override readonly code = 'TooManyPendingRequests' as const;
  constructor(
    readonly prefix: string,
    readonly pending: number,
  ) {
    super(
      'TooManyPendingRequests',
      `${pending} watermark requests already wait on ${prefix}: wait until the writer applies them`,
      { prefix, pending },
    );
  }
}

/** The register kept moving under the requester: nothing was written; try again. */
export class RegisterBusyError extends CairnError {
  override readonly code = 'RegisterBusy' as const;
  constructor(
    readonly prefix: string,
    readonly attempts: number,
  ) {
    super(
      'RegisterBusy',
      `the register of ${prefix} changed under ${attempts} attempts to add the request; nothing was written, try again`,
      { prefix, attempts },
    );
  }
}

export class NoRegisterError extends CairnError {
  override readonly code = 'NoRegister' as const;
  constructor(readonly prefix: string) {
    super('NoRegister', `${prefix} has no WAL register: no writer ever opened it`, { prefix });
  }
}
