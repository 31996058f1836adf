/** How Activity words an audit entry: connections by name, the call's parameters in short. */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/contract';
import {
  connectionText,
  parametersText,
  targetPrefixOf,
} from '../../src/renderer/src/views/activity/audit-text';
import { deletionText } from '../../src/renderer/src/views/activity/deletion-text';

const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
  at: '2026-01-01T00:00:00.000Z',
  connectionId: 'c-1',
  action: 'wal.obsolete',
  target: 'wal/0',
  parameters: {},
  result: 'ok',
  ...fields,
});

describe('audit entry text', () => {
  it('names the prefix beside a target within it (a bulk obsolete region), never twice', () => {
    const bulk = entry({
      action: 'wal.obsolete.bulk',
      target: '1:3',
      parameters: { prefix: 'wal/nodes/0/generations/0', region: '1:3' },
    });
    expect(targetPrefixOf(bulk)).toBe('wal/nodes/0/generations/0');
    expect(targetPrefixOf(entry({ parameters: { prefix: 'wal/0' } }))).toBeNull();
    expect(targetPrefixOf(entry({ parameters: { name: 'team' } }))).toBeNull();
    expect(targetPrefixOf(entry({ parameters: 'text' }))).toBeNull();
  });

  it('names the connection as recorded, else as saved now, else by its id', () => {
    const names = new Map([['c-1', 'Lab S3 (now)']]);
    expect(connectionText(entry({ connection: 'Lab S3' }), names)).toBe('Lab S3');
    expect(connectionText(entry({}), names)).toBe('Lab S3 (now)');
    expect(connectionText(entry({ connectionId: 'gone' }), names)).toBe('gone');
    expect(connectionText(entry({ connectionId: null }), names)).toBe('—');
  });

  it('shows the parameters without the connection and the typed confirmation, ids exact', () => {
    const parameters = {
      connectionId: 'c-1',
      confirm: '1:1',
      region: 4294967297n,
      upTo: 2n ** 64n - 1n,
    };
    expect(parametersText(parameters)).toBe(
      '{"region":"4294967297","upTo":"18446744073709551615"}',
    );
    expect(parametersText({ connectionId: 'c-1' })).toBe('');
    expect(parametersText('plain')).toBe('"plain"');
  });
});

describe('a deletion entry in Activity', () => {
  const deletion = (parameters: Record<string, unknown>): AuditEntry =>
    entry({ action: 'wal.gc.delete', parameters, callId: 'abcdef0123456789' });

  it('reads its counts, keys, boundary and cause without hover', () => {
    expect(
      deletionText(
        deletion({
          objects: 500,
          bytes: 3 * 1024 * 1024,
          firstKey: 'p/objects/1.wal',
          lastKey: 'p/objects/9.wal',
          boundary: { from: '1', to: '10' },
          remaining: 0,
          requestedBy: [
            { action: 'wal.obsolete.bulk', callId: 'abcdef0123456789', parameters: {} },
          ],
        }),
      ),
    ).toBe(
      'deleted 500 objects (3.0 MiB) p/objects/1.wal … p/objects/9.wal · boundary 1 → 10 · for wal.obsolete.bulk call abcdef01',
    );
    expect(
      deletionText(
        deletion({
          objects: 1,
          bytes: 10,
          firstKey: 'k',
          lastKey: 'k',
          remaining: 2,
          requestedBy: [{ action: 'app', why: 'watermark requests applied by this writer' }],
        }),
      ),
    ).toBe(
      'deleted 1 object (10 B) k · 2 left · for the app (watermark requests applied by this writer)',
    );
    expect(deletionText(entry({}))).toBeNull();
  });
});
