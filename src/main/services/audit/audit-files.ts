/**
 * The audit log's files in the data directory: `audit.jsonl` is written now; once it outgrows
 * its size limit it is rotated to `audit.<n>.jsonl`, n counting up from 1, so a higher n is
 * newer and the current file is generation `highest n + 1`. A generation keeps its number when
 * it is rotated, so a page cursor (`<generation>:<offset>`) stays valid across a rotation.
 * Rotation links the current file to its new name before unlinking the old one: the entries
 * are under one name or the other at every moment, and an append racing it lands in the
 * rotated file (the same inode). Rotated files are kept; nothing here deletes an entry.
 */
import { link, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const CURRENT_AUDIT_FILE = 'audit.jsonl';
const ROTATED = /^audit\.(\d{1,9})\.jsonl$/;

export interface Generations {
  /** The oldest generation still on disk (the current one when none was rotated). */
  readonly oldest: number;
  /** The generation `audit.jsonl` holds. */
  readonly current: number;
}

export interface AuditCursor {
  readonly generation: number;
  /** Lines before this byte offset; null: the whole file. */
  readonly end: number | null;
}

export class AuditFiles {
  readonly currentFile: string;

  constructor(private readonly dataDir: string) {
    this.currentFile = join(dataDir, CURRENT_AUDIT_FILE);
  }

  async generations(): Promise<Generations> {
    const rotated = await this.rotatedNumbers();
    if (rotated.length === 0) return { oldest: 1, current: 1 };
    return { oldest: rotated[0]!, current: rotated[rotated.length - 1]! + 1 };
  }

  /** The file of `generation` when `current` is the current one. */
  fileOf(generation: number, current: number): string {
    return generation >= current ? this.currentFile : join(this.dataDir, rotatedName(generation));
  }

  /** Bytes in the current file (0 when there is none yet). */
  async currentBytes(): Promise<number> {
    try {
      return (await stat(this.currentFile)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
  }

  /**
   * Moves the current file to the next generation's name. A name taken meanwhile (another
   * process rotated first) is read again; returns false when the current file is then under
   * `keepBelow` bytes, so no longer worth rotating.
   */
  async rotate(keepBelow: number): Promise<boolean> {
    for (;;) {
      const { current } = await this.generations();
      const target = join(this.dataDir, rotatedName(current));
      try {
        await link(this.currentFile, target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return false; // Rotated by another process, nothing written since.
        if (code !== 'EEXIST') throw error;
        // Another process is rotating this very file: it unlinks the current name itself.
        if (await sameFile(this.currentFile, target)) return false;
        if ((await this.currentBytes()) < keepBelow) return false;
        continue;
      }
      await unlink(this.currentFile).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
      return true;
    }
  }

  private async rotatedNumbers(): Promise<number[]> {
    const names = await readdir(this.dataDir).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [] as string[];
      throw error;
    });
    const numbers: number[] = [];
    for (const name of names) {
      const match = ROTATED.exec(name);
      if (match !== null) numbers.push(Number(match[1]));
    }
    return numbers.sort((a, b) => a - b);
  }
}

async function sameFile(a: string, b: string): Promise<boolean> {
  const [one, other] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  return one !== null && other !== null && one.ino === other.ino && one.dev === other.dev;
}

function rotatedName(generation: number): string {
  return `audit.${generation}.jsonl`;
}

export function encodeCursor(cursor: AuditCursor): string {
  return cursor.end === null ? String(cursor.generation) : `${cursor.generation}:${cursor.end}`;
}

/** The contract's pattern has checked the shape already. */
export function decodeCursor(text: string): AuditCursor {
  const [generation, end] = text.split(':');
  return { generation: Number(generation), end: end === undefined ? null : Number(end) };
}
