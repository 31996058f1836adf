/**
 * The judged model of a prefix, kept beside its local index (`<digest>.report` next to
 * `<digest>.idx`): the whole report an inspection made, with the stamps of the folders it was
 * judged from (`ObjectIo.folderStamp`: a local directory's identity and change times). A later
 * process whose folders carry the same stamps - no key created, deleted or renamed there since -
 * takes the report as it is: no listing, no stat per key, no recall, no judging. A store with
 * no stamps (S3), a stamp that moved, a file written by another V8 or for another store or
 * prefix: nothing is recalled, and the next save replaces the file.
 *
 * What it trusts: objects are immutable, so a folder whose keys did not change holds the same
 * objects. An object rewritten in place by hand keeps its folder's stamp and is not seen until
 * the folder changes or `--no-cache` reads it (`cairn cache clear` removes every report).
 * Written whole (a temporary file renamed over it); never reads a store.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import type { IndexIdentity } from './index-file';
import type { ObjectIndexStore } from './index-store';

const MAGIC = 'cairn-judged-report';
const VERSION = 1;

interface ReportHeader extends IndexIdentity {
  readonly magic: string;
  readonly version: number;
  /** The V8 that serialized the report: another one's bytes are not read. */
  readonly v8: string;
  readonly stamps: readonly string[];
}

function headerOf(identity: IndexIdentity, stamps: readonly string[]): ReportHeader {
  return {
    magic: MAGIC,
    version: VERSION,
    v8: process.versions.v8,
    store: identity.store,
    prefix: identity.prefix,
    format: identity.format,
    stamps,
  };
}

/** The header a file must carry to be trusted for `identity` at `stamps`, as text. */
function expectedHeader(identity: IndexIdentity, stamps: readonly string[]): string {
  return JSON.stringify(headerOf(identity, stamps));
}

export class JudgedReports {
  constructor(private readonly index: ObjectIndexStore) {}

  /** The report kept for `identity` when its folders still carry `stamps`, else null. */
  async load(identity: IndexIdentity, stamps: readonly string[]): Promise<unknown> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.index.reportFileOf(identity));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (bytes.length < 4) return null;
    const headerLength = bytes.readUInt32LE(0);
    if (4 + headerLength > bytes.length) return null;
    const header = bytes.subarray(4, 4 + headerLength).toString('utf8');
    if (header !== expectedHeader(identity, stamps)) return null;
    try {
      return deserialize(bytes.subarray(4 + headerLength)) as unknown;
    } catch {
      return null; // A damaged file: judged again, and replaced by the next save.
    }
  }

  /** Keeps `report` as judged from folders that carried `stamps`. */
  async save(identity: IndexIdentity, stamps: readonly string[], report: unknown): Promise<void> {
    const header = Buffer.from(expectedHeader(identity, stamps), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    const file = this.index.reportFileOf(identity);
    await mkdir(this.index.folder, { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, Buffer.concat([length, header, serialize(report)]), { mode: 0o600 });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
