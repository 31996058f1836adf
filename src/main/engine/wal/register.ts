/**
 * The WAL register as its epoch holder uses it (control.md, "Protocol" and "control fields"):
 * taking the epoch at open (step a), raising it above a listed object's epoch (step b), and
 * the holder's compare-and-swap updates and `isCurrent` fence reads. Owns the one rule that
 * makes fencing work: the holder knows every version it wrote (one operation in flight, an
 * unknown outcome settled before the next), so any other version it meets means another
 * writer took the epoch - `FencedError` naming that writer - and it stays fenced.
 *
 * One kind of version it did not write does not fence it: a console's watermark request
 * (docs/design/watermark-requests.md), a version that keeps every field but the request log
 * and only adds pending requests to it. The holder adopts such a version as its base - at a
 * fence read, or when it loses an update's race to one, then it re-runs the update on top -
 * and tells its listener that requests wait. Every version it writes stamps its epoch as the
 * one that reads requests.
 *
 * It must never write from a version it did not itself read, write or adopt by that rule,
 * never retry an update on any other Conflict (only `takeEpoch`, which holds nothing yet,
 * re-reads and tries again), and never prune unless it holds the epoch. It never lists or
 * reads WAL objects.
 */
import { randomUUID } from 'node:crypto';
import { CellExistsError, ConflictError } from '../cas/errors';
import { CellManifestStore } from '../manifest/cell-manifest-store';
import type {
  ManifestFields,
  ManifestStore,
  ManifestVersion,
  VersionedManifest,
} from '../manifest/manifest-store';
import type { ObjectIo } from '../objectio/object-io';
import { isStorageError } from '../objectio/errors';
import { decodeControlFields, emptyControlState, encodeControlFields } from './control-fields';
import { FencedError } from './errors';
import {
  addSealRecords,
  checkSealedDirectoryBudget,
  normalizeSealedDirectory,
} from './sealed-directory';
import type { ControlState, SealRecord, WalRegister } from './session';
import { addedRequests } from './watermark-requests/adopt';
import {
  decodeRequestLog,
  pendingOf,
  withReaderEpoch,
  withRequestLog,
  type PendingRequest,
  type RequestLog,
} from './watermark-requests/fields';

/** Request versions an update may meet and re-run on top of before it gives up (transient). */
export const MAX_REBASES = 16;

/** Old register versions are pruned after this many successful holder updates. */
export const PRUNE_EVERY_UPDATES = 64;

/** The register store of a WAL prefix: the CasCell at `<prefix>/manifest`. */
export function registerStoreOf(
  io: ObjectIo,
  prefix: string,
  options: { writerId?: string; maxDirectoryBytes?: number } = {},
): CellManifestStore {
  return new CellManifestStore(io, prefix, options);
}

/** A fresh random writer id (one per open). */
export function newWriterId(): string {
  return randomUUID();
}

interface HeldState {
  readonly version: ManifestVersion;
  readonly fields: ManifestFields;
  readonly control: ControlState;
}

function heldStateOf(manifest: VersionedManifest): HeldState {
  return {
    version: manifest.version,
    fields: manifest.fields,
    control: decodeControlFields(manifest.fields),
  };
}

/** The version the store's own writer last created and saw applied, when the store can tell. */
function ownLatestVersionOf(store: ManifestStore): number | null {
  return store instanceof CellManifestStore ? store.cell.lastWrittenVersion : null;
}

/** The fields of `control` over `previous`, stamped as read by the holder of its epoch. */
function holderFields(control: ControlState, previous: ManifestFields): Record<string, string> {
  return withReaderEpoch(encodeControlFields(control, previous), control.writerEpoch);
}

/** Reads the register's control state without writing anything (null: never created). */
export async function readControl(
  store: ManifestStore,
): Promise<{ version: ManifestVersion; control: ControlState } | null> {
  const manifest = await store.read();
  return manifest === null
    ? null
    : { version: manifest.version, control: decodeControlFields(manifest.fields) };
}

export class EpochRegister implements WalRegister {
  private held: HeldState;
  private fenced: FencedError | null = null;
  /** An update failed with its outcome unknown to us: re-read before anything else. */
  private uncertain = false;
  /** The version and fields of the update whose outcome is unknown (while `uncertain`). */
  private attempted: { version: number; fields: ManifestFields } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private updatesSincePrune = 0;
  private readonly requestListeners = new Set<() => void>();

  private constructor(
    private readonly store: ManifestStore,
    readonly prefix: string,
    held: HeldState,
  ) {
    this.held = held;
  }

  /**
   * Open step (a): `writer_epoch := writer_epoch + 1` with `writerId`, creating the register at
   * epoch 1 if it does not exist. A lost create or CAS race means another opener moved first:
   * re-read and try again on top of it (each loss is another opener's win, so this ends).
   */
  static async takeEpoch(
    store: ManifestStore,
    prefix: string,
    writerId: string,
  ): Promise<EpochRegister> {
    for (;;) {
      const current = await store.read();
      try {
        const taken =
          current === null
            ? await store.create(
                holderFields({ ...emptyControlState(), writerEpoch: 1n, writerId }, {}),
              )
            : await store.update(current.version, takeoverFields(current, writerId));
        return new EpochRegister(store, prefix, heldStateOf(taken));
      } catch (error) {
        if (error instanceof CellExistsError || error instanceof ConflictError) continue;
        throw error;
      }
    }
  }

  get epoch(): bigint {
    return this.held.control.writerEpoch;
  }

  get writerId(): string {
    return this.held.control.writerId;
  }

  /** The budget of the encoded sealed directory. */
  get directoryBudget(): number {
    return this.store.maxDirectoryBytes();
  }

  current(): { readonly version: ManifestVersion; readonly control: ControlState } {
    return { version: this.held.version, control: this.held.control };
  }

  /**
   * CAS from the holder's own latest version. The new sealed directory is normalized against
   * the new boundary and must fit the budget (`SegmentDirectoryFull`). Conflict -> `Fenced`.
   */
  update(change: (control: ControlState) => ControlState): Promise<ControlState> {
    return this.updateWithRequests((control, log) => ({ control: change(control), log }));
  }

  /**
   * `update`, with the request log too: `change` sees the held state and log and returns both,
   * written by one CAS. It may run more than once (once per request version met); only the
   * run whose CAS passed counts.
   */
  updateWithRequests(
    change: (
      control: ControlState,
      log: RequestLog,
    ) => { readonly control: ControlState; readonly log: RequestLog },
  ): Promise<ControlState> {
    return this.serialize(async () => {
      await this.settle();
      await this.write((held) => {
        const next = change(held.control, decodeRequestLog(held.fields));
        return holderFields(this.normalized(next.control), withRequestLog(held.fields, next.log));
      });
      await this.pruneNowAndThen();
      return this.held.control;
    });
  }

  /** The requests waiting in the state this holder last wrote or adopted. */
  pendingRequests(): PendingRequest[] {
    return pendingOf(decodeRequestLog(this.held.fields));
  }

  /** Called (synchronously, inside the register's queue) whenever an adopted version holds pending requests. */
  onRequests(listener: () => void): () => void {
    this.requestListeners.add(listener);
    return () => this.requestListeners.delete(listener);
  }

  /** Adds seal records (open step d, or a clean stop), reserving worst-case room for each. */
  seal(records: readonly SealRecord[]): Promise<ControlState> {
    return this.update((control) => ({
      ...control,
      segments: addSealRecords(control.segments, records, {
        boundary: control.boundary,
        budget: this.directoryBudget,
      }),
    }));
  }

  /**
   * Open step (b): take an epoch above `epoch` (an object carries it) from our own version.
   * Another version in between means another opener took the register: `Fenced`.
   */
  raiseEpochAbove(epoch: bigint): Promise<ControlState> {
    return this.serialize(async () => {
      await this.settle();
      if (epoch < this.held.control.writerEpoch) return this.held.control;
      await this.write((held) =>
        holderFields({ ...held.control, writerEpoch: epoch + 1n }, held.fields),
      );
      return this.held.control;
    });
  }

  /**
   * Step (a) for a holder that re-opens itself (wal.md, a spent start gap): `writer_epoch + 1`
   * with a new writer id, CASed from the version this holder knows - never over another
   * writer's version (`Fenced`), so a reopen never takes a prefix over. This object then holds
   * the new epoch; nothing the old epoch queued here can write under it by mistake, since
   * every write is serialized behind this one and read from the held state.
   */
  retakeEpoch(writerId: string): Promise<ControlState> {
    return this.serialize(async () => {
      await this.settle();
      await this.write((held) =>
        holderFields(
          { ...held.control, writerEpoch: held.control.writerEpoch + 1n, writerId },
          held.fields,
        ),
      );
      return this.held.control;
    });
  }

  /** Reads the register; `Fenced` if anyone but this holder wrote it since. */
  refresh(): Promise<ControlState> {
    return this.serialize(async () => {
      this.throwIfFenced();
      await this.resync();
      return this.held.control;
    });
  }

  /**
   * The durability fence: false once another writer has written the register. A newer
   * request version is adopted and counts as current: the read that found it started after
   * the fence's objects were durable and found no other epoch's version.
   */
  isCurrent(): Promise<boolean> {
    return this.serialize(async () => {
      if (this.fenced !== null) return false;
      try {
        if (this.uncertain) await this.resync();
        if (await this.store.isCurrent(this.held.version)) return true;
        await this.resync();
        return true;
      } catch (error) {
        if (error instanceof FencedError) return false;
        throw error;
      }
    });
  }

  /** Forgets old register versions (never the newest 16). Holder only. */
  prune(): Promise<number> {
    return this.serialize(async () => {
      await this.settle();
      this.updatesSincePrune = 0;
      return this.store.prune();
    });
  }

  // --- inside the queue -----------------------------------------------------------------------

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private throwIfFenced(): void {
    if (this.fenced !== null) throw this.fenced;
  }

  /** Before an operation: fenced stays fenced; an unknown outcome is learned first. */
  private async settle(): Promise<void> {
    this.throwIfFenced();
    if (this.uncertain) await this.resync();
  }

  private normalized(control: ControlState): ControlState {
    const segments = normalizeSealedDirectory(control.segments, control.boundary);
    checkSealedDirectoryBudget(segments, this.directoryBudget);
    return { ...control, segments };
  }

  /**
   * One CAS from our version of the fields `compute` makes from it. Conflict: a request
   * version is adopted and the CAS re-run on top of it (bounded); anything else fences us.
   * Transient: uncertain.
   */
  private async write(compute: (held: HeldState) => ManifestFields): Promise<void> {
    for (let rebase = 0; ; rebase += 1) {
      const fields = compute(this.held);
      try {
        const written = await this.store.update(this.held.version, fields);
        this.held = heldStateOf(written);
        return;
      } catch (error) {
        if (error instanceof ConflictError) {
          await this.resync(); // adopts a request version, or throws Fenced
          if (rebase < MAX_REBASES) continue;
        } else if (isStorageError(error)) {
          this.uncertain = true;
          this.attempted = { version: this.held.version + 1, fields };
        }
        throw error;
      }
    }
  }

  /**
   * Reads the register and adopts it if it is still ours: our own version, one our store
   * reports it created (an update whose response was lost), or a request version on top of
   * either. Anything else fences us.
   */
  private async resync(): Promise<void> {
    const read = await this.store.read();
    const ownLatest = ownLatestVersionOf(this.store);
    const attempted = this.attempted;
    this.attempted = null;
    if (read !== null && (read.version === this.held.version || read.version === ownLatest)) {
      this.adopt(read);
      return;
    }
    // Our lost update applied when the store says it created that version.
    const base =
      attempted !== null && ownLatest === attempted.version ? attempted.fields : this.held.fields;
    if (
      read !== null &&
      read.version > this.held.version &&
      addedRequests(base, read.fields) !== null
    ) {
      this.adopt(read);
      return;
    }
    this.uncertain = false;
    const control = read === null ? null : decodeControlFields(read.fields);
    this.fenced = new FencedError(
      control?.writerEpoch ?? 0n,
      control?.writerId ?? '(register gone)',
    );
    throw this.fenced;
  }

  private adopt(read: VersionedManifest): void {
    this.held = heldStateOf(read);
    this.uncertain = false;
    if (this.requestListeners.size > 0 && this.pendingRequests().length > 0)
      for (const listener of this.requestListeners) listener();
  }

  private async pruneNowAndThen(): Promise<void> {
    this.updatesSincePrune += 1;
    if (this.updatesSincePrune < PRUNE_EVERY_UPDATES) return;
    this.updatesSincePrune = 0;
    // Housekeeping only: a failed prune is retried after the next round of updates.
    await this.store.prune().catch(() => 0);
  }
}

function takeoverFields(current: VersionedManifest, writerId: string): Record<string, string> {
  const control = decodeControlFields(current.fields);
  return holderFields(
    { ...control, writerEpoch: control.writerEpoch + 1n, writerId },
    current.fields,
  );
}
