/** One way to say how many: the console and the CLI never print "1 gaps" or "2 entrys". */
import { describe, expect, it } from 'vitest';
import { counted, nounFor } from '../../src/shared/plural';
import { lagText } from '../../src/shared/lag-text';
import { countText } from '../../src/renderer/src/views/format';

describe('counted', () => {
  it.each([
    [0, 'orphan', '0 orphans'],
    [1, 'orphan', '1 orphan'],
    [1, 'entry', '1 entry'],
    [2, 'entry', '2 entries'],
    [1024, 'entry', '1,024 entries'],
    [3, 'prefix', '3 prefixes'],
    [1, 'gap', '1 gap'],
    [2, 'batch', '2 batches'],
    [2, 'key', '2 keys'],
  ])('%i %s reads "%s"', (count, noun, text) => expect(counted(count, noun)).toBe(text));

  it('takes bigints and irregular plurals', () => {
    expect(counted(1n, 'object')).toBe('1 object');
    expect(counted(12_345n, 'object')).toBe('12,345 objects');
    expect(counted(2, 'WAL entry', 'WAL entries')).toBe('2 WAL entries');
    expect(nounFor(1, 'region')).toBe('region');
  });

  it('is what the lag column and the console counts say', () => {
    expect(lagText({ lagObjects: 1, lagMs: null })).toBe('1 object');
    expect(countText(1, 'entry')).toBe('1 entry');
    expect(countText(2, 'entry')).toBe('2 entries');
    expect(countText(null, 'entry')).toBe('');
  });
});
