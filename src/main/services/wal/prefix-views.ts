/**
 * The read-only views of one prefix as the API pages them: inspection, a page of objects, a
 * page of regions. A writer this app holds serves them from its live catalog; any other
 * prefix from its read model's snapshot, whose rows are built once and then sliced, so a
 * prefix of 100,000 objects or 300,000 regions answers a page without building a reply of
 * all of them. What scrubs and replays found damaged is marked on the object and region rows
 * (the rows built once are kept when nothing is). Never writes.
 */
import type { InspectView, RegionsView } from '../../../shared/contract/wal';
import type { ObjectDamage } from '../../../shared/contract/wal-damage';
import { doneProgress, type OpenProgress } from '../../../shared/contract/wal-pages';
import type { ObjectCatalog } from '../../engine/wal/catalog';
import type { AppWriter } from './app-writer';
import {
  locateObject,
  objectPageOf,
  writerObjectLists,
  type LocatedObject,
  type ObjectPage,
  type ObjectStatusFilter,
} from './object-page';
import { catalogOfSnapshot, withDamagedRows, withRegionDamage } from './scrub/damage-views';
import type { ObjectLists } from './wal-reads';
import type { PrefixSnapshot } from './read-model/prefix-model';
import {
  inspectViewOfSnapshot,
  objectListsOfSnapshot,
  progressOfSnapshot,
  regionRowsOfSnapshot,
} from './read-model/snapshot-views';
import { regionsPage } from './view-pages';
import type { Located } from './wal-locate';

export interface PrefixViewSources {
  /** The writer this app holds on the prefix, if any. */
  writer(at: Located): AppWriter | undefined;
  /** The prefix's read model, as fresh as a view may show. */
  snapshot(at: Located): Promise<PrefixSnapshot>;
  /** What is known damaged in the prefix, placed by `catalog`. */
  damage(at: Located, catalog: ObjectCatalog | null): Promise<ObjectDamage[]>;
  /** The prefix's State and what it covers, as the Overview derives them from `snapshot`. */
  state?(at: Located, snapshot: PrefixSnapshot): Promise<Pick<InspectView, 'health' | 'coverage'>>;
}

/** A prefix's object lists with their damage marked, and how far its open has come. */
interface MarkedLists {
  readonly lists: ObjectLists;
  readonly progress: OpenProgress;
}

export class PrefixViews {
  constructor(private readonly sources: PrefixViewSources) {}

  async inspect(at: Located): Promise<InspectView> {
    const openInApp = this.sources.writer(at) !== undefined;
    const snapshot = await this.sources.snapshot(at);
    const state = (await this.sources.state?.(at, snapshot)) ?? {};
    return { ...inspectViewOfSnapshot(snapshot, openInApp), ...state };
  }

  async objects(
    at: Located,
    status: ObjectStatusFilter,
    offset: number,
    limit: number,
  ): Promise<ObjectPage> {
    const { lists, progress } = await this.markedLists(at);
    return objectPageOf(lists, status, offset, limit, progress);
  }

  /** Where the object of `seq` stands in the list `status` filters (null: not listed there). */
  async locate(
    at: Located,
    status: ObjectStatusFilter,
    seq: bigint,
  ): Promise<LocatedObject | null> {
    return locateObject((await this.markedLists(at)).lists, status, seq);
  }

  async regions(at: Located, offset: number, limit: number): Promise<RegionsView> {
    const writer = this.sources.writer(at);
    if (writer !== undefined) {
      const damage = await this.sources.damage(at, writer.catalog);
      const rows = withRegionDamage(writer.regions(), damage);
      const all = { source: 'writer' as const, readOnlyReason: null, rows };
      return regionsPage(all, offset, limit, doneProgress(writer.catalog.objectCount));
    }
    const snapshot = await this.sources.snapshot(at);
    const all = regionRowsOfSnapshot(snapshot);
    const damage = await this.sources.damage(at, catalogOfSnapshot(snapshot));
    const rows = withRegionDamage(all.rows, damage);
    return regionsPage({ ...all, rows }, offset, limit, progressOfSnapshot(snapshot));
  }

  private async markedLists(at: Located): Promise<MarkedLists> {
    const writer = this.sources.writer(at);
    if (writer !== undefined) {
      const lists = writerObjectLists(writer);
      const damage = await this.sources.damage(at, writer.catalog);
      return { lists: withDamagedRows(lists, damage), progress: doneProgress(lists.chain.length) };
    }
    const snapshot = await this.sources.snapshot(at);
    const damage = await this.sources.damage(at, catalogOfSnapshot(snapshot));
    return {
      lists: withDamagedRows(objectListsOfSnapshot(snapshot), damage),
      progress: progressOfSnapshot(snapshot),
    };
  }
}
