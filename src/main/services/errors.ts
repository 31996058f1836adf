/** Errors of the app layer (connections, access policy, calls), beside the engine's own. */
import { CairnError } from '../engine/errors';

export class ConnectionNotFoundError extends CairnError {
  constructor(id: string) {
    super('ConnectionNotFound', `no saved connection has id ${id}`, { id });
  }
}

export class ReadOnlyConnectionError extends CairnError {
  constructor(connectionId: string, action: string) {
    super(
      'ReadOnly',
      `${action} changes the store, and connection ${connectionId} is read-only: switch it to operator mode first`,
      { connectionId, action },
    );
  }
}

export class BuiltInConnectionError extends CairnError {
  constructor(id: string) {
    super('BuiltInConnection', `connection ${id} is the embedded store and cannot be removed`, {
      id,
    });
  }
}

export class ConnectionInUseError extends CairnError {
  constructor(id: string, reason: string) {
    super('ConnectionInUse', `connection ${id} cannot be removed: ${reason}`, { id, reason });
  }
}

export class InvalidInputError extends CairnError {
  constructor(procedure: string, field: string, problem: string) {
    super('InvalidInput', `${procedure}: ${field || 'input'}: ${problem}`, {
      procedure,
      field,
      problem,
    });
  }
}

export class UnknownProcedureError extends CairnError {
  constructor(name: string) {
    super('UnknownProcedure', `no procedure is named ${name.slice(0, 100)}`, {
      procedure: name.slice(0, 100),
    });
  }
}

export class PayloadTooLargeError extends CairnError {
  constructor(bytes: number, limit: number) {
    super('PayloadTooLarge', `a call of ${bytes} bytes exceeds the limit of ${limit} bytes`, {
      bytes,
      limit,
    });
  }
}

export class MalformedCallError extends CairnError {
  constructor(problem: string) {
    super('MalformedCall', `malformed call: ${problem}`, { problem });
  }
}

/** A connection sent more calls than it may have waiting at once; it must read its replies. */
export class TooManyCallsError extends CairnError {
  constructor(limit: number) {
    super('TooManyCalls', `more than ${limit} calls are waiting on this connection`, { limit });
  }
}

/**
 * A destructive call without the phrase its dialog asks the user to type. The phrase is not a
 * secret: the point is that a human (or a script on their behalf) named the target on purpose.
 */
export class ConfirmationRequiredError extends CairnError {
  constructor(procedure: string, expected: string) {
    super(
      'ConfirmationRequired',
      `${procedure} is destructive: confirm it by sending confirm: ${JSON.stringify(expected)}`,
      { procedure, expected },
    );
  }
}
