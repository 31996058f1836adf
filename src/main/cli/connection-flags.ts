/**
 * The connection flags every storage command shares with the app: `--dir PATH` (a local
 * store; default the app's embedded store) or `--s3-endpoint/--bucket/--s3-region/--path-style/
 * --profile` (the AWS region is `--s3-region`: `--region` names a WAL region), plus `--root`, `--node`, `--generation` for WAL prefixes.
 * The storage a command gets has its requests in the slots of an I/O controller of the
 * command's own (`link`), which sizes its reads to the link and feeds its progress line.
 */
import { mkdir } from 'node:fs/promises';
import type { Command } from 'commander';
import { LocalObjectIo } from '../engine/objectio/local-object-io';
import { ioControllerFor, LinkedObjectIo, type IoController } from '../engine/objectio/link';
import type { ObjectIo } from '../engine/objectio/object-io';
import { S3ObjectIo } from '../engine/objectio/s3-object-io';
import { defaultDataDir, embeddedStoreDir } from '../services/app-paths';
import { UsageError } from './usage-error';

export interface ConnectionOptions {
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
  return command
    .option('--dir <path>', "local store directory (default: the app's embedded store)")
    .option('--s3-endpoint <url>', 'S3 endpoint URL (with --bucket)')
    .option('--bucket <name>', 'S3 bucket (uses the AWS credential chain or --profile)')
    .option('--s3-region <region>', 'S3 region (--region names a WAL region)', 'us-east-1')
    .option('--path-style', 'path-style S3 addressing (MinIO, radosgw)')
    .option('--profile <name>', 'named AWS profile for credentials')
    .option('--root <prefix>', 'key prefix under which Cairn data lives', '')
    .option('--node <id>', 'WAL node id', '0')
    .option('--generation <n>', 'WAL generation', '0');
}

export interface OpenedConnection {
  /** The store on the command's link. */
  readonly io: ObjectIo;
  readonly link: IoController;
  readonly root: string;
  readonly node: bigint;
  readonly generation: number;
}

export async function openConnection(options: ConnectionOptions): Promise<OpenedConnection> {
  const root = options.root ?? '';
  const node = parseUnsigned('--node', options.node ?? '0', 64);
  const generation = Number(parseUnsigned('--generation', options.generation ?? '0', 32));
  if (options.bucket !== undefined) {
    if (options.dir !== undefined) throw new UsageError('give either --dir or --bucket, not both');
    const store = new S3ObjectIo({
      bucket: options.bucket,
      region: options.s3Region,
      endpoint: options.s3Endpoint,
      forcePathStyle: options.pathStyle === true,
      profile: options.profile,
    });
    return { ...onLink(store), root, node, generation };
  }
  if (options.s3Endpoint !== undefined) throw new UsageError('--s3-endpoint needs --bucket');
  const dir = options.dir ?? embeddedStoreDir(defaultDataDir());
  await mkdir(dir, { recursive: true });
  return { ...onLink(new LocalObjectIo(dir)), root, node, generation };
}

function onLink(store: ObjectIo): { io: ObjectIo; link: IoController } {
  const link = ioControllerFor(store);
  return { io: new LinkedObjectIo(store, link), link };
}

export function parseUnsigned(flag: string, text: string, bits: 32 | 64): bigint {
  if (!/^\d+$/.test(text))
    throw new UsageError(`${flag} must be a non-negative integer, got "${text}"`);
  const value = BigInt(text);
  if (value >= 1n << BigInt(bits))
    throw new UsageError(`${flag} must be below 2^${bits}, got ${text}`);
  return value;
}
