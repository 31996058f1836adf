/**
 * Obsolete and garbage collection as the app runs them on Cairn prefixes: previews that write
 * nothing, a direct obsolete or GC by the writer opened here (the epoch holder), a bulk obsolete
 * of several regions, and a watermark request to a writer of another process, which it applies
 * without being fenced (docs/design/watermark-requests.md). Who may call them and the audit are
 * the router's; what each deletion is credited to travels in `credit`.
 */
import type { BulkObsoleteView } from '../../../shared/contract/wal-bulk-obsolete';
import type { GcReport, ObsoletePreview } from '../../../shared/contract/wal';
import type {
  WatermarkRequestResult,
  WatermarkRequestsView,
} from '../../../shared/contract/wal-watermark-requests';
import { dryRunFromRegister } from '../../engine/wal/gc';
import { readOnlyTarget } from '../../engine/wal/read-only-log';
import type { CallCredit } from '../audit/call-credit';
import type { Session } from '../caller';
import type { AppWriter } from './app-writer';
import {
  applyBulkObsolete,
  bulkSourceOf,
  previewBulkObsolete,
  type BulkObsoleteRequest,
} from './bulk-obsolete';
import { obsoletePreviewAt } from './obsolete-deletes';
import type { PrefixSnapshot } from './read-model/prefix-model';
import { registerHolderOf } from './register-holder';
import { cairnOnly, checkWritable, type Located } from './wal-locate';
import { presentGcReport } from './wal-presenters';
import { requestObsoleteAt } from './watermark-requests/request-obsolete';
import { watermarkRequestsOf } from './watermark-requests/request-rows';
import type { WriterRegistry } from './writer-registry';

export interface MaintenanceDeps {
  readonly writers: WriterRegistry;
  locate(connectionId: string, prefix: string): Promise<Located>;
  /** The prefix's read model (never a provisional one: previews must be exact). */
  snapshotOf(at: Located): Promise<PrefixSnapshot>;
  /** The writer opened here on the prefix, or the typed refusal naming `action`. */
  writerOf(connectionId: string, prefix: string, action: string): Promise<AppWriter>;
}

export class WalMaintenance {
  constructor(private readonly deps: MaintenanceDeps) {}

  async previewObsolete(
    connectionId: string,
    prefix: string,
    region: bigint,
    id: bigint,
  ): Promise<ObsoletePreview> {
    const at = cairnOnly(await this.deps.locate(connectionId, prefix));
    return obsoletePreviewAt(
      at,
      this.deps.writers.get(at.slot),
      () => this.deps.snapshotOf(at),
      region,
      id,
    );
  }

  /** Obsoletes up to `id`; the result says what it hid and what the collection after it deletes. */
  async obsolete(
    connectionId: string,
    prefix: string,
    region: bigint,
    id: bigint,
    credit?: CallCredit,
  ): Promise<ObsoletePreview> {
    const writer = await this.deps.writerOf(connectionId, prefix, 'wal.obsolete');
    const { deletes } = await this.previewObsolete(connectionId, prefix, region, id);
    return { ...(await writer.obsolete(region, id, credit)), deletes };
  }

  async obsoleteAll(
    connectionId: string,
    prefix: string,
    region: bigint,
    credit?: CallCredit,
  ): Promise<ObsoletePreview> {
    const writer = await this.deps.writerOf(connectionId, prefix, 'wal.obsoleteAll');
    const latest = writer.catalog.latestEntryId(region);
    const { deletes } = await this.previewObsolete(connectionId, prefix, region, latest);
    return { ...(await writer.obsoleteAll(region, credit)), deletes };
  }

  /** What obsoleting several regions (or all) up to a point each hides, and what GC then deletes. */
  async previewBulkObsolete(
    connectionId: string,
    prefix: string,
    request: BulkObsoleteRequest,
  ): Promise<BulkObsoleteView> {
    const at = cairnOnly(await this.deps.locate(connectionId, prefix));
    const source = await bulkSourceOf(at, this.deps.writers.get(at.slot), () =>
      this.deps.snapshotOf(at),
    );
    return previewBulkObsolete(at, source, request);
  }

  async bulkObsolete(
    connectionId: string,
    prefix: string,
    request: BulkObsoleteRequest,
    credit?: CallCredit,
  ): Promise<BulkObsoleteView> {
    const writer = await this.deps.writerOf(connectionId, prefix, 'wal.obsolete.bulk');
    const at = cairnOnly(await this.deps.locate(connectionId, prefix));
    return applyBulkObsolete(at, writer, request, credit);
  }

  /** Asks the writer holding the prefix (another process) to obsolete, without its epoch. */
  async requestObsolete(
    connectionId: string,
    prefix: string,
    region: bigint,
    id: bigint,
    session: Session,
  ): Promise<WatermarkRequestResult> {
    const at = cairnOnly(await this.deps.locate(connectionId, prefix));
    await checkWritable(at);
    const writer = this.deps.writers.get(at.slot);
    return requestObsoleteAt(at, writer, () => this.deps.snapshotOf(at), region, id, session);
  }

  /** The register's watermark requests and how long each waited. */
  async watermarkRequests(connectionId: string, prefix: string): Promise<WatermarkRequestsView> {
    const at = cairnOnly(await this.deps.locate(connectionId, prefix));
    return watermarkRequestsOf(at.io, at.prefix, this.deps.writers.has(at.slot));
  }

  // ----- garbage collection (control.md point 5) -----

  /** Exactly what a pass would delete now; on a prefix not opened here, judged read-only. */
  async gcPreview(connectionId: string, prefix: string): Promise<GcReport> {
    const at = cairnOnly(await this.deps.locate(connectionId, prefix));
    const writer = this.deps.writers.get(at.slot);
    const holder = await registerHolderOf(at.io, at.prefix, writer !== undefined);
    if (writer) return presentGcReport(await writer.store.gcDryRun(), holder);
    const { reread } = readOnlyTarget(at.io, at.config);
    const report = await dryRunFromRegister(at.io, at.prefix, await reread(), reread);
    return presentGcReport(report, holder);
  }

  /** One pass, only by the epoch holder: the writer opened in the app; audited before it returns. */
  async gc(connectionId: string, prefix: string, credit?: CallCredit): Promise<GcReport> {
    return (await this.deps.writerOf(connectionId, prefix, 'wal.gc')).gc(credit);
  }
}
