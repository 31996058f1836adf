/**
 * The connection flags every storage command shares with the app: `--store PATH` (a local
 * store; default the embedded store of `--data-dir`) or `--bucket B` with
 * `--s3-endpoint/--s3-region/--path-style/--profile` (the AWS region is `--s3-region`:
 * `--region` names a WAL region), plus `--root` - the connection's root, as a saved
 * connection has it: '' (and `/`) is the bucket root - and `--node`, `--generation`.
 * `--dir` is the old spelling of `--store`, hidden. The storage a command gets has its requests
 * in the slots of an I/O controller of the command's own (`link`), which sizes its reads to the
 * link and feeds its progress line.
 */
import { mkdir } from 'node:fs/promises';
import type { Command } from 'commander';
import { LocalObjectIo } from '../engine/objectio/local-object-io';
import { ioControllerFor, LinkedObjectIo, type IoController } from '../engine/objectio/link';
import type { ObjectIo } from '../engine/objectio/object-io';
import { S3ObjectIo } from '../engine/objectio/s3-object-io';
import { embeddedStoreDir } from '../services/app-paths';
import { dataDirOf, withDataDirFlag, type DataDirOptions } from './data-dir-flag';
import { eitherSpelling, withOldSpelling } from './old-spelling';
import { UsageError } from './usage-error';

export interface ConnectionOptions extends DataDirOptions {
  store?: string;
  /** The old spelling of `store`. */
  dir?: string;
  s3Endpoint?: string;
  bucket?: string;
  s3Region?: string;
  pathStyle?: boolean;
  profile?: string;
  root?: string;
  node?: string;
  generation?: string;
}

export function withConnectionFlags(command: Command): Command {
  command.option('--store <path>', 'a local store directory (default: the embedded store)');
  withOldSpelling(command, 'dir');
  withDataDirFlag(
    command,
    "app data directory whose embedded store (DATA_DIR/cairn-data) is used without --store or --bucket (default: CAIRN_DATA_DIR, else the desktop app's)",
  );
  return command
    .option('--s3-endpoint <url>', 'S3 endpoint URL (with --bucket)')
    .option('--bucket <name>', 'S3 bucket (uses the AWS credential chain or --profile)')
    .option('--s3-region <region>', 'S3 region (--region names a WAL region)', 'us-east-1')
    .option('--path-style', 'path-style S3 addressing (MinIO, radosgw)')
    .option('--profile <name>', 'named AWS profile for credentials')
    .option(
      '--root <prefix>',
      "the connection's root, as a saved connection has it: everything lives under it, Cairn's WAL at ROOT/wal (default: the bucket root)",
    )
    .option('--node <id>', 'WAL node id', '0')
    .option('--generation <n>', 'WAL generation', '0');
}

export interface OpenedConnection {
  /** The store on the command's link. */
  readonly io: ObjectIo;
  readonly link: IoController;
  /** The connection's root, normalised: '' is the bucket root. */
  readonly root: string;
  readonly node: bigint;
  readonly generation: number;
}

export async function openConnection(options: ConnectionOptions): Promise<OpenedConnection> {
  const root = connectionRoot(options.root ?? '');
  const node = parseUnsigned('--node', options.node ?? '0', 64);
  const generation = Number(parseUnsigned('--generation', options.generation ?? '0', 32));
  const store = eitherSpelling(options.store, options.dir, '--store', '--dir');
  if (options.bucket !== undefined) {
    if (store !== undefined) throw new UsageError('give either --store or --bucket, not both');
    const s3 = new S3ObjectIo({
      bucket: options.bucket,
      region: options.s3Region,
      endpoint: options.s3Endpoint,
      forcePathStyle: options.pathStyle === true,
      profile: options.profile,
    });
    return { ...onLink(s3), root, node, generation };
  }
  if (options.s3Endpoint !== undefined) throw new UsageError('--s3-endpoint needs --bucket');
  const dir = store ?? embeddedStoreDir(dataDirOf(options));
  await mkdir(dir, { recursive: true });
  return { ...onLink(new LocalObjectIo(dir)), root, node, generation };
}

function onLink(store: ObjectIo): { io: ObjectIo; link: IoController } {
  const link = ioControllerFor(store);
  return { io: new LinkedObjectIo(store, link), link };
}

/**
 * `--root` as a key prefix: slashes at either end dropped, so `/`, '' and `wal/` mean what a
 * user means; an empty, `.` or `..` part in the middle is refused rather than read as another
 * place.
 */
export function connectionRoot(text: string): string {
  const root = text.replace(/^\/+|\/+$/g, '');
  if (root !== '' && root.split('/').some((part) => part === '' || part === '.' || part === '..'))
    throw new UsageError(
      `--root must be a key prefix like a/b (no empty, . or .. parts), got "${text}"`,
    );
  return root;
}

export function parseUnsigned(flag: string, text: string, bits: 32 | 64): bigint {
  if (!/^\d+$/.test(text))
    throw new UsageError(`${flag} must be a non-negative integer, got "${text}"`);
  const value = BigInt(text);
  if (value >= 1n << BigInt(bits))
    throw new UsageError(`${flag} must be below 2^${bits}, got ${text}`);
  return value;
}
