/**
 * Crediting what a call caused to the call (issue #48 item 4): every audited call gets an id,
 * and what it sets off - the garbage-collection passes after an obsolete, a bulk obsolete or
 * a GC - is audited under that id, the call's session, connection and parameters, and written
 * only after the call's own entry, so Activity reads in the order things happened. The router
 * makes the credit and says when the call's entry is written (`markAudited`); whoever does the
 * follow-up work hands its entry to `follow`, and the router waits for them (`settled`) before
 * the call returns, so a call's entries are all there when it answers. Owns no storage and no
 * entry shapes (deletion-audit.ts has those).
 */
import { randomUUID } from 'node:crypto';

/** Who caused a follow-up: a call, as the audit log recorded it. */
export interface CallCause {
  readonly callId: string;
  readonly action: string;
  readonly session: string;
  readonly connectionId: string | null;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export class CallCredit implements CallCause {
  readonly callId = randomUUID();
  private audited = false;
  private release: () => void = () => undefined;
  private readonly auditedOnce: Promise<void>;
  private followUps: Array<Promise<void>> = [];

  constructor(
    readonly action: string,
    readonly session: string,
    readonly connectionId: string | null,
    readonly parameters: Readonly<Record<string, unknown>>,
  ) {
    this.auditedOnce = new Promise<void>((resolve) => {
      this.release = resolve;
    });
  }

  /** The call's own entry is written: follow-ups may be written now. */
  markAudited(): void {
    this.audited = true;
    this.release();
  }

  /**
   * Writes a follow-up entry once the call's own entry is written. Never rejects the caller's
   * flow: a failed write is reported by `settled`.
   */
  follow(write: () => Promise<void>): Promise<void> {
    const run = this.audited ? write() : this.auditedOnce.then(write);
    this.followUps.push(run.catch(() => undefined));
    return run;
  }

  get isAudited(): boolean {
    return this.audited;
  }

  /** Resolves once every follow-up handed in so far (and during the wait) is written. */
  async settled(): Promise<void> {
    for (let seen = 0; seen < this.followUps.length;) {
      const batch = this.followUps.slice(seen);
      seen = this.followUps.length;
      await Promise.all(batch);
    }
  }

  /** The cause as an entry names it. */
  cause(): CallCause {
    return {
      callId: this.callId,
      action: this.action,
      session: this.session,
      connectionId: this.connectionId,
      parameters: this.parameters,
    };
  }
}

/**
 * A collection the app starts by itself, not for a call: it says so, and why (e.g. "watermark
 * requests applied" with the requests' ids).
 */
export interface AppCause {
  readonly why: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * Runs `write` after the call's entry. Resolves once written when it can be written now (no
 * credit, or the call's entry is written); otherwise at once - the router waits for it
 * (`settled`) before the call answers, and the call must not wait for its own entry.
 */
export function writeAfter(
  credit: CallCredit | null | undefined,
  write: () => Promise<void>,
): Promise<void> {
  if (credit === null || credit === undefined) return write();
  const run = credit.follow(write);
  return credit.isAudited ? run : Promise.resolve();
}
