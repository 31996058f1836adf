/**
 * The `cairn` flags that name a saved connection's store, so a command the console shows runs
 * as pasted against the same store: `--store PATH` for a local directory (the embedded store
 * too: its path is absolute), `--bucket` with the endpoint, region, addressing and profile for
 * S3. Credentials are never part of it (the CLI reads the AWS chain or the profile).
 */
import type { Connection } from './contract/connections';

const DEFAULT_S3_REGION = 'us-east-1';

export function cliStoreFlags(connection: Connection): string[] {
  if (connection.kind === 'local') return ['--store', connection.path];
  return [
    '--bucket',
    connection.bucket,
    ...(connection.endpoint === undefined ? [] : ['--s3-endpoint', connection.endpoint]),
    ...(connection.region === DEFAULT_S3_REGION ? [] : ['--s3-region', connection.region]),
    ...(connection.forcePathStyle ? ['--path-style'] : []),
    ...(connection.profile === undefined ? [] : ['--profile', connection.profile]),
  ];
}
