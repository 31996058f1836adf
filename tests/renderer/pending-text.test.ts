import { describe, expect, it } from 'vitest';
import { PATIENCE_MS, pendingText } from '../../src/renderer/src/components/pending-text';

describe('a pending read', () => {
  it('says what it reads, then that the store may be unreachable once past its patience', () => {
    expect(pendingText('Reading regions', 0)).toBe('Reading regions…');
    expect(pendingText('Reading regions', PATIENCE_MS - 1)).toBe('Reading regions…');
    expect(pendingText('Reading regions', PATIENCE_MS)).toBe(
      'Reading regions: no answer after 15 s; the store may be slow or unreachable (it is still being read)',
    );
  });
});
