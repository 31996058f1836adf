/** How Activity words an audit entry: connections by name, the call's parameters in short. */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/contract';
import { connectionText, parametersText } from '../../src/renderer/src/views/activity/audit-text';

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
