/**
 * The one API router both transports call. It owns the boundary: every input is validated
 * against the contract, the access policy is enforced here (a connection is read-only for
 * every session that has not switched it to operator mode, whatever the UI shows), operator
 * actions are audited with the session that acted, and every failure leaves as a typed wire
 * error; a call that acts on several targets (a bulk obsolete) is audited one entry per target
 * (`audit-splits.ts`). The transport says who calls (`Caller`); in-process calls are the process's own. Destructive calls must carry the typed confirmation their
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
import { auditParts, type CallOutcome } from './audit-splits';
import { writeAhead } from '../services/audit/write-ahead';
import { processLog } from '../services/process-log';
import { PROCESS_CALLER, type Caller, type Session } from '../services/caller';
import { CallCredit } from '../services/audit/call-credit';
import {
  ConfirmationRequiredError,
  InvalidInputError,
  ReadOnlyConnectionError,
  UnknownProcedureError,
} from '../services/errors';

export type Handlers = {
  [K in ProcedureName]: (input: ParsedInputOf<K>, caller: Caller) => Promise<OutputOf<K>>;
};

export interface AccessPolicy {
  isOperator(connectionId: string, session: Session): boolean;
  /** For the audit log: the connection's name, or null when there is none by this id. */
  nameOf(connectionId: string): Promise<string | null>;
}

export class ApiRouter {
  constructor(
    private readonly handlers: Handlers,
    private readonly policy: AccessPolicy,
    private readonly audit: AuditLog,
  ) {}

  async call(name: unknown, rawInput: unknown, caller: Caller = PROCESS_CALLER): Promise<unknown> {
    if (!isProcedureName(name)) throw new UnknownProcedureError(String(name));
    const declared = contract[name];
    const parsed = declared.input.safeParse(rawInput ?? {});
    if (!parsed.success) throw firstIssue(name, parsed.error);
    const input = parsed.data as Record<string, unknown>;
    const connectionId = typeof input.connectionId === 'string' ? input.connectionId : null;
    if (
      declared.access === 'operate' &&
      (connectionId === null || !this.policy.isOperator(connectionId, caller.session))
    ) {
      throw new ReadOnlyConnectionError(connectionId ?? '(none)', name);
    }
    const phrase = confirmationPhrase(name, parsed.data as ParsedInputOf<typeof name>);
    if (phrase !== null && input.confirm !== phrase)
      throw new ConfirmationRequiredError(name, phrase);
    const handler = this.handlers[name] as (input: unknown, caller: Caller) => Promise<unknown>;
    if (declared.access === 'read') return handler(input, caller);
    return this.audited(name, connectionId, input, caller.session, (credit) =>
      handler(input, { ...caller, credit }),
    );
  }

  private async audited(
    action: ProcedureName,
    connectionId: string | null,
    input: Record<string, unknown>,
    session: Session,
    run: (credit: CallCredit) => Promise<unknown>,
  ): Promise<unknown> {
    const target = targetOf(input) ?? connectionId ?? '';
    // Named before the call: a removal leaves no name to look up after it.
    const subject = connectionId ?? connectionNamedBy(action, input);
    const connection = (subject === null ? null : await this.policy.nameOf(subject)) ?? undefined;
    // What the call causes (the deletions after an obsolete) is audited under its id, after it.
    const credit = new CallCredit(action, session.name, connectionId, input);
    const entry = {
      connectionId,
      connection,
      session: session.name,
      callId: credit.callId,
      action,
      target,
    };
    // Written and flushed before the call acts; refused (AuditUnavailable) when it cannot be.
    const intent = await writeAhead(this.audit, { ...entry, parameters: input });
    const outcomeEntries = (outcome: CallOutcome<ProcedureName>) => {
      const parts = auditParts(action, input as ParsedInputOf<ProcedureName>, outcome);
      // A call on several targets: one entry per target, in order.
      if (parts !== null) return parts.map((part) => ({ ...entry, ...part }));
      return [
        outcome.ok
          ? { ...entry, parameters: input, result: 'ok' as const }
          : {
              ...entry,
              parameters: input,
              result: 'error' as const,
              error: `${outcome.error.code}: ${outcome.error.message}`,
            },
      ];
    };
    try {
      const result = await run(credit);
      await intent.settle(outcomeEntries({ ok: true, output: result as OutputOf<ProcedureName> }));
      return result;
    } catch (error) {
      await intent.settle(outcomeEntries({ ok: false, error: wireErrorOf(error) }));
      throw error;
    } finally {
      // The deletions the call caused are written after its own entries.
      credit.markAudited();
      await credit.settled();
    }
  }
}

/** The connection a `connections.*` call acts on names it `id`. */
function connectionNamedBy(action: ProcedureName, input: Record<string, unknown>): string | null {
  return action.startsWith('connections.') && typeof input.id === 'string' ? input.id : null;
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
  if (!isCairnError(error))
    processLog.error({ err: error }, 'internal error: a call failed with an untyped error');
  return wireErrorOf(error);
}

/** `toWireError` without the log line (the router's audit names the error; the reply logs it). */
function wireErrorOf(error: unknown): WireError {
  if (isCairnError(error))
    return { code: error.code, message: error.message, details: error.details };
  return { code: 'Internal', message: 'internal error (see the main process log)', details: {} };
}
