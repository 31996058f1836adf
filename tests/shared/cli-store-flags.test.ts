/** The console's CLI lines name the store, so they run as pasted (issue #51). */
import { describe, expect, it } from 'vitest';
import { cliStoreFlags } from '../../src/shared/cli-store-flags';
import { cliCommand } from '../../src/renderer/src/views/wal/replay/rows-model';
import { NO_ROW_FILTER } from '../../src/shared/greptime/row-filter';

const saved = { id: 'c1', builtIn: false, operator: false };

describe('cliStoreFlags', () => {
  it('names a local store by its path', () => {
    expect(cliStoreFlags({ ...saved, kind: 'local', name: 'Lab', path: '/srv/wal' })).toEqual([
      '--store',
      '/srv/wal',
    ]);
  });

  it('names an S3 store with what differs from the defaults, never a credential', () => {
    const flags = cliStoreFlags({
      ...saved,
      kind: 's3',
      name: 'Prod',
      bucket: 'wal-prod',
      endpoint: 'http://127.0.0.1:7480',
      region: 'eu-west-1',
      forcePathStyle: true,
      profile: 'ops',
      root: '',
    });
    expect(flags).toEqual([
      '--bucket',
      'wal-prod',
      '--s3-endpoint',
      'http://127.0.0.1:7480',
      '--s3-region',
      'eu-west-1',
      '--path-style',
      '--profile',
      'ops',
    ]);
  });

  it("comes first in the Rows mode's command, quoted for the shell", () => {
    const command = cliCommand(
      { prefix: 'wal/datanodes/0/epochs/0', region: '1024:0', from: '1:1' },
      NO_ROW_FILTER,
      { columns: {}, since: '', until: '' },
      'ndjson',
      ['--store', '/tmp/my store'],
    );
    expect(command).toBe(
      "cairn wal replay --store '/tmp/my store' --prefix wal/datanodes/0/epochs/0 --region 1024:0 --from 1:1 --rows",
    );
  });
});
