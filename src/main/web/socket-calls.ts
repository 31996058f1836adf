/**
 * The WebSocket framing of a call: `<id>\n<procedure>\n<wire-encoded input>`. The id and
 * name are read before the body, so even an oversized or undecodable call gets a typed reply
 * matched to its id.
 */
import type { RawData } from 'ws';
import { encodeWire } from '../../shared/wire';
import { dispatchCall } from '../api/dispatch';
import type { ApiRouter } from '../api/router';
import { MalformedCallError } from '../services/errors';
import { toWireError } from '../api/router';

export async function handleSocketMessage(
  router: ApiRouter,
  data: RawData,
  isBinary: boolean,
): Promise<string> {
  const text = isBinary ? '' : rawToString(data);
  const firstBreak = text.indexOf('\n');
  const secondBreak = firstBreak < 0 ? -1 : text.indexOf('\n', firstBreak + 1);
  const id = Number(text.slice(0, firstBreak));
  if (firstBreak < 0 || secondBreak < 0 || !Number.isSafeInteger(id)) {
    const error = toWireError(new MalformedCallError('expected "<id>\\n<procedure>\\n<input>"'));
    return encodeWire({ id: -1, ok: false, error });
  }
  return dispatchCall(
    router,
    id,
    text.slice(firstBreak + 1, secondBreak),
    text.slice(secondBreak + 1),
  );
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
