/**
 * The audit trail of operator actions: one JSON line per action in the data directory,
 * appended before the result is returned, and announced to every open window. Appends are made
 * one at a time; the file rotates by size (`audit/audit-files.ts`) and rotated files are kept,
 * so no entry is ever dropped. Reads start at the newest line and page back through the
 * files (`audit/lines-backward.ts`): a log of any size costs a page what the page weighs.
 * A line that does not parse as an entry is counted as unreadable, never thrown. Entries are
 * flushed before `record` returns, and a write that fails is `AuditUnavailable`; a started
 * entry (written ahead of its action) is hidden once an outcome answers it.
 */
import { mkdir } from 'node:fs/promises';
import type { AuditEntry } from '../../shared/contract';
import { AuditEntrySchema, type AuditPage } from '../../shared/contract/audit';
import { decodeWire, encodeWire } from '../../shared/wire';
import type { EventBus } from './event-bus';
import { AuditFiles, decodeCursor, encodeCursor } from './audit/audit-files';
import { BACKWARD_DEFAULTS, linesBackward, type BackwardOptions } from './audit/lines-backward';
import { AnsweredIntents, type AuditLine } from './audit/answered-intents';
import { AuditUnavailableError, writeFailureReason } from './audit/audit-unavailable';
import { appendDurably } from './audit/durable-append';

/** A line longer than this is no entry Cairn wrote (parameters are bounded by the API). */
const MAX_AUDIT_LINE_CHARS = 1024 * 1024;

export interface AuditLogOptions {
  /** The current file is rotated before an append would take it past this many bytes. */
  readonly maxFileBytes: number;
  readonly read: BackwardOptions;
}

export const AUDIT_LOG_DEFAULTS: AuditLogOptions = {
  maxFileBytes: 32 * 1024 * 1024,
  read: BACKWARD_DEFAULTS,
};

export class AuditLog {
  /** The file appended to now. */
  readonly file: string;
  private readonly files: AuditFiles;
  private appending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    private readonly events: EventBus,
    private readonly options: AuditLogOptions = AUDIT_LOG_DEFAULTS,
  ) {
    this.files = new AuditFiles(dataDir);
    this.file = this.files.currentFile;
  }

  /**
   * Appends `entry`, flushed to disk, before returning; `intent` ties a started entry and the
   * outcomes that answer it (`audit/write-ahead.ts`). A write that fails is `AuditUnavailable`.
   */
  async record(entry: Omit<AuditEntry, 'at'>, intent?: string): Promise<AuditEntry> {
    const full: AuditEntry = { at: new Date().toISOString(), ...entry };
    // superjson keeps bigint ids exact in the parameters.
    const stored = { ...full, parameters: JSON.parse(encodeWire(full.parameters)) as unknown };
    const line = JSON.stringify(intent === undefined ? stored : { ...stored, intent }) + '\n';
    const appended = this.appending.then(() => this.append(line));
    this.appending = appended.catch(() => undefined);
    try {
      await appended;
    } catch (error) {
      throw new AuditUnavailableError(this.file, writeFailureReason(error), { cause: error });
    }
    // A started entry is news only if its outcome never comes: windows hear the outcome.
    if (full.result !== 'started') this.events.publish({ type: 'audit.recorded', entry: full });
    return full;
  }

  /** Newest first, at most `limit` entries. */
  async recent(limit: number): Promise<AuditEntry[]> {
    return (await this.page(limit)).entries;
  }

  /**
   * At most `limit` entries, newest first, from the newest or from before `before` (a page's
   * `older` cursor), and the cursor of the entries older still (null: none).
   */
  async page(limit: number, before?: string): Promise<AuditPage> {
    const { oldest, current } = await this.files.generations();
    const from = before === undefined ? { generation: current, end: null } : decodeCursor(before);
    const entries: AuditEntry[] = [];
    const answered = new AnsweredIntents();
    let unreadable = 0;
    let end = from.end;
    // Once the page is full: where the older entries start, kept until one more is seen to
    // show (answered started entries are hidden, so older lines may hold none to show).
    let older: string | null = null;
    for (let generation = Math.min(from.generation, current); generation >= oldest; generation--) {
      const file = this.files.fileOf(generation, current);
      for await (const line of linesBackward(file, end ?? Infinity, this.options.read)) {
        const read = line.text === null ? null : lineOf(line.text);
        if (read === null) {
          if (older === null) unreadable += 1;
          continue;
        }
        if (!answered.shows(read)) continue;
        if (older !== null) return { entries, older, unreadable };
        entries.push(read.entry);
        if (entries.length < limit) continue;
        older =
          line.start > 0
            ? encodeCursor({ generation, end: line.start })
            : generation > oldest
              ? encodeCursor({ generation: generation - 1, end: null })
              : null;
        if (older === null) return { entries, older, unreadable };
      }
      end = null;
    }
    return { entries, older: null, unreadable };
  }

  private async append(line: string): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    const bytes = Buffer.byteLength(line);
    const size = await this.files.currentBytes();
    if (size > 0 && size + bytes > this.options.maxFileBytes)
      await this.files.rotate(this.options.maxFileBytes - bytes);
    await appendDurably(this.file, line);
  }
}

/** The entry a line holds, its parameters decoded back to what the call was given; or null. */
function lineOf(text: string): AuditLine | null {
  if (text.length > MAX_AUDIT_LINE_CHARS) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const checked = AuditEntrySchema.safeParse(parsed);
  if (!checked.success) return null;
  const intent = (parsed as { intent?: unknown }).intent;
  return {
    entry: { ...checked.data, parameters: parametersOf(checked.data.parameters) },
    intent: typeof intent === 'string' ? intent : null,
  };
}

/** Parameters are stored as superjson's `{ json, meta }`; anything else is shown as it is. */
function parametersOf(stored: unknown): unknown {
  if (typeof stored !== 'object' || stored === null || !('json' in stored)) return stored;
  try {
    return decodeWire(JSON.stringify(stored));
  } catch {
    return stored;
  }
}
