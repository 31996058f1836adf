/**
 * The audit trail of operator actions: one JSON line per action in the data directory,
 * appended before the result is returned, and announced to every open window.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditEntry } from '../../shared/contract';
import { encodeWire } from '../../shared/wire';
import type { EventBus } from './event-bus';

export class AuditLog {
  readonly file: string;

  constructor(
    private readonly dataDir: string,
    private readonly events: EventBus,
  ) {
    this.file = join(dataDir, 'audit.jsonl');
  }

  async record(entry: Omit<AuditEntry, 'at'>): Promise<AuditEntry> {
    const full: AuditEntry = { at: new Date().toISOString(), ...entry };
    await mkdir(this.dataDir, { recursive: true });
    // superjson keeps bigint ids exact in the parameters.
    await appendFile(
      this.file,
      JSON.stringify({ ...full, parameters: JSON.parse(encodeWire(full.parameters)) as unknown }) +
        '\n',
    );
    this.events.publish({ type: 'audit.recorded', entry: full });
    return full;
  }

  /** Newest first, at most `limit` entries. */
  async recent(limit: number): Promise<AuditEntry[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const lines = text.split('\n').filter((line) => line.length > 0);
    return lines
      .slice(-limit)
      .reverse()
      .map((line) => JSON.parse(line) as AuditEntry);
  }
}
