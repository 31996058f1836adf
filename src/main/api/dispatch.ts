/**
 * One call as both transports carry it: a procedure name and a wire-encoded input in, a
 * wire-encoded reply out. Size is checked before anything is decoded, and every failure
 * becomes a typed reply, so junk from a page can never take the main process down.
 */
import type { CallReply } from '../../shared/api-error';
import { decodeWire, encodeWire, MAX_WIRE_MESSAGE_BYTES } from '../../shared/wire';
import type { Caller } from '../services/caller';
import { MalformedCallError, PayloadTooLargeError } from '../services/errors';
import { toWireError, type ApiRouter } from './router';

export async function dispatchCall(
  router: ApiRouter,
  id: number,
  name: unknown,
  encodedInput: unknown,
  caller: Caller,
): Promise<string> {
  return encodeWire(await callReply(router, id, name, encodedInput, caller));
}

/** The reply before encoding, for a transport that looks at results (its own bookkeeping). */
export async function callReply(
  router: ApiRouter,
  id: number,
  name: unknown,
  encodedInput: unknown,
  caller: Caller,
): Promise<CallReply> {
  try {
    if (typeof encodedInput !== 'string')
      throw new MalformedCallError('the input must be a wire-encoded string');
    const bytes = Buffer.byteLength(encodedInput, 'utf8');
    if (bytes > MAX_WIRE_MESSAGE_BYTES)
      throw new PayloadTooLargeError(bytes, MAX_WIRE_MESSAGE_BYTES);
    const input = decodeInput(encodedInput);
    return { id, ok: true, result: await router.call(name, input, caller) };
  } catch (error) {
    return { id, ok: false, error: toWireError(error) };
  }
}

function decodeInput(encoded: string): unknown {
  if (encoded === '') return {};
  try {
    return decodeWire(encoded);
  } catch {
    throw new MalformedCallError('the input is not valid wire JSON');
  }
}
