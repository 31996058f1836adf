/**
 * The wire codec shared by both transports (IPC and WebSocket). JSON cannot carry bigint
 * (entry ids, region ids) or bytes (payloads), so every message goes through superjson with
 * Uint8Array registered. Imported by main, preload and renderer alike; imports nothing of theirs.
 */
import superjson from 'superjson';

superjson.registerCustom<Uint8Array, string>(
  {
    isApplicable: (value): value is Uint8Array => value instanceof Uint8Array,
    serialize: (bytes) => bytesToBase64(bytes),
    deserialize: (text) => base64ToBytes(text),
  },
  'bytes',
);

export function encodeWire(value: unknown): string {
  return superjson.stringify(value);
}

export function decodeWire(text: string): unknown {
  return superjson.parse(text);
}

/**
 * Node's Buffer where it exists (the main process, the CLI): its base64 is native, while Node's
 * btoa / atob take ~200 ms per MiB - enough for a few 1 MiB replies to stall every other
 * client of the engine's thread. The renderer has no Buffer and a fast btoa.
 */
interface NodeBufferLike {
  from(bytes: ArrayBufferLike, offset: number, length: number): { toString(enc: 'base64'): string };
  from(text: string, encoding: 'base64'): Uint8Array;
}
const nodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;

function bytesToBase64(bytes: Uint8Array): string {
  if (nodeBuffer)
    return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  const chunk = 0x8000;
  for (let at = 0; at < bytes.length; at += chunk) {
    binary += String.fromCharCode(...bytes.subarray(at, at + chunk));
  }
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array {
  if (nodeBuffer) return new Uint8Array(nodeBuffer.from(text, 'base64'));
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let at = 0; at < binary.length; at += 1) bytes[at] = binary.charCodeAt(at);
  return bytes;
}

/** The largest message either transport accepts; larger calls are refused before decoding. */
export const MAX_WIRE_MESSAGE_BYTES = 4 * 1024 * 1024;
