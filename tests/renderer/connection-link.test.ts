import { describe, expect, it } from 'vitest';
import type { Connection } from '../../src/shared/contract/connections';
import {
  connectionsOfLink,
  describeLink,
  linkOfConnection,
  readConnectionLink,
  type ConnectionLink,
} from '../../src/renderer/src/state/connection-link';

const EMBEDDED: Connection = {
  id: 'embedded',
  kind: 'local',
  name: 'Embedded store',
  path: '/home/ana/.config/cairn/cairn-data',
  builtIn: true,
  operator: false,
};
const TEAM_DIR: Connection = {
  id: 'c1',
  kind: 'local',
  name: 'Team copy',
  path: '/srv/wal/',
  builtIn: false,
  operator: false,
};
function s3(
  id: string,
  name: string,
  fields: Partial<Connection & { kind: 's3' }> = {},
): Connection {
  return {
    id,
    kind: 's3',
    name,
    bucket: 'lab',
    region: 'us-east-1',
    forcePathStyle: true,
    root: 'team',
    endpoint: 'http://127.0.0.1:7480',
    builtIn: false,
    operator: false,
    ...fields,
  };
}
const ids = (link: ConnectionLink, connections: Connection[]) =>
  connectionsOfLink(link, connections).map((connection) => connection.id);

describe('a connection in a link', () => {
  it('is named by what another install also has', () => {
    expect(linkOfConnection(EMBEDDED)).toEqual({ kind: 'embedded' });
    expect(linkOfConnection(TEAM_DIR)).toEqual({ kind: 'local', path: '/srv/wal/' });
    expect(
      linkOfConnection(s3('x', 'Lab S3', { root: '/team/', endpoint: 'http://127.0.0.1:7480/' })),
    ).toEqual({
      kind: 's3',
      bucket: 'lab',
      root: 'team',
      endpoint: 'http://127.0.0.1:7480',
    });
    expect(linkOfConnection(s3('x', 'AWS', { endpoint: undefined }))).toMatchObject({
      endpoint: null,
    });
  });

  it('finds the same store saved under another name, whatever the scheme or a trailing slash', () => {
    const saved = [
      EMBEDDED,
      TEAM_DIR,
      s3('c2', 'Ceph lab', { endpoint: 'https://127.0.0.1:7480' }),
    ];
    const link: ConnectionLink = {
      kind: 's3',
      bucket: 'lab',
      root: 'team',
      endpoint: 'http://127.0.0.1:7480',
    };
    expect(ids(link, saved)).toEqual(['c2']);
    expect(ids({ kind: 'local', path: '/srv/wal' }, saved)).toEqual(['c1']);
    // A directory link that is this install's embedded store's path opens the embedded store.
    expect(ids({ kind: 'local', path: EMBEDDED.path }, saved)).toEqual(['embedded']);
    expect(ids({ kind: 'embedded' }, saved)).toEqual(['embedded']);
    expect(ids({ kind: 'saved', id: 'c1' }, saved)).toEqual(['c1']);
  });

  it('matches nothing rather than another store: other bucket, root, host or directory', () => {
    const saved = [EMBEDDED, TEAM_DIR, s3('c2', 'Ceph lab')];
    const link = {
      kind: 's3',
      bucket: 'lab',
      root: 'team',
      endpoint: 'http://127.0.0.1:7480',
    } as const;
    expect(ids({ ...link, bucket: 'prod' }, saved)).toEqual([]);
    expect(ids({ ...link, root: '' }, saved)).toEqual([]);
    expect(ids({ ...link, endpoint: 'http://10.1.1.1:7480' }, saved)).toEqual([]);
    expect(ids({ ...link, endpoint: null }, saved)).toEqual([]);
    expect(ids({ kind: 'local', path: '/srv/other' }, saved)).toEqual([]);
    expect(ids({ kind: 'saved', id: 'gone' }, saved)).toEqual([]);
  });

  it("reads a link's parameters, an endpoint given as a bare host included", () => {
    expect(
      readConnectionLink(new URLSearchParams('bucket=lab&root=%2Fteam%2F&endpoint=127.0.0.1:7480')),
    ).toEqual({
      kind: 's3',
      bucket: 'lab',
      root: 'team',
      endpoint: '127.0.0.1:7480',
    });
    const bareHost = readConnectionLink(
      new URLSearchParams('bucket=lab&root=team&endpoint=127.0.0.1:7480'),
    );
    expect(ids(bareHost, [s3('c2', 'Ceph lab')])).toEqual(['c2']);
    expect(readConnectionLink(new URLSearchParams('dir=%2Fsrv%2Fwal'))).toEqual({
      kind: 'local',
      path: '/srv/wal',
    });
    expect(readConnectionLink(new URLSearchParams(''))).toEqual({ kind: 'embedded' });
  });

  it('says which store a link names', () => {
    expect(describeLink({ kind: 's3', bucket: 'lab', root: 'team', endpoint: 'http://h:1' })).toBe(
      's3://lab/team at h:1',
    );
    expect(describeLink({ kind: 'local', path: '/srv/wal' })).toBe('the local directory /srv/wal');
  });
});
