/**
 * The one API router both transports call. It owns the boundary: every input is validated
 * against the contract, the access policy is enforced here (read-only connections refuse
 * every mutation whatever the UI shows), operator actions are audited, and every failure
 * leaves as a typed wire error. Destructive calls must carry the typed confirmation their
 * dialog asks for (`confirmations.ts`), checked here, not only in the UI. It never touches
 * storage itself: handlers call services.
 */
import type { z } from 'zod';
import {
  contract,
  isProcedureName,
  type OutputOf,
  type ParsedInputOf,
  type ProcedureName,
} from '../../shared/contract';
import { confirmationPhrase } from '../../shared/contract/confirmations';
import type { WireError } from '../../shared/api-error';
import { isCairnError } from '../engine/errors';
import type { AuditLog } from '../services/audit-log';
import {
  ConfirmationRequiredError,
  InvalidInputError,
  ReadOnlyConnectionError,
  UnknownProcedureError,
} from '../services/errors';

export type Handlers = {
  [K in ProcedureName]: (input: ParsedInputOf<K>) => Promise<OutputOf<K>>;
};

export interface AccessPolicy {
  isOperator(connectionId: string): boolean;
}

export class ApiRouter {
  constructor(
    private readonly handlers: Handlers,
    private readonly policy: AccessPolicy,
    private readonly audit: AuditLog,
  ) {}

  async call(name: unknown, rawInput: unknown): Promise<unknown> {
    if (!isProcedureName(name)) throw new UnknownProcedureError(String(name));
    const declared = contract[name];
    const parsed = declared.input.safeParse(rawInput ?? {});
    if (!parsed.success) throw firstIssue(name, parsed.error);
    const input = parsed.data as Record<string, unknown>;
    const connectionId = typeof input.connectionId === 'string' ? input.connectionId : null;
    if (
      declared.access === 'operate' &&
      (connectionId === null || !this.policy.isOperator(connectionId))
    ) {
      throw new ReadOnlyConnectionError(connectionId ?? '(none)', name);
    }
    const phrase = confirmationPhrase(name, parsed.data as ParsedInputOf<typeof name>);
    if (phrase !== null && input.confirm !== phrase)
      throw new ConfirmationRequiredError(name, phrase);
    const handler = this.handlers[name] as (input: unknown) => Promise<unknown>;
    if (declared.access === 'read') return handler(input);
    return this.audited(name, connectionId, input, () => handler(input));
  }

  private async audited(
    action: string,
    connectionId: string | null,
    input: Record<string, unknown>,
    run: () => Promise<unknown>,
  ): Promise<unknown> {
    const target = targetOf(input) ?? connectionId ?? '';
    try {
      const result = await run();
      await this.audit.record({ connectionId, action, target, parameters: input, result: 'ok' });
      return result;
    } catch (error) {
      const wire = toWireError(error);
      await this.audit.record({
        connectionId,
        action,
        target,
        parameters: input,
        result: 'error',
        error: `${wire.code}: ${wire.message}`,
      });
      throw error;
    }
  }
}

/** What an audited action acts on, for the activity log: the first naming field the input has. */
function targetOf(input: Record<string, unknown>): string | undefined {
  for (const field of ['prefix', 'key', 'name', 'region', 'shard', 'id']) {
    const value = input[field];
    if (typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number')
      return String(value);
  }
  return undefined;
}

function firstIssue(name: string, error: z.ZodError): InvalidInputError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  return new InvalidInputError(name, field, issue?.message ?? 'invalid');
}

/** Every error leaves the main process in this shape; unknown ones lose their detail. */
export function toWireError(error: unknown): WireError {
  if (isCairnError(error))
    return { code: error.code, message: error.message, details: error.details };
  return { code: 'Internal', message: 'internal error (see the main process log)', details: {} };
}
