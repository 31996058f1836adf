/**
 * The SHA-256 the S3 client signs requests with (SigV4 hashes every request body). A WAL
 * object's body is up to `maxBatchBytes` (1 MiB and more): hashing it on the thread that
 * hosts the engine costs ~2 ms a create, time the console's IPC would wait behind. Bodies
 * from `OFF_THREAD_FROM_BYTES` are hashed by WebCrypto, whose digest runs on libuv's thread
 * pool; keyed hashes (HMAC, signing keys) and small bodies stay synchronous, where a thread
 * hop would cost more than the hash.
 *
 * The payload stays signed (not `UNSIGNED-PAYLOAD`): the server then refuses a body damaged
 * on the way, so the create fails and is retried instead of storing a corrupt object.
 */
import { createHash, createHmac, webcrypto } from 'node:crypto';

export const OFF_THREAD_FROM_BYTES = 64 * 1024;

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytesOf(data: SourceData): Uint8Array {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (ArrayBuffer.isView(data))
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

/** The S3 client's `sha256` hash constructor: `new PayloadSha256(secret?)` is an HMAC when keyed. */
export class PayloadSha256 {
  readonly digestLength = 32;
  private chunks: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly secret?: SourceData) {}

  /** Keeps a view until `digest`: the SDK hands a body over and awaits its digest at once. */
  update(chunk: SourceData): void {
    const bytes = bytesOf(chunk);
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  async digest(): Promise<Uint8Array> {
    if (this.secret === undefined && this.size >= OFF_THREAD_FROM_BYTES)
      return new Uint8Array(await webcrypto.subtle.digest('SHA-256', this.joined()));
    const hash =
      this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(this.secret));
    for (const chunk of this.chunks) hash.update(chunk);
    return new Uint8Array(hash.digest());
  }

  reset(): void {
    this.chunks = [];
    this.size = 0;
  }

  /** The data as one view: the body itself when it came in one chunk (the SDK's case). */
  private joined(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const joined = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    return joined;
  }
}
