/**
 * The read-only views of one prefix as the API pages them: inspection, a page of objects, a
 * page of regions. A writer this app holds serves them from its live catalog; any other
 * prefix from its read model's snapshot, whose rows are built once and then sliced, so a
 * prefix of 100,000 objects or 300,000 regions answers a page without building a reply of
 * all of them. Never writes.
 */
import type { InspectView, RegionsView } from '../../../shared/contract/wal';
import { doneProgress } from '../../../shared/contract/wal-pages';
import type { AppWriter } from './app-writer';
import {
  objectPageOf,
  writerObjectLists,
  type ObjectPage,
  type ObjectStatusFilter,
} from './object-page';
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
}

export class PrefixViews {
  constructor(private readonly sources: PrefixViewSources) {}

  async inspect(at: Located): Promise<InspectView> {
    const openInApp = this.sources.writer(at) !== undefined;
    return inspectViewOfSnapshot(await this.sources.snapshot(at), openInApp);
  }

  async objects(
    at: Located,
    status: ObjectStatusFilter,
    offset: number,
    limit: number,
  ): Promise<ObjectPage> {
    const writer = this.sources.writer(at);
    if (writer !== undefined) {
      const lists = writerObjectLists(writer);
      return objectPageOf(lists, status, offset, limit, doneProgress(lists.chain.length));
    }
    const snapshot = await this.sources.snapshot(at);
    return objectPageOf(
      objectListsOfSnapshot(snapshot),
      status,
      offset,
      limit,
      progressOfSnapshot(snapshot),
    );
  }

  async regions(at: Located, offset: number, limit: number): Promise<RegionsView> {
    const writer = this.sources.writer(at);
    if (writer !== undefined) {
      const rows = { source: 'writer' as const, readOnlyReason: null, rows: writer.regions() };
      return regionsPage(rows, offset, limit, doneProgress(writer.catalog.objectCount));
    }
    const snapshot = await this.sources.snapshot(at);
    return regionsPage(regionRowsOfSnapshot(snapshot), offset, limit, progressOfSnapshot(snapshot));
  }
}
