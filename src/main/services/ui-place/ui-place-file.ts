/**
 * DATA_DIR/ui-place.json: the console's last place (`contract/ui-place.ts`). Written whole and
 * atomically; read back only when it passes the schema (a foreign or damaged file is ignored,
 * never trusted or repaired). Saves are serialised, so the last one called is the one kept.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { UiPlace } from '../../../shared/contract/ui-place';
import { readJsonFile, writeJsonFileAtomic } from '../json-file';

const FILE_NAME = 'ui-place.json';
const UiPlaceFileSchema = z.object({ version: z.literal(1), place: UiPlace }).strict();

export class UiPlaceFile {
  private readonly path: string;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.path = join(dataDir, FILE_NAME);
  }

  async read(): Promise<UiPlace | null> {
    await this.writes;
    let stored: unknown;
    try {
      stored = await readJsonFile(this.path);
    } catch {
      return null; // Not JSON: as if none were kept.
    }
    const parsed = UiPlaceFileSchema.safeParse(stored);
    return parsed.success ? parsed.data.place : null;
  }

  async save(hash: string, now: Date = new Date()): Promise<void> {
    const place: UiPlace = { hash, savedAt: now.toISOString() };
    const write = this.writes.then(() => writeJsonFileAtomic(this.path, { version: 1, place }));
    this.writes = write.catch(() => undefined);
    await write;
  }
}
