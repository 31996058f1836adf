/**
 * Finds the WAL prefixes under a root, of both formats: a folder is a prefix when it has an
 * `objects/` folder. The walk uses delimiter listings only, never descends into a prefix, and
 * is bounded in depth, folders visited, pages per folder and prefixes found, so a bucket of
 * millions of keys costs a bounded number of requests; `truncated` says a bound was reached.
 * Each prefix's format is read from its first object. Folders are listed, and formats read,
 * as many at a time as the link's width (`IoSlots`). Reads only.
 */
import { fanOut, linkIo, slotsOf, walkTree, type IoSlots } from '../objectio/link';
import type { ObjectIo } from '../objectio/object-io';
import { parseGreptimePrefix } from '../greptimedb/prefix';
import { detectFormat, type WalFormat } from './format';
import { parseCairnPrefix } from './target';

export interface DiscoveryLimits {
  /** Folder levels below the root. */
  readonly maxDepth: number;
  readonly maxFolders: number;
  readonly maxPrefixes: number;
  /** Listing pages read per folder (1,000 keys each). */
  readonly maxPagesPerFolder: number;
}

export const DEFAULT_DISCOVERY_LIMITS: DiscoveryLimits = {
  maxDepth: 8,
  maxFolders: 10_000,
  maxPrefixes: 2_000,
  maxPagesPerFolder: 10,
};

export interface DiscoveredPrefix {
  readonly prefix: string;
  /** Null when the prefix holds no object yet. */
  readonly format: WalFormat | null;
  /** Node and generation, for a prefix in Cairn's layout or GreptimeDB's datanode layout. */
  readonly nodeId: bigint | null;
  readonly generation: number | null;
}

export interface Discovery {
  readonly prefixes: readonly DiscoveredPrefix[];
  readonly truncated: boolean;
}

interface FolderListing {
  readonly children: readonly string[];
  readonly truncated: boolean;
}

async function childFolders(
  io: ObjectIo,
  folder: string,
  maxPages: number,
): Promise<FolderListing> {
  const children: string[] = [];
  let pages = 0;
  for await (const page of io.list(folder, { delimiter: '/' })) {
    for (const common of page.commonPrefixes)
      if (common.startsWith(folder) && common.endsWith('/')) children.push(common);
    pages += 1;
    if (pages >= maxPages && page.continuation !== undefined) return { children, truncated: true };
  }
  return { children, truncated: false };
}

/** A folder named in Cairn's layout is a prefix by its name alone: never listed. */
function isCairnFolder(folder: string): boolean {
  return parseCairnPrefix(folder.slice(0, -1)) !== null;
}

const CAIRN_NODE_FOLDER = /\/nodes\/(0|[1-9]\d{0,19})\/$/;

/**
 * Where to look under a child folder: a Cairn node folder (`…/nodes/<id>/`) holds only
 * `generations/`, so the walk lists that directly and saves one listing per node.
 */
function folderToList(child: string): string {
  return CAIRN_NODE_FOLDER.test(child) ? `${child}generations/` : child;
}

interface Folder {
  readonly path: string;
  readonly depth: number;
}

/**
 * The folders under `root` that hold an `objects/` folder (or are named in Cairn's layout),
 * within `limits`. Folders are listed the link's width at a time, the deepest known first, so the
 * first prefixes turn up after a few listings whatever the bucket's width; each is handed to
 * `onFound` as soon as its parent's listing says so.
 */
async function prefixFolders(
  io: ObjectIo,
  width: Pick<IoSlots, 'width'>,
  root: string,
  limits: DiscoveryLimits,
  onFound: (prefix: string) => void,
): Promise<{ folders: string[]; truncated: boolean }> {
  const found: string[] = [];
  let truncated = false;
  const accept = (folder: string): void => {
    if (found.length >= limits.maxPrefixes) {
      truncated = true;
      return;
    }
    found.push(folder.slice(0, -1));
    onFound(folder.slice(0, -1));
  };
  const visit = async ({ path, depth }: Folder): Promise<Folder[]> => {
    const listing = await childFolders(io, path, limits.maxPagesPerFolder);
    truncated ||= listing.truncated;
    if (path !== '' && listing.children.includes(`${path}objects/`)) {
      accept(path);
      return [];
    }
    const deeper: Folder[] = [];
    for (const child of listing.children) {
      if (isCairnFolder(child)) accept(child);
      else if (depth < limits.maxDepth)
        deeper.push({ path: folderToList(child), depth: depth + 1 });
      else truncated = true;
    }
    return deeper;
  };
  const start = { path: root === '' ? '' : `${root.replace(/\/+$/, '')}/`, depth: 0 };
  const left = await walkTree(start, width, limits.maxFolders, visit);
  truncated ||= left > 0;
  return { folders: found.sort(), truncated };
}

/**
 * The prefixes under `root` without their formats, each handed to `onFound` as it is found;
 * every listing in a slot of `slots` (a connection's link; a new one for `io` when absent),
 * as many at once as `width` says (the link's own width unless the caller leaves room for
 * other work: the fleet reads prefixes as the walk finds them).
 */
export async function walkPrefixes(
  io: ObjectIo,
  root: string,
  onFound: (prefix: string) => void = () => undefined,
  limits: DiscoveryLimits = DEFAULT_DISCOVERY_LIMITS,
  slots: IoSlots = slotsOf(io),
  width: Pick<IoSlots, 'width'> = slots,
): Promise<{ prefixes: string[]; truncated: boolean }> {
  const linked = linkIo(io, slots);
  const { folders, truncated } = await prefixFolders(linked, width, root, limits, onFound);
  return { prefixes: folders, truncated };
}

/** Every prefix under `root` with its format; `detect` may answer from what it already knows. */
export async function discoverPrefixes(
  io: ObjectIo,
  root: string,
  limits: DiscoveryLimits = DEFAULT_DISCOVERY_LIMITS,
  detect: (io: ObjectIo, prefix: string) => Promise<WalFormat | null> = detectFormat,
  slots: IoSlots = slotsOf(io),
): Promise<Discovery> {
  const linked = linkIo(io, slots);
  const walked = await walkPrefixes(linked, root, undefined, limits, slots);
  const prefixes = await fanOut(walked.prefixes, slots, async (prefix) => {
    const named = parseCairnPrefix(prefix) ?? parseGreptimePrefix(prefix);
    return {
      prefix,
      format: await detect(linked, prefix),
      nodeId: named?.nodeId ?? null,
      generation: named?.generation ?? null,
    };
  });
  return { prefixes, truncated: walked.truncated };
}
