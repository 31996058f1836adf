/**
 * A bulk entry's Arrow IPC parts checked before the Arrow library reads them, and framed as the
 * IPC stream it reads. GreptimeDB writes them as Arrow Flight does (`FlightEncoder`): the
 * schema message's flatbuffer, the record batch message's flatbuffer, and the batch's body
 * (spec: greptimedb-entries.md; the flatbuffer layout is Arrow's `Message.fbs` and
 * `Schema.fbs`). The library trusts every count and length a flatbuffer declares - a vector of
 * 2^31 field nodes is 2^31 objects, a batch of 2^40 rows a bitmap of 2^37 bytes - so each is
 * first compared here with the bytes that are there: every vector must fit its message, every
 * buffer its body, every length what the body can hold. Nothing is allocated from a declared
 * length; a part that fails says why. Pure.
 */
import type { BulkDecodeFailure } from '../entry-table';

export class BulkDecodeError extends Error {
  constructor(readonly failure: BulkDecodeFailure) {
    super(`${failure.reason}: ${failure.detail}`);
  }
}

export function bulkFail(reason: BulkDecodeFailure['reason'], detail: string): never {
  throw new BulkDecodeError({ reason, detail });
}

/** Nesting of a schema's fields past which it is refused (Arrow's own readers stop at 64). */
const MAX_FIELD_DEPTH = 64;
/** Arrow's `MessageHeader` union: the two kinds a bulk entry holds. */
export const HEADER_SCHEMA = 1;
const HEADER_RECORD_BATCH = 3;
/** `Type` union cases a bulk entry cannot carry: a union's type ids vector, views' buffers. */
const TYPE_UNION = 14;
/** Arrow's `FieldNode` and `Buffer` structs: two i64 each. */
const STRUCT_BYTES = 16;

/** Reads a flatbuffer's tables, fields and vectors, each checked to lie within its bytes. */
export class Flatbuffer {
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly part: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private within(at: number, size: number): number {
    if (at < 0 || at + size > this.bytes.length)
      bulkFail('invalid-ipc', `${this.part}: an offset points past its ${this.bytes.length} bytes`);
    return at;
  }

  u8(at: number): number {
    return this.view.getUint8(this.within(at, 1));
  }

  u16(at: number): number {
    return this.view.getUint16(this.within(at, 2), true);
  }

  u32(at: number): number {
    return this.view.getUint32(this.within(at, 4), true);
  }

  i64(at: number): bigint {
    return this.view.getBigInt64(this.within(at, 8), true);
  }

  /** The root table's position. */
  root(): number {
    return this.u32(0);
  }

  /** Where field `index` of the table at `table` is, or 0 when it is absent. */
  field(table: number, index: number): number {
    const vtable = table - this.view.getInt32(this.within(table, 4), true);
    const size = this.view.getUint16(this.within(vtable, 2), true);
    const slot = 4 + 2 * index;
    if (slot + 2 > size) return 0;
    const offset = this.view.getUint16(this.within(vtable + slot, 2), true);
    return offset === 0 ? 0 : this.within(table + offset, 1);
  }

  /** What the offset stored at `at` points to. */
  target(at: number): number {
    return this.within(at + this.u32(at), 4);
  }

  /** The vector in field `index`: where its elements start and how many; checked to fit. */
  vector(table: number, index: number, elementBytes: number): { start: number; count: number } {
    const at = this.field(table, index);
    if (at === 0) return { start: 0, count: 0 };
    const vector = this.target(at);
    const count = this.u32(vector);
    if (count * elementBytes > this.bytes.length - vector - 4)
      bulkFail('invalid-ipc', `${this.part}: a vector of ${count} runs past its bytes`);
    return { start: vector + 4, count };
  }

  /** A string or table reference in field `index` checked to fit; its position or 0. */
  reference(table: number, index: number): number {
    const at = this.field(table, index);
    return at === 0 ? 0 : this.target(at);
  }

  /** A string's length checked to fit. */
  string(table: number, index: number): void {
    const at = this.reference(table, index);
    if (at !== 0 && this.u32(at) > this.bytes.length - at - 4)
      bulkFail('invalid-ipc', `${this.part}: a string runs past its bytes`);
  }

  /** The message's header table, after checking its type; and its declared body length. */
  message(expected: number): { header: number; bodyLength: bigint } {
    const root = this.root();
    const typeAt = this.field(root, 1);
    const type = typeAt === 0 ? 0 : this.u8(typeAt);
    if (type !== expected)
      bulkFail('invalid-ipc', `${this.part}: message header type ${type}, not ${expected}`);
    const header = this.reference(root, 2);
    if (header === 0) bulkFail('invalid-ipc', `${this.part}: the message has no header`);
    this.keyValues(root, 4);
    const bodyAt = this.field(root, 3);
    return { header, bodyLength: bodyAt === 0 ? 0n : this.i64(bodyAt) };
  }

  /** A `custom_metadata` vector of KeyValue tables. */
  keyValues(table: number, index: number): void {
    const { start, count } = this.vector(table, index, 4);
    for (let at = 0; at < count; at++) {
      const pair = this.target(start + 4 * at);
      this.string(pair, 0);
      this.string(pair, 1);
    }
  }
}

/** A schema's `Field` table and its children, each vector checked; dictionaries refused. */
function checkField(fb: Flatbuffer, field: number, depth: number): void {
  if (depth > MAX_FIELD_DEPTH) bulkFail('invalid-ipc', 'schema: fields nest too deep');
  fb.string(field, 0);
  const typeAt = fb.field(field, 2);
  if (typeAt !== 0 && fb.u8(typeAt) === TYPE_UNION)
    bulkFail('unsupported', 'schema: a union column');
  if (fb.reference(field, 4) !== 0)
    bulkFail(
      'unsupported',
      'schema: a dictionary-encoded column (its dictionary is not in a WAL entry)',
    );
  const children = fb.vector(field, 5, 4);
  for (let at = 0; at < children.count; at++)
    checkField(fb, fb.target(children.start + 4 * at), depth + 1);
  fb.keyValues(field, 6);
}

/** The schema message: its fields, nested fields and metadata all fit; returns how many fields. */
export function checkSchema(bytes: Uint8Array): number {
  const fb = new Flatbuffer(bytes, 'schema');
  const { header } = fb.message(HEADER_SCHEMA);
  const fields = fb.vector(header, 1, 4);
  for (let at = 0; at < fields.count; at++) checkField(fb, fb.target(fields.start + 4 * at), 0);
  fb.keyValues(header, 2);
  fb.vector(header, 3, 8);
  return fields.count;
}

/**
 * The record batch message against its body: every buffer inside it, the body no longer
 * than the payload, no compression, and no length above `8 × body bytes + 64` (each row of a
 * column with a buffer takes at least a bit of it). Returns the declared body length.
 */
export function checkRecordBatch(bytes: Uint8Array, bodyBytes: number): number {
  const fb = new Flatbuffer(bytes, 'data header');
  const { header, bodyLength } = fb.message(HEADER_RECORD_BATCH);
  if (bodyLength < 0n || bodyLength > BigInt(bodyBytes))
    bulkFail(
      'too-large',
      `the batch declares a ${bodyLength}-byte body, the payload has ${bodyBytes}`,
    );
  const most = BigInt(bodyBytes) * 8n + 64n;
  const lengthAt = fb.field(header, 0);
  const rows = lengthAt === 0 ? 0n : fb.i64(lengthAt);
  if (rows < 0n || rows > most)
    bulkFail(
      'too-large',
      `the batch declares ${rows} rows, its ${bodyBytes}-byte body holds fewer`,
    );
  const nodes = fb.vector(header, 1, STRUCT_BYTES);
  for (let at = 0; at < nodes.count; at++) {
    const length = fb.i64(nodes.start + STRUCT_BYTES * at);
    const nulls = fb.i64(nodes.start + STRUCT_BYTES * at + 8);
    if (length < 0n || length > most || nulls < 0n || nulls > length)
      bulkFail('too-large', `column node ${at} declares ${length} values, ${nulls} null`);
  }
  const buffers = fb.vector(header, 2, STRUCT_BYTES);
  for (let at = 0; at < buffers.count; at++) {
    const offset = fb.i64(buffers.start + STRUCT_BYTES * at);
    const length = fb.i64(buffers.start + STRUCT_BYTES * at + 8);
    if (offset < 0n || length < 0n || offset + length > bodyLength)
      bulkFail(
        'too-large',
        `buffer ${at} (${length} bytes at ${offset}) is outside the ${bodyLength}-byte body`,
      );
  }
  if (fb.reference(header, 3) !== 0) bulkFail('unsupported', 'a compressed record batch body');
  fb.vector(header, 4, 8);
  return Number(bodyLength);
}

const CONTINUATION = 0xffffffff;

function padded(length: number): number {
  return (length + 7) & ~7;
}

/**
 * The IPC stream of the parts: each message framed (continuation marker, its padded length,
 * its flatbuffer), the body after the batch, then end-of-stream.
 */
export function ipcStream(
  schema: Uint8Array,
  dataHeader: Uint8Array,
  body: Uint8Array,
): Uint8Array {
  const total = 8 + padded(schema.length) + 8 + padded(dataHeader.length) + body.length + 8;
  const stream = new Uint8Array(total);
  const view = new DataView(stream.buffer);
  let at = 0;
  for (const message of [schema, dataHeader]) {
    view.setUint32(at, CONTINUATION, true);
    view.setInt32(at + 4, padded(message.length), true);
    stream.set(message, at + 8);
    at += 8 + padded(message.length);
  }
  stream.set(body, at);
  view.setUint32(at + body.length, CONTINUATION, true);
  return stream;
}
