/**
 * The WebSocket framing of a call: `<id>\n<procedure>\n<wire-encoded input>`. The id and
 * name are read before the body, so even an oversized or undecodable call gets a typed reply
 * matched to its id.
 */
import type { RawData } from 'ws';
import { encodeWire } from '../../shared/wire';
import { MalformedCallError } from '../services/errors';
import { toWireError } from '../api/router';

export interface SocketCall {
  readonly id: number;
  readonly name: string;
  readonly encodedInput: string;
}

/** The call a frame carries, or null when the frame is not one. */
export function parseSocketCall(data: RawData, isBinary: boolean): SocketCall | null {
  const text = isBinary ? '' : rawToString(data);
  const firstBreak = text.indexOf('\n');
  const secondBreak = firstBreak < 0 ? -1 : text.indexOf('\n', firstBreak + 1);
  const id = Number(text.slice(0, firstBreak));
  if (firstBreak < 0 || secondBreak < 0 || !Number.isSafeInteger(id)) return null;
  return {
    id,
    name: text.slice(firstBreak + 1, secondBreak),
    encodedInput: text.slice(secondBreak + 1),
  };
}

/** The reply to a frame that is not a call: it has no id to match, so it carries -1. */
export function malformedFrameReply(): string {
  const error = toWireError(new MalformedCallError('expected "<id>\\n<procedure>\\n<input>"'));
  return encodeWire({ id: -1, ok: false, error });
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
