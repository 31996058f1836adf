/**
 * The damage a connection's prefixes are known to hold, as the WAL views ask for it: the
 * ledger's findings (confirmed with the store) placed by the catalog replays read, per prefix
 * or per object; and the scrubs that fill the ledger, started on a prefix the console names
 * or on the whole fleet. Owns the ledger and the scrub jobs; reads storage only through them.
 * With a ledger file the findings outlive the process: a restart shows them again once the
 * store confirms each object is still the one found damaged, by reading it through its
 * format's checks; the findings of connections removed meanwhile are pruned. Beside the damage
 * it keeps what the scrubs covered (the coverage book, in the same file), and with
 * `backgroundScrub` it verifies by itself each prefix a view reads that is not verified within
 * the verify age.
 */
import type { ObjectDamage } from '../../../../shared/contract/wal-damage';
import type { ScrubJobView } from '../../../../shared/contract/wal-scrub';
import type { ObjectCatalog } from '../../../engine/wal/catalog';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { fleetSourceOf, type FleetDeps } from '../fleet/fleet-source';
import { checkObjectKey, type Located } from '../wal-locate';
import { DamageLedger, type DamageFinding } from './damage-ledger';
import type { LedgerFile, StoredPrefix } from './ledger-file';
import { isCairnError } from '../../../engine/errors';
import { verifierOf } from './scrub-prefix';
import type { WalFormat } from '../../../engine/wal-read/format';
import type { ObjectVerdict } from '../../../engine/wal/verify';
import { damagesOf } from './damage-views';
import { ScrubService } from './scrub-service';
import type { ScrubOwner } from './scrub-owners';
import { CoverageBook, type PrefixCoverage } from './coverage-book';
import { DEFAULT_VERIFY_MAX_AGE_MS } from './coverage-view';
import { BackgroundScrub } from './background-scrub';
import type { CoverageView } from '../../../../shared/contract/wal-coverage';
import { slotParts } from '../wal-locate';

export interface FindingsDeps {
  /** The fleet's reads (its walk finds the prefixes a fleet scrub verifies). */
  readonly fleet: FleetDeps;
  /** The catalog replays of the prefix read: the writer's here, else the read model's. */
  catalogOf(at: Located): Promise<ObjectCatalog | null>;
  /** A prefix's scrub ended: show its findings in the fleet. */
  onPrefixScrubbed(connectionId: string, prefix: string): Promise<void>;
  /** Where the findings outlive the process (the app's data directory); none in most tests. */
  readonly ledgerFile?: LedgerFile;
  /** A verify older than this no longer counts (default 24 h). */
  readonly verifyMaxAgeMs?: number;
  /** Verify, in the background, each prefix read that is not verified within the age. */
  readonly backgroundScrub?: boolean;
}

export class DamageFindings {
  readonly ledger: DamageLedger;
  readonly coverage: CoverageBook;
  readonly scrubs: ScrubService;
  readonly maxAgeMs: number;
  private readonly background: BackgroundScrub | null;
  /** Resolves once an earlier run's findings (the ledger file) are back in the ledger. */
  private readonly restored: Promise<void>;

  constructor(private readonly deps: FindingsDeps) {
    const file = deps.ledgerFile;
    this.maxAgeMs = deps.verifyMaxAgeMs ?? DEFAULT_VERIFY_MAX_AGE_MS;
    // Saves wait for the file's earlier state to be restored: a save never drops what it held.
    this.ledger = new DamageLedger(
      Date.now,
      file === undefined
        ? undefined
        : () => void this.restored.then(() => file.save(() => this.ledger.stored())),
    );
    this.coverage = new CoverageBook(
      Date.now,
      file === undefined
        ? undefined
        : () => void this.restored.then(() => file.saveCoverage(() => this.coverage.stored())),
    );
    this.restored =
      file === undefined
        ? Promise.resolve()
        : file.loadAll().then(async ({ findings, coverage }) => {
            await this.restore(findings);
            this.coverage.restore(coverage);
          });
    this.scrubs = new ScrubService({
      ledger: this.ledger,
      locate: (id, prefix) => deps.fleet.locate(id, prefix),
      walkFleet: async (id, found) => {
        await fleetSourceOf(id, deps.fleet).walk(found);
      },
      onPrefixScrubbed: (id, prefix) => deps.onPrefixScrubbed(id, prefix),
      coverage: { book: this.coverage, maxAgeMs: this.maxAgeMs },
      onBackgroundFailed: (id, prefix) => this.background?.failed(id, prefix),
    });
    this.background =
      deps.backgroundScrub === true
        ? new BackgroundScrub({
            start: (id, queue) => this.scrubs.startBackground(id, queue),
          })
        : null;
  }

  /** What verifies covered of the located prefix (restored from the file first). */
  async coverageOf(at: Located): Promise<PrefixCoverage> {
    await this.restored;
    return this.coverage.of(at.slot);
  }

  /** A slot's findings (confirmed with the store) and coverage, for a prefix not located (the CLI). */
  async atSlot(
    slot: string,
    io: ObjectIo,
    format: WalFormat,
  ): Promise<{ findings: DamageFinding[]; coverage: PrefixCoverage }> {
    await this.restored;
    const findings = await this.ledger.current(slot, io, confirmerOf(io, format));
    return { findings, coverage: this.coverage.of(slot) };
  }

  /**
   * A view (`opened`) or the Overview read the prefix with this coverage: the background scrub
   * queues it when it is not verified within the age.
   */
  noteCoverage(at: Located, coverage: CoverageView, opened: boolean): void {
    this.background?.note(slotParts(at.slot).connectionId, at.prefix, coverage, opened);
  }

  /** The findings on a located prefix, confirmed with the store, placed by `catalog`. */
  async of(at: Located, catalog: ObjectCatalog | null): Promise<ObjectDamage[]> {
    await this.restored;
    const confirmByRead = confirmerOf(at.io, at.format);
    return damagesOf(await this.ledger.current(at.slot, at.io, confirmByRead), catalog);
  }

  async forPrefix(connectionId: string, prefix: string): Promise<ObjectDamage[]> {
    const at = await this.deps.fleet.locate(connectionId, prefix);
    return this.of(at, await this.deps.catalogOf(at));
  }

  /** What is known wrong with one object (its prefix told by its key), or null. */
  async forObject(connectionId: string, key: string): Promise<ObjectDamage | null> {
    const { root } = await this.connection(connectionId);
    checkObjectKey(root, key);
    const prefix = key.slice(0, key.lastIndexOf('/objects/'));
    return (await this.forPrefix(connectionId, prefix)).find((d) => d.key === key) ?? null;
  }

  /** A scrub of the prefix (the whole fleet when null); a prefix not found fails here, typed. */
  async startScrub(
    connectionId: string,
    prefix: string | null,
    owner?: ScrubOwner,
  ): Promise<ScrubJobView> {
    if (prefix === null) {
      await this.connection(connectionId); // an unknown connection fails here, typed
      return this.scrubs.start(connectionId, null, owner);
    }
    const at = await this.deps.fleet.locate(connectionId, prefix);
    return this.scrubs.start(connectionId, at.prefix, owner);
  }

  /** Forgets a removed connection's findings and cancels its scrubs. */
  async release(connectionId: string): Promise<void> {
    this.background?.release(connectionId);
    this.ledger.forgetConnection(connectionId);
    this.coverage.forgetConnection(connectionId);
    await this.scrubs.release(connectionId);
  }

  async closeAll(): Promise<void> {
    this.background?.closeAll();
    await this.scrubs.closeAll();
    await this.deps.ledgerFile?.settled();
  }

  /** An earlier run's findings back in the ledger, but those of connections removed since. */
  private async restore(prefixes: readonly StoredPrefix[]): Promise<void> {
    const ids = new Set(prefixes.map((prefix) => prefix.slot.slice(0, prefix.slot.indexOf('\n'))));
    const existing = new Set<string>();
    for (const id of ids)
      if (
        await this.connection(id).then(
          () => true,
          (error: unknown) => !(isCairnError(error) && error.code === 'ConnectionNotFound'),
        )
      )
        existing.add(id);
    this.ledger.restore(prefixes, (id) => existing.has(id));
  }

  private connection(connectionId: string): Promise<{ io: ObjectIo; root: string }> {
    return this.deps.fleet.io(connectionId);
  }
}

/** A restored finding is shown once a read through its format's checks finds it damaged. */
function confirmerOf(
  io: ObjectIo,
  format: WalFormat,
): (key: string, size: number) => Promise<ObjectVerdict> {
  const verify = verifierOf(format);
  return (key, size) => verify(io, key, { size });
}
