/**
 * Text a user names things with and other people read back: connection names, placement
 * labels. Control characters (C0, DEL, C1: ESC sequences, BEL) would drive the reader's
 * terminal, and bidi controls (U+202E and kin) make a name display as something it is not,
 * so the API refuses them in names, and every terminal table escapes whatever older data or a
 * store holds. Imports nothing; used by the contract and the CLI.
 */

/** C0, DEL, C1, and the Unicode bidi embedding, override, isolate and mark characters. */
const UNSAFE_CHARACTER =
  // Matching control characters is this pattern's whole purpose.
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, 'gu');

export const UNSAFE_TEXT_RULE = 'must not contain control or bidirectional-override characters';

export function hasUnsafeText(text: string): boolean {
  return UNSAFE_CHARACTER.test(text);
}

/** `text` with each unsafe character shown as `\u{…}`, so a terminal prints it inert. */
export function escapeUnsafeText(text: string): string {
  return text.replace(
    UNSAFE_CHARACTERS,
    (character) => `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`,
  );
}
