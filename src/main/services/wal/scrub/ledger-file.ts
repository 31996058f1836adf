/**
 * The damage ledger kept across restarts: `DATA_DIR/damage-ledger.json`, written whole (atomic
 * rename) after the ledger changes, saves coalesced so at most one is in flight. A finding is
 * only a claim about an object of a given size and ETag: restored, it is shown again only once
 * the store confirms the object is still that one (the ledger's HEAD before a view shows it),
 * so a file from before a rewrite or a collection shows nothing stale - and, since anyone who
 * can write the data directory can forge a finding, only once the object is read and found
 * damaged again. A file that is not this format (damaged, foreign, a newer version, a field past
 * its bound, a time a Date cannot hold, a file past 256 MiB) is never trusted: the ledger
 * starts empty and the next save replaces it, and the one warning says so. Beside the findings
 * it keeps each prefix's verify coverage (version 2; a version-1 file is read as findings
 * without coverage), which the CLI reads and writes too: `cairn wal fleet` shares the console's
 * memory.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFileAtomic } from '../../json-file';
import { MAX_FINDINGS_PER_PREFIX, type DamageFinding } from './damage-ledger';
import type { PartialPass, PrefixCoverage, VerifyPass } from './coverage-book';

/** Regions one finding names at most (a segment per region of one object). */
const MAX_REGIONS_PER_FINDING = 65_536;
/** Prefixes the file keeps findings (or coverage) of at most. */
const MAX_LEDGER_PREFIXES = 100_000;

export const LEDGER_FILE = 'damage-ledger.json';
const FORMAT = 'cairn-damage-ledger';
const VERSION = 2;

/** One prefix's verify coverage, by slot. */
export interface StoredCoverage {
  readonly slot: string;
  readonly coverage: PrefixCoverage;
}

/** One prefix's findings, by slot (connection and prefix). */
export interface StoredPrefix {
  readonly slot: string;
  readonly findings: readonly DamageFinding[];
}

/** The file's own bound: what 64 prefixes of `MAX_FINDINGS_PER_PREFIX` findings weigh, and more. */
const MAX_LEDGER_FILE_BYTES = 256 * 1024 * 1024;
/** The most milliseconds a Date holds either side of 1970 (ECMA-262's time value range). */
const MAX_DATE_MS = 8.64e15;

const Decimal = z.string().regex(/^\d{1,20}$/);
const Text = (max: number) => z.string().max(max);
// Every bound is what this app writes, with room: a file past one is not this app's.
const StoredFinding = z.object({
  key: z.string().min(1).max(1024),
  seq: Decimal.nullable(),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable(),
  etag: Text(256).nullable(),
  check: Text(256),
  detail: Text(4096),
  regions: z.array(Decimal).max(MAX_REGIONS_PER_FINDING).nullable(),
  ranges: z
    .array(z.object({ regionId: Decimal, firstId: Decimal, lastId: Decimal }))
    .max(MAX_REGIONS_PER_FINDING),
  source: z.enum(['scrub', 'replay']),
  // A time a Date cannot hold blanked the console (RangeError: Invalid time value).
  foundAtMs: z.number().int().min(-MAX_DATE_MS).max(MAX_DATE_MS),
});
const TimeMs = z.number().int().min(-MAX_DATE_MS).max(MAX_DATE_MS);
const Counts = {
  startedAtMs: TimeMs,
  objects: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  damaged: z.number().int().nonnegative(),
  throughSeq: Decimal.nullable(),
};
const StoredPass = z.object({ ...Counts, endedAtMs: TimeMs });
const StoredPartial = z.object({ ...Counts, afterKey: Text(1024) });
const CoverageEntry = z.object({
  slot: Text(4096),
  complete: StoredPass.nullable(),
  partial: StoredPartial.nullable(),
});
const LedgerDocument = z.object({
  format: z.literal(FORMAT),
  version: z.union([z.literal(1), z.literal(VERSION)]),
  prefixes: z
    .array(
      z.object({
        slot: Text(4096),
        findings: z.array(StoredFinding).max(MAX_FINDINGS_PER_PREFIX),
      }),
    )
    .max(MAX_LEDGER_PREFIXES),
  coverage: z.array(CoverageEntry).max(MAX_LEDGER_PREFIXES).default([]),
});
type StoredFinding = z.infer<typeof StoredFinding>;
type CoverageEntry = z.infer<typeof CoverageEntry>;

const seqText = (seq: bigint | null): string | null => (seq === null ? null : String(seq));
const seqOf = (text: string | null): bigint | null => (text === null ? null : BigInt(text));

function coverageEntryOf({ slot, coverage }: StoredCoverage): CoverageEntry {
  const { complete, partial } = coverage;
  return {
    slot,
    complete: complete === null ? null : { ...complete, throughSeq: seqText(complete.throughSeq) },
    partial: partial === null ? null : { ...partial, throughSeq: seqText(partial.throughSeq) },
  };
}

function coverageOf(entry: CoverageEntry): StoredCoverage {
  const complete: VerifyPass | null =
    entry.complete === null
      ? null
      : { ...entry.complete, throughSeq: seqOf(entry.complete.throughSeq) };
  const partial: PartialPass | null =
    entry.partial === null
      ? null
      : { ...entry.partial, throughSeq: seqOf(entry.partial.throughSeq) };
  return { slot: entry.slot, coverage: { complete, partial } };
}

function toStored(finding: DamageFinding): StoredFinding {
  return {
    key: finding.key,
    seq: finding.seq === null ? null : String(finding.seq),
    size: finding.size,
    etag: finding.etag,
    check: finding.check,
    detail: finding.detail,
    regions: finding.regions === null ? null : finding.regions.map(String),
    ranges: finding.ranges.map((range) => ({
      regionId: String(range.regionId),
      firstId: String(range.firstId),
      lastId: String(range.lastId),
    })),
    source: finding.source,
    foundAtMs: finding.foundAtMs,
  };
}

function fromStored(stored: StoredFinding): DamageFinding {
  return {
    ...stored,
    seq: stored.seq === null ? null : BigInt(stored.seq),
    regions: stored.regions === null ? null : stored.regions.map(BigInt),
    ranges: stored.ranges.map((range) => ({
      regionId: BigInt(range.regionId),
      firstId: BigInt(range.firstId),
      lastId: BigInt(range.lastId),
    })),
    // Never confirmed in this process: shown only once the store's bytes confirm it
    // (see DamageLedger.current).
    checkedAtMs: 0,
    confirmed: false,
  };
}

export class LedgerFile {
  readonly path: string;
  private saving: Promise<void> | null = null;
  private dirty = false;
  private findingsOf: (() => readonly StoredPrefix[]) | null = null;
  private coverageOf: (() => readonly StoredCoverage[]) | null = null;
  /** The coverage last read or written: kept as it is until a coverage snapshot is given. */
  private lastCoverage: readonly StoredCoverage[] = [];

  constructor(
    dataDir: string,
    private readonly warn: (message: string) => void = (message) =>
      process.stderr.write(`cairn: ${message}\n`),
  ) {
    this.path = join(dataDir, LEDGER_FILE);
  }

  /** The findings the file holds; none when it is absent or not a ledger this app wrote. */
  async load(): Promise<StoredPrefix[]> {
    return (await this.loadAll()).findings;
  }

  /** The findings and the coverage the file holds (none when absent or foreign). */
  async loadAll(): Promise<{ findings: StoredPrefix[]; coverage: StoredCoverage[] }> {
    let document: unknown;
    try {
      document = await readJsonFile(this.path, MAX_LEDGER_FILE_BYTES);
    } catch (error) {
      this.warn(`the damage ledger ${this.path} was not read (${String(error)}); starting empty`);
      return { findings: [], coverage: [] };
    }
    if (document === undefined) return { findings: [], coverage: [] };
    const parsed = LedgerDocument.safeParse(document);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined ? '' : ` (${issue.path.join('.')}: ${issue.message})`;
      this.warn(`the damage ledger ${this.path} is not one this app wrote${where}; starting empty`);
      return { findings: [], coverage: [] };
    }
    const coverage = parsed.data.coverage.map(coverageOf);
    if (this.coverageOf === null) this.lastCoverage = coverage;
    return {
      findings: parsed.data.prefixes.map((prefix) => ({
        slot: prefix.slot,
        findings: prefix.findings.map(fromStored),
      })),
      coverage,
    };
  }

  /**
   * Saves what `snapshot` gives when the save in flight (if any) has ended: many changes in a
   * row cost one write each time the disk is free, the last state always written.
   */
  save(snapshot: () => readonly StoredPrefix[]): void {
    this.findingsOf = snapshot;
    this.changed();
  }

  /** As `save`, for the coverage: both are written together, each as last given. */
  saveCoverage(snapshot: () => readonly StoredCoverage[]): void {
    this.coverageOf = snapshot;
    this.changed();
  }

  private changed(): void {
    this.dirty = true;
    this.saving ??= this.drain();
  }

  /** Resolves once every save asked for so far is on disk (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.saving !== null) await this.saving;
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        if (this.coverageOf !== null) this.lastCoverage = this.coverageOf();
        await this.write(this.findingsOf?.() ?? [], this.lastCoverage);
      }
    } finally {
      this.saving = null;
    }
  }

  private async write(
    prefixes: readonly StoredPrefix[],
    coverage: readonly StoredCoverage[],
  ): Promise<void> {
    const document = {
      format: FORMAT,
      version: VERSION,
      prefixes: prefixes
        .filter((prefix) => prefix.findings.length > 0)
        .map((prefix) => ({ slot: prefix.slot, findings: prefix.findings.map(toStored) })),
      coverage: coverage.map(coverageEntryOf),
    };
    try {
      await writeJsonFileAtomic(this.path, document);
    } catch (error) {
      this.warn(`the damage ledger could not be saved to ${this.path}: ${String(error)}`);
    }
  }
}
