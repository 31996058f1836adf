/**
 * The object-store WAL as the API speaks it: prefixes under a connection, the read-only
 * inspection of one (chain, orphans, regions, register, version history), streamed region
 * replays, and - in operator mode - a writer opened in the app with its load generator,
 * obsolete watermarks and the region table. Owns the input limits, the parsing of region and
 * entry ids as users type them, the output shapes and the WAL's events; never the WAL's rules
 * (the engine enforces them again on every call).
 */
import { z } from 'zod';
import { Confirmation, ConnectionId, ObjectKey } from './common';
import { procedure } from './procedure';
import { parseEntryId, parseRegionId as parseWalRegion } from '../id-notation';
import { PrefixHealthView, ReplayHoleView, RowDamage } from './wal-damage';
import { CoverageView } from './wal-coverage';
import type { PayloadCheck } from '../greptime/entry-table';
import { OpenProgress, pageFields } from './wal-pages';

const U64_LIMIT = 1n << 64n;

// Ids as people type them are parsed in one shared place; the contract re-exports the names
// the views and tests already use.
export {
  formatRegionId as formatWalRegion,
  parseRegionId as parseWalRegion,
  parseEntryId,
} from '../id-notation';
/** Region ids arrive as `tableId:regionNumber`, a decimal string, or a bigint on the wire. */
export const WalRegionId = z.union([z.bigint(), z.string().max(32)]).transform((value, ctx) => {
  const region =
    typeof value === 'bigint'
      ? value >= 0n && value < U64_LIMIT
        ? value
        : null
      : parseWalRegion(value);
  if (region === null) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be tableId:regionNumber (two u32) or a decimal u64',
    });
    return z.NEVER;
  }
  return region;
});

/** Entry ids are u64 bigints (the wire codec carries them); decimal strings are accepted too. */
export const WalEntryId = z.union([z.bigint(), z.string().max(32)]).transform((value, ctx) => {
  const id =
    typeof value === 'bigint'
      ? value >= 0n && value < U64_LIMIT
        ? value
        : null
      : parseEntryId(value);
  if (id === null) {
    ctx.addIssue({ code: 'custom', message: 'must be seq:position or a decimal u64 entry id' });
    return z.NEVER;
  }
  return id;
});

/** Each component of a prefix: not empty, not `.` or `..`, no control character. */
function isPrefixComponent(part: string): boolean {
  // eslint-disable-next-line no-control-regex
  return part !== '' && part !== '.' && part !== '..' && !/[\u0000-\u001f\u007f]/.test(part);
}

/**
 * A WAL prefix: Cairn's `<root>/nodes/<nodeId>/generations/<generation>` or a GreptimeDB
 * prefix (a relative path); the service checks it lies under the connection's root and which
 * format its objects are in.
 */
export const WalPrefix = z
  .string()
  .min(1)
  .max(1024)
  .refine(
    (prefix) => prefix.split('/').every(isPrefixComponent),
    'must be a relative path without empty, . or .. components (<root>/nodes/<nodeId>/generations/<generation>, or a GreptimeDB prefix)',
  );

export const JobId = z.string().min(1).max(64);

export const prefixFields = { connectionId: ConnectionId, prefix: WalPrefix };
const PrefixInput = z.object(prefixFields).strict();
const RegionInput = z.object({ ...prefixFields, region: WalRegionId }).strict();
/** Inputs of destructive calls carry the phrase the user typed (`confirmations.ts`). */
const confirmField = { confirm: Confirmation.optional() };
const ConfirmedPrefixInput = z.object({ ...prefixFields, ...confirmField }).strict();
const ConfirmedRegionInput = z
  .object({ ...prefixFields, region: WalRegionId, ...confirmField })
  .strict();

// ----- outputs -----

export const GcReport = z.object({
  prefix: z.string(),
  dryRun: z.boolean(),
  previousBoundary: z.bigint(),
  boundary: z.bigint(),
  objects: z.array(z.object({ key: z.string(), seq: z.bigint(), size: z.number() })),
  bytes: z.number(),
  remaining: z.number(),
  /** The first delete failure's message, null when every delete passed. */
  failure: z.string().nullable(),
  /** Why the chain could not be judged (the boundary then did not move). */
  unjudged: z.object({ code: z.string(), message: z.string() }).nullable(),
  /**
   * A preview: the object the boundary stops at and its regions still above their watermark
   * (none when only the tip holds it); null for a pass or an empty chain.
   */
  heldBack: z
    .object({
      seq: z.bigint(),
      tipOnly: z.boolean(),
      regions: z.array(
        z.object({ regionId: z.bigint(), watermark: z.bigint(), lastId: z.bigint() }),
      ),
    })
    .nullable(),
  /** A preview: who holds the register now - the epoch a pass would fence, and whether it looks live. */
  holder: z
    .object({
      epoch: z.bigint(),
      writerId: z.string(),
      /** How long ago the register was last written, when the store tells. */
      writtenAgoMs: z.number().nullable(),
      /** Written within the live-writer window (30 s): a pass would fence a running writer. */
      live: z.boolean(),
      /** A writer of this app holds it. */
      openInApp: z.boolean(),
    })
    .nullable(),
});
export type GcReport = z.infer<typeof GcReport>;

/** The object format of a WAL prefix: Cairn's own, or GreptimeDB's (read-only in Cairn). */
export const WalFormat = z.enum(['cairn-v1', 'greptimedb-v1']);
export type WalFormat = z.infer<typeof WalFormat>;

export const WalListedPrefix = z.object({
  prefix: z.string(),
  /** Null while the prefix holds no object. */
  format: WalFormat.nullable(),
  /** Node and generation of a prefix in Cairn's layout; null for GreptimeDB's. */
  nodeId: z.bigint().nullable(),
  generation: z.number().nullable(),
  /** A writer of this app holds the prefix. */
  openInApp: z.boolean(),
});
export type WalListedPrefix = z.infer<typeof WalListedPrefix>;

/** One prefix of the fleet overview, its columns filled once its read model has been read. */
export const FleetRow = z.object({
  prefix: z.string(),
  /** Null until read, and for a prefix that holds no object yet. */
  format: WalFormat.nullable(),
  /** `pending`: not read yet in this pass's order; `read`: the columns below are set. */
  state: z.enum(['pending', 'read', 'error']),
  /** When its read model was last read. */
  readAtMs: z.number().nullable(),
  /** Objects listed at or above the floor (a prefix whose recovery failed has them, no chain). */
  listed: z.number().nullable(),
  /** Objects and bytes on the chain (what a replay reads). */
  objects: z.number().nullable(),
  bytes: z.number().nullable(),
  tipSeq: z.bigint().nullable(),
  tipEpoch: z.bigint().nullable(),
  /** The newest object's modification time, when the store tells. */
  newestObjectAtMs: z.number().nullable(),
  /** Cairn: the register's boundary (GC collected below it); GreptimeDB: the reclaim boundary. */
  floor: z.bigint().nullable(),
  /** How many sequences the tip runs ahead of the floor. */
  floorLag: z.bigint().nullable(),
  /**
   * The lag in objects: objects listed at or above the floor (not collected or reclaimed yet);
   * null without a tip (recovery failed: `openFailure` says why).
   */
  lagObjects: z.number().nullable(),
  /** The lag in age: the newest object's time less the time of the lowest object at the floor. */
  lagMs: z.number().nullable(),
  orphans: z.number().nullable(),
  damaged: z.number().nullable(),
  /** Why a writer's open (Cairn) or a replay (GreptimeDB) would fail; null when it would not. */
  openFailure: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** A writer of this app holds it. */
  writerHeld: z.boolean(),
  /** Reading it failed (storage unreachable, access denied): the row keeps its last columns. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Its State: `healthy` only with no problem; otherwise each problem with its reason. */
  health: PrefixHealthView,
  /** What the State covers: objects read whole and when (null until read). */
  coverage: CoverageView.nullable(),
});
export type FleetRow = z.infer<typeof FleetRow>;

export const FleetView = z.object({
  /** Bumped by every row change; pass it back as `since` for only what changed. */
  version: z.number(),
  /** Rows changed since `since` (all rows when `since` is 0), in the fleet's order. */
  rows: z.array(FleetRow),
  /** Prefixes in the fleet now (the renderer drops rows no longer listed). */
  prefixes: z.array(z.string()),
  /** The discovery reached one of its bounds: more prefixes may exist. */
  truncated: z.boolean(),
  /** A pass is reading prefixes now. */
  reading: z.boolean(),
  /** When the last complete pass ended. */
  passEndedAtMs: z.number().nullable(),
  /** Why the last walk of the root failed (the rows keep what earlier passes read). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type FleetView = z.infer<typeof FleetView>;

export const WalObjectRef = z.object({
  seq: z.bigint(),
  epoch: z.bigint(),
  key: z.string(),
  size: z.number(),
});
export type WalObjectRef = z.infer<typeof WalObjectRef>;

export const SealRecordView = z.object({
  firstEpoch: z.bigint(),
  lastEpoch: z.bigint(),
  lastSeq: z.bigint().nullable(),
  reason: z.enum(['stopped', 'taken-over', 'merged']),
});
export type SealRecordView = z.infer<typeof SealRecordView>;

export const RegisterView = z.object({
  exists: z.boolean(),
  version: z.number().nullable(),
  writerEpoch: z.bigint(),
  writerId: z.string(),
  tail: z.object({ seq: z.bigint(), epoch: z.bigint() }).nullable(),
  boundary: z.bigint(),
  sealed: z.array(SealRecordView),
  watermarks: z.array(z.object({ regionId: z.bigint(), watermark: z.bigint() })),
  regions: z.array(z.object({ regionId: z.bigint(), createdAtMs: z.number() })),
  otherFields: z.record(z.string(), z.string()),
});
export type RegisterView = z.infer<typeof RegisterView>;

export const InspectFailureView = z.object({
  code: z.string(),
  message: z.string(),
  key: z.string().nullable(),
});
export type InspectFailureView = z.infer<typeof InspectFailureView>;

export const CHAIN_TAIL_OBJECTS = 24;

/** What only a GreptimeDB prefix has: instances, the reclaim boundary, damage found. */
export const GreptimeInspectView = z.object({
  reclaimBoundary: z.bigint(),
  /** The chain's first object links below the boundary to an object already deleted. */
  reclaimedLink: z.boolean(),
  /** The newest objects below the boundary (at most `INSPECT_LIST_ROWS`; the count says all). */
  belowBoundary: z.array(WalObjectRef),
  belowBoundaryCount: z.number(),
  /** The newest objects of the chain (at most `CHAIN_TAIL_OBJECTS`), for the sequence strip. */
  chainTail: z.array(WalObjectRef),
  /** The newest instances (at most `INSPECT_LIST_ROWS`). */
  instances: z.array(
    z.object({
      epoch: z.bigint(),
      startSeq: z.bigint().nullable(),
      firstSeq: z.bigint(),
      lastSeq: z.bigint(),
      objects: z.number(),
      onChain: z.number(),
    }),
  ),
  instanceCount: z.number(),
  damagedCount: z.number(),
  /** The first damaged objects by sequence (at most `INSPECT_LIST_ROWS`). */
  damaged: z.array(
    z.object({
      key: z.string(),
      seq: z.bigint(),
      size: z.number(),
      check: z.string(),
      detail: z.string(),
    }),
  ),
  /** Which GTWALOBJ v1 layout the prefix is in (`mixed`: both, which no GreptimeDB opens). */
  layout: z.enum(['chained', 'merged', 'mixed', 'empty']),
  /** The merged layout's open verdict and writer runs; null in the chained layout. */
  merged: z
    .object({
      nextSeq: z.bigint().nullable(),
      /** Every rule GreptimeDB's open would stop at, by sequence; the first decides. */
      refusals: z.array(
        z.object({ key: z.string(), rule: z.string(), detail: z.string(), message: z.string() }),
      ),
      /** The newest writer runs (at most `INSPECT_LIST_ROWS`). */
      runs: z.array(
        z.object({
          writerInstance: z.string(),
          firstSeq: z.bigint(),
          lastSeq: z.bigint(),
          objects: z.number(),
          firstAtMs: z.number().nullable(),
          lastAtMs: z.number().nullable(),
        }),
      ),
      runCount: z.number(),
      /** `two writers: …` when an instance wrote more than one run. */
      twoWriters: z.string().nullable(),
    })
    .nullable(),
});
export type GreptimeInspectView = z.infer<typeof GreptimeInspectView>;

export const InspectView = z.object({
  prefix: z.string(),
  format: WalFormat,
  /** Set for a GreptimeDB prefix (whose register fields then all say "none"). */
  greptimedb: GreptimeInspectView.nullable(),
  register: RegisterView,
  /** When the register was last written (its newest version object), if the store tells. */
  registerWrittenAtMs: z.number().nullable(),
  /** When the data shown was read from storage (the prefix's read model refreshed). */
  readAtMs: z.number(),
  registerAgeMs: z.number().nullable(),
  /** Written within the live-writer window: taking the epoch needs `takeOver`. */
  registerFresh: z.boolean(),
  listed: z.number(),
  tip: WalObjectRef.nullable(),
  nextSeq: z.bigint().nullable(),
  chainObjects: z.number(),
  chainBytes: z.number(),
  /** Breaks in the chain's sequence (sequences consumed by failed batches, start gaps). */
  chainGaps: z.number(),
  /** The newest orphans, excluded and missing objects (at most `INSPECT_LIST_ROWS` each). */
  orphans: z.array(WalObjectRef),
  orphanCount: z.number(),
  excluded: z.array(WalObjectRef),
  excludedCount: z.number(),
  missing: z.array(z.string()),
  missingCount: z.number(),
  /** The first regions by id (at most `INSPECT_LIST_ROWS`): `wal.regions` pages through all. */
  regionCount: z.number(),
  regions: z.array(
    z.object({
      regionId: z.bigint(),
      latestId: z.bigint(),
      watermark: z.bigint(),
      entries: z.number(),
      objects: z.number(),
      bytes: z.number(),
      listedInTable: z.boolean(),
    }),
  ),
  /** Why a writer open would fail here (with the object it names, when it names one). */
  failure: InspectFailureView.nullable(),
  openInApp: z.boolean(),
  durationMs: z.number(),
  progress: OpenProgress,
  /** The prefix's State, as the Overview derives it (null where no State is derived). */
  health: PrefixHealthView.nullable(),
  /** What the State covers: objects read whole and when. */
  coverage: CoverageView.nullable(),
});
export type InspectView = z.infer<typeof InspectView>;

/** `below-boundary`: a GreptimeDB object under the reclaim boundary, flushed, never replayed. */
export const WalObjectStatus = z.enum(['chain', 'orphan', 'excluded', 'below-boundary']);

export const WalObjectRow = WalObjectRef.extend({
  status: WalObjectStatus,
  /** Regions in the object; null for an object recovery did not index (orphan, excluded). */
  segments: z.number().nullable(),
  entries: z.number().nullable(),
  /** Set when a scrub or a replay found the object damaged: the check that failed. */
  damage: RowDamage.optional(),
});
export type WalObjectRow = z.infer<typeof WalObjectRow>;

/** `gaps`: breaks in the sequence of the chain objects (over every page). */
export const WalObjectPage = z.object({
  total: z.number(),
  offset: z.number(),
  gaps: z.number(),
  /**
   * The highest sequence of the whole filtered list (null when empty): a later read's row
   * above it was written since, one at or below it only moved (a collection shifts pages).
   */
  newestSeq: z.bigint().nullable(),
  rows: z.array(WalObjectRow),
  progress: OpenProgress,
});

export const RegionRow = z.object({
  regionId: z.bigint(),
  entries: z.number(),
  firstId: z.bigint(),
  latestId: z.bigint(),
  /** The writer's durable id when a writer of this app holds the prefix; else the latest indexed. */
  durableId: z.bigint(),
  /** enqueued mode: the largest id handed out (null unless a writer of this app holds the prefix). */
  handedOutId: z.bigint().nullable(),
  watermark: z.bigint(),
  objects: z.number(),
  bytes: z.number(),
  holes: z.number(),
  listedInTable: z.boolean(),
  /** Damaged segments of the region a scrub or a replay found: the entries a replay skips. */
  damage: z
    .array(
      z.object({
        key: z.string(),
        seq: z.bigint().nullable(),
        firstId: z.bigint(),
        lastId: z.bigint(),
        check: z.string(),
      }),
    )
    .optional(),
});
export type RegionRow = z.infer<typeof RegionRow>;

export const RegionsView = z.object({
  source: z.enum(['writer', 'read-only', 'inspect']),
  /** Why no operation applies to these regions (a GreptimeDB prefix), null when they do. */
  readOnlyReason: z.string().nullable(),
  /** One page of the rows, by region id. */
  regions: z.array(RegionRow),
  /** Rows over every page. */
  total: z.number(),
  offset: z.number(),
  progress: OpenProgress,
});
export type RegionsView = z.infer<typeof RegionsView>;

export const ObsoletePreview = z.object({
  region: z.bigint(),
  id: z.bigint(),
  watermark: z.bigint(),
  latestId: z.bigint(),
  /** Entries that become hidden (ids above the current watermark, up to `id`). */
  hiddenEntries: z.number(),
  /** Objects whose segment of the region becomes wholly hidden. */
  hiddenObjects: z.number(),
  hiddenBytes: z.number(),
  /** True when nothing changes (id at or below the current watermark). */
  noChange: z.boolean(),
  /**
   * What the garbage collection that follows the obsolete would delete (objects, bytes, the
   * first and last key, the boundary it moves to); null when it would delete nothing or no
   * collection follows.
   */
  deletes: z
    .object({
      objects: z.number(),
      bytes: z.number(),
      firstKey: z.string(),
      lastKey: z.string(),
      boundary: z.bigint(),
    })
    .nullable(),
});
export type ObsoletePreview = z.infer<typeof ObsoletePreview>;

export const WriterStateView = z.object({
  prefix: z.string(),
  epoch: z.bigint(),
  writerId: z.string(),
  ackMode: z.enum(['durable', 'enqueued']),
  ackFence: z.enum(['register', 'none']),
  openBatch: z
    .object({ seq: z.bigint(), entries: z.number(), bytes: z.number(), ageMs: z.number() })
    .nullable(),
  sealedWaiting: z.number(),
  awaitingFence: z.number(),
  createsInFlight: z.array(
    z.object({ seq: z.bigint(), attempt: z.number(), elapsedMs: z.number() }),
  ),
  orphanCreatesInFlight: z.number(),
  heldAppends: z.number(),
  indexedTip: z.object({ seq: z.bigint(), epoch: z.bigint() }).nullable(),
  nextSeq: z.bigint(),
  certified: z.bigint(),
  gapBlocked: z.boolean(),
  /** The writer is re-opening itself under a new epoch: its start gap was spent. */
  reopening: z.boolean(),
  reopens: z.number(),
  lastReopen: z
    .object({
      fromEpoch: z.bigint(),
      toEpoch: z.bigint(),
      attempts: z.number(),
      atMs: z.number(),
    })
    .nullable(),
  fenceRound: z.object({ covers: z.number(), elapsedMs: z.number() }).nullable(),
  unpersistedBytes: z.number(),
  stopping: z.boolean(),
  stopped: z.boolean(),
  poisoned: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type WriterStateView = z.infer<typeof WriterStateView>;
export type WriterReopenView = NonNullable<WriterStateView['lastReopen']>;

export const WriterView = z.object({
  state: WriterStateView,
  /** Orphans the writer's open met, and holes its reads met (per region). */
  orphansAtOpen: z.number(),
  holes: z.number(),
  indexedObjects: z.number(),
  indexedBytes: z.number(),
  load: z.object({ running: z.boolean(), acknowledged: z.number(), failed: z.number() }).nullable(),
});
export type WriterView = z.infer<typeof WriterView>;

export const LoadSample = z.object({
  atMs: z.number(),
  appendsPerSecond: z.number(),
  ackLatencyMs: z.object({ mean: z.number(), max: z.number() }),
  acknowledged: z.number(),
  failed: z.number(),
});
export type LoadSample = z.infer<typeof LoadSample>;

/**
 * What a replayed payload is (a GreptimeDB `WalEntry` with what it holds, its decode failure,
 * JSON, raw), found by a check of the whole payload in the main process that walks every field
 * but makes no cell text: the page decodes a `WalEntry`'s rows from its bytes where it shows
 * them. `not-decoded` above `REPLAY_DECODED_BYTES`, which the console leaves to
 * `cairn wal replay --decode`.
 */
export type ReplayPayloadView = PayloadCheck | { readonly kind: 'not-decoded' };

export const ReplayEntryView = z.object({
  id: z.bigint(),
  size: z.number(),
  /**
   * The payload, cut to `REPLAY_PAYLOAD_BYTES` but whole when it is a `WalEntry` (its rows are
   * decoded from it on the page); `size` tells whether it was cut.
   */
  data: z.custom<Uint8Array>((value) => value instanceof Uint8Array),
  /** Absent when the replay does not decode payloads. */
  payload: z
    .custom<ReplayPayloadView>((value) => typeof value === 'object' && value !== null)
    .optional(),
});
export type ReplayEntryView = z.infer<typeof ReplayEntryView>;

export const ReplayProgress = z.object({
  jobId: z.string(),
  state: z.enum(['running', 'paused', 'finished', 'cancelled', 'failed']),
  delivered: z.number(),
  lastId: z.bigint(),
  /** The id the replay started from: progress counts from it (not from the region's start). */
  fromId: z.bigint(),
  /** The region's latest id when the job started: progress runs towards it. */
  latestId: z.bigint(),
  /** Damaged segments skipped so far (each a hole row, `wal.replay.chunk`'s `holes`). */
  holes: z.number(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Why a cancelled job was cancelled (asked, its console gone, its connection removed...). */
  cancelReason: z.string().nullable(),
});
export type ReplayProgress = z.infer<typeof ReplayProgress>;

export const ManifestView = z.object({
  register: RegisterView,
  history: z.array(
    z.object({
      version: z.number(),
      writerId: z.string(),
      writerEpoch: z.bigint().nullable(),
      tail: z.string().nullable(),
      /** What changed from the version before it, field by field, in words. */
      changes: z.array(z.object({ field: z.string(), text: z.string() })),
      /** The oldest version stored: `changes` tell what it holds (no version before it is kept). */
      first: z.boolean(),
    }),
  ),
  sealedDirectoryBytes: z.number(),
  sealedDirectoryBudget: z.number(),
});
export type ManifestView = z.infer<typeof ManifestView>;

export const ObjectVerdictView = z.object({
  key: z.string(),
  seq: z.bigint().nullable(),
  size: z.number(),
  ok: z.boolean(),
  check: z.string().nullable(),
  detail: z.string().nullable(),
  gone: z.boolean(),
  /** The region whose segment failed, when the first failure was a segment's. */
  region: z.bigint().optional(),
});

/** One WAL object part by part, for the object inspector; CRCs are judged each on its own. */
export const DecodedObjectView = z.object({
  key: z.string(),
  format: WalFormat,
  /** GreptimeDB's layout by name (`GTWALOBJ v1`, or `…, writer-instance header`); null for Cairn's. */
  layout: z.string().nullable(),
  size: z.number(),
  header: z
    .object({
      magicOk: z.boolean(),
      version: z.number(),
      seq: z.bigint(),
      /** Null in GreptimeDB's writer-instance layout (no epoch, link, boundary or header CRC). */
      epoch: z.bigint().nullable(),
      prev: z.object({ seq: z.bigint(), epoch: z.bigint() }).nullable(),
      /** GreptimeDB only. */
      reclaimBoundary: z.bigint().nullable(),
      crcOk: z.boolean().nullable(),
      /** GreptimeDB's writer-instance layout: the writer instance's 16 bytes as hex. */
      writerInstance: z.string().nullable(),
    })
    .nullable(),
  segments: z.array(
    z.object({
      regionId: z.bigint(),
      firstId: z.bigint(),
      lastId: z.bigint(),
      entries: z.number(),
      offset: z.number(),
      length: z.number(),
      crcOk: z.boolean().nullable(),
    }),
  ),
  /** Segments in the object; `segments` is one page of them. */
  segmentCount: z.number(),
  segmentOffset: z.number(),
  footer: z.object({ crcOk: z.boolean(), count: z.number() }).nullable(),
  trailer: z
    .object({
      magicOk: z.boolean(),
      footerOffset: z.bigint(),
      footerLength: z.bigint(),
      /** GreptimeDB's whole-object CRC; null for Cairn's format, which has none. */
      objectCrcOk: z.boolean().nullable(),
    })
    .nullable(),
  failure: z.object({ check: z.string(), detail: z.string() }).nullable(),
  /**
   * The first segment that fails its own check (`index` into `segments`): the part the
   * inspector's headline names and scrolls to; null when every segment is sound.
   */
  damagedSegment: z
    .object({ index: z.number(), regionId: z.bigint(), check: z.string() })
    .nullable(),
});
export type DecodedObjectView = z.infer<typeof DecodedObjectView>;

/** Payload bytes one replayed entry carries to the page; larger entries are cut (not a `WalEntry`'s). */
export const REPLAY_PAYLOAD_BYTES = 16 * 1024;
/** Payloads up to this size are checked (a `WalEntry` reaches the page whole); larger ones are `not-decoded`. */
export const REPLAY_DECODED_BYTES = 1024 * 1024;
/** A replay chunk is sent once its payloads reach this many bytes, whatever its entry count. */
export const REPLAY_CHUNK_BYTES = 1024 * 1024;
/** Entries per replay chunk event, at most. */
export const MAX_REPLAY_CHUNK = 500;
/** Writer state events per second per writer, at most. */
export const WRITER_STATE_EVENTS_PER_SECOND = 10;

const loadFields = {
  regions: z.int().min(1).max(64).default(4),
  writers: z.int().min(1).max(256).default(8),
  count: z.int().min(1).max(10_000_000).default(100_000),
  size: z
    .int()
    .min(1)
    .max(1024 * 1024)
    .default(256),
};

export const walProcedures = {
  'wal.prefixes': procedure(
    'read',
    "WAL prefixes (node, generation) under the connection's WAL root",
    z.object({ connectionId: ConnectionId }).strict(),
    z.array(WalListedPrefix),
  ),
  'wal.fleet': procedure(
    'read',
    'Every prefix under the connection root, both formats, its columns filled as each is read (starts a pass when the last is older than refreshMs)',
    z
      .object({
        connectionId: ConnectionId,
        since: z.number().int().min(0).default(0),
        refreshMs: z.number().int().min(1_000).max(3_600_000).default(5_000),
      })
      .strict(),
    FleetView,
  ),
  'wal.fleet.stop': procedure(
    'read',
    'Stop reading the fleet of a connection (the Overview was left); rows read so far are kept',
    z.object({ connectionId: ConnectionId }).strict(),
    z.object({ stopped: z.boolean() }),
  ),
  'wal.inspect': procedure(
    'read',
    'Recover a prefix read-only: register, tip, chain, orphans, regions, open failure',
    PrefixInput,
    InspectView,
  ),
  'wal.objects': procedure(
    'read',
    "One page of the prefix's objects (chain, orphans, excluded) by sequence",
    z
      .object({
        ...prefixFields,
        status: z.enum(['all', 'damaged', ...WalObjectStatus.options]).default('all'),
        offset: z.int().min(0).max(1_000_000_000).default(0),
        limit: z.int().min(1).max(500).default(100),
      })
      .strict(),
    WalObjectPage,
  ),
  'wal.regions': procedure(
    'read',
    'One page of the regions by id: entries, first / latest / durable id, watermark, objects, bytes, holes',
    z.object({ ...prefixFields, ...pageFields() }).strict(),
    RegionsView,
  ),
  'wal.manifest': procedure(
    'read',
    "The register decoded, its version history and the sealed directory's budget",
    z.object({ ...prefixFields, limit: z.int().min(1).max(256).default(32) }).strict(),
    ManifestView,
  ),
  'wal.verifyObject': procedure(
    'read',
    'Read one WAL object whole and run every check of the format',
    z.object({ connectionId: ConnectionId, key: ObjectKey }).strict(),
    ObjectVerdictView,
  ),
  'wal.decodeObject': procedure(
    'read',
    "Lay out one WAL object's parts (header, link, a page of its segments, footer, trailer) with every CRC's status",
    z
      .object({
        connectionId: ConnectionId,
        key: ObjectKey,
        segmentOffset: pageFields().offset,
        segmentLimit: pageFields(200).limit,
      })
      .strict(),
    DecodedObjectView,
  ),
  'wal.metrics': procedure(
    'read',
    'The metrics of the writer this app holds on the prefix: Prometheus text and a JSON snapshot',
    PrefixInput,
    z.object({ prometheus: z.string(), snapshot: z.record(z.string(), z.unknown()) }),
  ),
  'wal.replay.start': procedure(
    'read',
    'Stream a region from an id as `wal.replay.chunk` events (read-only; bounded, cancellable)',
    z
      .object({
        ...prefixFields,
        region: WalRegionId,
        fromId: WalEntryId.default(1n),
        chunkSize: z.int().min(1).max(MAX_REPLAY_CHUNK).default(100),
        /** Entries per second at most (a readable pace); none: as fast as storage reads. */
        ratePerSecond: z.int().min(1).max(1_000_000).optional(),
        /** Stop after this many entries. */
        maxEntries: z.int().min(1).max(100_000_000).optional(),
      })
      .strict(),
    ReplayProgress,
  ),
  'wal.replay.pause': procedure(
    'read',
    'Pause a replay job (it holds no more than one chunk)',
    z.object({ jobId: JobId }).strict(),
    ReplayProgress,
  ),
  'wal.replay.resume': procedure(
    'read',
    'Resume a paused replay job',
    z.object({ jobId: JobId }).strict(),
    ReplayProgress,
  ),
  'wal.replay.cancel': procedure(
    'read',
    'Cancel a replay job',
    z.object({ jobId: JobId }).strict(),
    ReplayProgress,
  ),
  'wal.replay.progress': procedure(
    'read',
    'Where a replay job is',
    z.object({ jobId: JobId }).strict(),
    ReplayProgress,
  ),
  'wal.writer.open': procedure(
    'operate',
    'Open a writer in the app on the prefix (takes the epoch: fences any other writer)',
    z
      .object({
        ...prefixFields,
        /** Needed when the register was written in the last 30 s: another writer may be live. */
        takeOver: z.boolean().default(false),
        ...confirmField,
        ackMode: z.enum(['durable', 'enqueued']).default('durable'),
        flushIntervalMs: z.int().min(10).max(60_000).default(20),
      })
      .strict(),
    WriterView,
  ),
  'wal.writer.close': procedure(
    'operate',
    "Stop the writer the app holds on the prefix (records the epoch's seal)",
    PrefixInput,
    z.object({ sealed: z.boolean(), lastSeq: z.bigint().nullable(), lost: z.number() }),
  ),
  'wal.writer.state': procedure(
    'read',
    'The writer this app holds on the prefix, or null',
    PrefixInput,
    WriterView.nullable(),
  ),
  'wal.load.start': procedure(
    'operate',
    'Run the load generator on the writer the app holds (samples as `wal.load.sample`); unless `wal.load.offer` offers it freely, confirm = the connection name',
    z.object({ ...prefixFields, ...loadFields, ...confirmField }).strict(),
    z.object({ running: z.boolean() }),
  ),
  'wal.load.stop': procedure(
    'operate',
    'Stop the load generator',
    PrefixInput,
    z.object({ acknowledged: z.number(), failed: z.number() }),
  ),
  'wal.obsolete.preview': procedure(
    'read',
    'What obsoleting a region up to an id would hide',
    z.object({ ...prefixFields, region: WalRegionId, id: WalEntryId }).strict(),
    ObsoletePreview,
  ),
  'wal.obsolete': procedure(
    'operate',
    "Raise a region's obsolete watermark to an id no greater than its latest durable id",
    z.object({ ...prefixFields, region: WalRegionId, id: WalEntryId, ...confirmField }).strict(),
    ObsoletePreview,
  ),
  'wal.obsoleteAll': procedure(
    'operate',
    "Raise a region's watermark to its latest id",
    ConfirmedRegionInput,
    ObsoletePreview,
  ),
  'wal.gc.preview': procedure(
    'read',
    'What a garbage-collection pass would delete now (writes nothing)',
    PrefixInput,
    GcReport,
  ),
  'wal.gc': procedure(
    'operate',
    'One garbage-collection pass on the writer opened in the app: CAS the boundary, then delete below it',
    ConfirmedPrefixInput,
    GcReport,
  ),
  'wal.namespaces.create': procedure(
    'operate',
    "List a region in the register's region table",
    RegionInput,
    z.object({ regionId: z.bigint() }),
  ),
  'wal.namespaces.delete': procedure(
    'operate',
    'Obsolete a region wholly and remove it from the region table',
    ConfirmedRegionInput,
    z.object({ regionId: z.bigint() }),
  ),
};

export type WalEvent =
  | {
      readonly type: 'wal.writer.state';
      readonly connectionId: string;
      readonly prefix: string;
      readonly writer: WriterView | null;
    }
  | {
      readonly type: 'wal.replay.chunk';
      readonly jobId: string;
      readonly entries: readonly ReplayEntryView[];
      /** Damaged segments skipped after `entries` (hole rows), in stream order. */
      readonly holes?: readonly ReplayHoleView[];
      readonly progress: ReplayProgress;
    }
  | { readonly type: 'wal.replay.done'; readonly jobId: string; readonly progress: ReplayProgress }
  | {
      /** The writer re-opened itself under a new epoch: its start gap was spent (wal.md). */
      readonly type: 'wal.writer.reopened';
      readonly connectionId: string;
      readonly prefix: string;
      readonly reopen: WriterReopenView;
    }
  | {
      readonly type: 'wal.gc.collected';
      readonly connectionId: string;
      readonly prefix: string;
      readonly report: GcReport;
    }
  | {
      readonly type: 'wal.load.sample';
      readonly connectionId: string;
      readonly prefix: string;
      readonly sample: LoadSample;
      readonly running: boolean;
    };
