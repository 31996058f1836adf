/**
 * The floor of decoding a `greptime.v1.WalEntry` payload: a walk that visits every field of
 * every message (each tag, each varint byte, into every nested message the spec names) and
 * allocates nothing - less than any decoder can do, since it checks nothing and makes
 * nothing. The greptimedb-decode figure reports it beside the decoders, so that where a figure
 * is not met the measurement shows what the box allows. Bench code only.
 */

/** Messages by a small number; 0 is a message whose fields hold no message. */
const ENTRY = 1;
const MUTATION = 2;
const ROWS = 3;
const ROW = 4;
const VALUE = 5;
const SCHEMA = 6;
const NESTING = 7;

/** The message a length-delimited field holds, by message and field number (0: bytes). */
function childOf(message: number, field: number): number {
  switch (message) {
    case ENTRY:
      return field === 1 ? MUTATION : field === 2 ? NESTING : 0;
    case MUTATION:
      return field === 3 ? ROWS : field === 4 ? NESTING : 0;
    case ROWS:
      return field === 1 ? SCHEMA : field === 2 ? ROW : 0;
    case ROW:
      return field === 1 ? VALUE : 0;
    case VALUE:
      return field === 40 || field === 41
        ? ROW
        : field >= 26 && field !== 12 && field !== 13
          ? NESTING
          : 0;
    case SCHEMA:
      return field === 4 || field === 5 ? NESTING : 0;
    default:
      return 0;
  }
}

/** Walks the fields of `message` in `bytes[at..end)`; returns a sum so the work stays done. */
export function walkFields(bytes: Uint8Array, at: number, end: number, message = ENTRY): number {
  let sum = 0;
  while (at < end) {
    let tag = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++]!;
      tag |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte >= 0x80 && at < end);
    sum += tag;
    switch (tag & 7) {
      case 0:
        do byte = bytes[at++]!;
        while (byte >= 0x80 && at < end);
        sum += byte;
        break;
      case 1:
        at += 8;
        break;
      case 5:
        at += 4;
        break;
      case 2: {
        let length = 0;
        shift = 0;
        do {
          byte = bytes[at++]!;
          length |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte >= 0x80 && at < end);
        const child = childOf(message, tag >>> 3);
        if (child !== 0) sum += walkFields(bytes, at, Math.min(end, at + length), child);
        at += length;
        break;
      }
      default:
        return sum;
    }
  }
  return sum;
}
