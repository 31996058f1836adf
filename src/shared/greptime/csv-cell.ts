/**
 * CSV fields that a spreadsheet cannot take for a formula (OWASP's "CSV injection"): a text
 * field starting with `=`, `+`, `-`, `@`, TAB or CR gets a leading `'`, which spreadsheets
 * show as text and never evaluate; a field holding `"`, `,`, CR or LF is quoted, its quotes
 * doubled. Numbers are never changed (`-5` stays a number), so only text is neutralised: a
 * column's JSON string cells, and every header. Pure.
 */

/** What a spreadsheet may read as the start of a formula (TAB and CR hide one after them). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** `text` as one CSV field, quoted when it must be. */
export function csvQuoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A text field (a header, a string cell) as one CSV field, neutralised. */
export function csvText(text: string): string {
  return csvQuoted(FORMULA_START.test(text) ? `'${text}` : text);
}

/**
 * A cell, given as its JSON text, as one CSV field: a string's text neutralised, anything else
 * (a number, a boolean, an object) as it is; `null` empty.
 */
export function csvCell(json: string): string {
  if (json === 'null') return '';
  if (!json.startsWith('"')) return csvQuoted(json);
  // A JSON string without an escape is its text between the quotes (a time, a 64-bit number).
  return csvText(json.includes('\\') ? (JSON.parse(json) as string) : json.slice(1, -1));
}
