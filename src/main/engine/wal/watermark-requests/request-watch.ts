/**
 * The live writer's side of watermark requests, outside the actor's step: notices pending
 * requests (at open - a new holder inherits what waited -, whenever the register adopts a
 * requester's version at a fence read or a lost race, and by a light poll while the writer is
 * idle: one `isCurrent` read every `pollMs`) and asks the actor to apply them, one apply at a
 * time, again when more arrived meanwhile. Owns no state of the requests: the register holds
 * them. It never writes the register itself and never applies anything once disposed.
 */
import type { WalRegister } from '../session';
import type { AppliedRequests } from './writer-apply';

/** How often an idle writer reads the register for requests (one `isCurrent`: two requests). */
export const DEFAULT_REQUEST_POLL_MS = 5_000;

export interface RequestWatchDeps {
  readonly register: WalRegister;
  /** The actor's apply command. */
  readonly apply: (report: (applied: AppliedRequests) => void) => Promise<void>;
  /** Told after each apply whose CAS passed and settled something. */
  readonly onApplied: (applied: AppliedRequests) => void;
  readonly pollMs: number;
}

export class RequestWatch {
  private applying = false;
  private again = false;
  private disposed = false;
  private polling = false;
  private readonly timer: ReturnType<typeof setInterval> | null;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: RequestWatchDeps) {
    this.unsubscribe = deps.register.onRequests(() => this.schedule());
    this.timer = deps.pollMs > 0 ? setInterval(() => this.poll(), deps.pollMs) : null;
    this.timer?.unref?.();
    if (deps.register.pendingRequests().length > 0) this.schedule();
  }

  /** Runs an apply now, or after the one running (requests that arrived meanwhile). */
  schedule(): void {
    if (this.disposed) return;
    if (this.applying) {
      this.again = true;
      return;
    }
    this.applying = true;
    this.again = false;
    void this.applyOnce().finally(() => {
      this.applying = false;
      if (this.again) this.schedule();
    });
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.unsubscribe();
  }

  /**
   * A failed apply (fenced, stopped, transient) leaves the requests pending in the register:
   * a later notice, poll or holder takes them up; nothing is lost, and nothing spins.
   */
  private async applyOnce(): Promise<void> {
    try {
      await this.deps.apply((applied) => {
        if (applied.settled.length > 0) this.deps.onApplied(applied);
      });
    } catch {
      // left pending, see above
    }
  }

  private poll(): void {
    if (this.disposed || this.polling) return;
    this.polling = true;
    // Adoption inside `isCurrent` tells the listener; pending ones left over are retried here.
    void this.deps.register
      .isCurrent()
      .then((current) => {
        if (current && this.deps.register.pendingRequests().length > 0) this.schedule();
      })
      .catch(() => undefined)
      .finally(() => {
        this.polling = false;
      });
  }
}
