/**
 * Bytes as hex, UTF-8 or JSON. Large payloads are cut to a display budget before anything
 * is rendered, so a multi-megabyte value never freezes the window.
 */
import { useMemo, useState } from 'react';
import { Segmented } from '../../components/Segmented';
import { formatCount } from '../format';

const DISPLAY_BUDGET = 64 * 1024;

type Mode = 'utf8' | 'hex' | 'json';

export function PayloadViewer({ bytes, totalSize }: { bytes: Uint8Array; totalSize: number }) {
  const [mode, setMode] = useState<Mode>(() =>
    looksLikeJson(bytes) ? 'json' : isMostlyText(bytes) ? 'utf8' : 'hex',
  );
  const shown = bytes.subarray(0, DISPLAY_BUDGET);
  const text = useMemo(() => render(shown, mode), [shown, mode]);
  const cut = totalSize > shown.length;
  return (
    <div className="payload">
      <Segmented
        label="Payload format"
        choices={[
          ['utf8', 'UTF-8'],
          ['hex', 'HEX'],
          ['json', 'JSON'],
        ]}
        value={mode}
        onChange={setMode}
      />
      <pre className="mono payload-text" aria-label="Payload">
        {text}
      </pre>
      {cut && (
        <p className="muted small">
          Showing the first {formatCount(shown.length)} of {formatCount(totalSize)} bytes.
        </p>
      )}
    </div>
  );
}

function render(bytes: Uint8Array, mode: Mode): string {
  if (mode === 'hex') return hexDump(bytes);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (mode === 'utf8') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return `Not valid JSON (showing UTF-8):\n${text}`;
  }
}

function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const row = bytes.subarray(offset, offset + 16);
    const hex = Array.from(row, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(row, (byte) =>
      byte >= 32 && byte < 127 ? String.fromCharCode(byte) : '.',
    ).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

function isMostlyText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 512);
  let printable = 0;
  for (const byte of sample)
    if (byte === 9 || byte === 10 || byte === 13 || (byte >= 32 && byte < 127) || byte >= 128)
      printable += 1;
  return sample.length === 0 || printable / sample.length > 0.9;
}

function looksLikeJson(bytes: Uint8Array): boolean {
  const first = bytes.find((byte) => byte !== 32 && byte !== 10 && byte !== 13 && byte !== 9);
  return first === 0x7b || first === 0x5b;
}
