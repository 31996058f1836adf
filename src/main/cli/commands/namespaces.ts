/**
 * `cairn ns ls|get|register|put|placement|deprecate|take-ownership|shards`: the namespace
 * registry of a store, acting as node `--node` (0 by default, like the app). Owns parsing
 * and printing only; every rule is the engine's, and its typed errors exit 1 with their
 * fields, a NotOwner also explained in words.
 */
import { escapeUnsafeText } from '../../../shared/display-text';
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import { explainNotOwner, shardLabel } from '../../../shared/contract/namespaces';
import {
  checkConfig,
  InvalidConfigError,
  NotOwnerError,
  ObjectNamespaceStore,
  type NamespaceOrigin,
  type NamespacePlacement,
  type NamespaceRecord,
  type ShardInfo,
} from '../../engine/namespaces';
import { NamespaceNotFoundError } from '../../services/namespaces/errors';
import { explicitRecord } from '../../services/namespaces/explicit-record';
import {
  openConnection,
  parseUnsigned,
  withConnectionFlags,
  type ConnectionOptions,
} from '../connection-flags';
import {
  printJson,
  printLines,
  reportDamaged,
  reportError,
  table,
  type DamagedPart,
} from '../output';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';

interface JsonFlag {
  json?: boolean;
}

interface PlacementFlags extends JsonFlag {
  placementNode?: string;
  placementRegion?: string;
  placementTier?: string;
  pinned?: boolean;
  clear?: boolean;
}

/** The registry of the store the connection flags name, acting as `--node`. */
async function openRegistry(options: ConnectionOptions): Promise<ObjectNamespaceStore> {
  const { io, root, node } = await openConnection(options);
  if (node > BigInt(Number.MAX_SAFE_INTEGER))
    throw new UsageError(`--node must be at most ${Number.MAX_SAFE_INTEGER} for namespaces`);
  return new ObjectNamespaceStore({ io, root, nodeId: Number(node) });
}

/** Runs a command; a NotOwner gets its typed report plus one line saying what to do about it. */
function registryAction<A extends unknown[]>(
  action: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return runAction(async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      if (!(error instanceof NotOwnerError)) throw error;
      process.exitCode = reportError(error);
      const explanation = explainNotOwner(error.details) ?? error.message;
      process.stderr.write(
        escapeUnsafeText(
          `${explanation} (cairn ns take-ownership ${error.site.shard ?? 'SHARD'} --node ${error.nodeId})`,
        ) + '\n',
      );
    }
  });
}

/** A stored time as ISO UTC; one a Date cannot hold (a damaged or hostile record) as its number. */
function utc(millis: number): string {
  const at = new Date(millis);
  return Number.isNaN(at.getTime()) ? `invalid time ${millis}` : at.toISOString();
}

function placementText(placement: NamespacePlacement): string {
  if (placement === null) return '-';
  return Object.entries(placement)
    .map(([field, value]) => `${field}=${String(value)}`)
    .join(',');
}

/** The record a placement / deprecate acted on; an absent name is reported, not passed over. */
function found(record: NamespaceRecord | null, name: string): NamespaceRecord {
  if (record === null) throw new NamespaceNotFoundError(name);
  return record;
}

function printRecord(record: NamespaceRecord | null, name: string, options: JsonFlag): void {
  if (options.json) return printJson(record);
  if (record === null) return printLines([`no namespace named ${name}`]);
  printLines([
    `name       ${record.name}`,
    `origin     ${record.origin}`,
    `state      ${record.state}`,
    `created    ${utc(record.createdAt)}`,
    `last seen  ${utc(record.lastSeen)}`,
    `placement  ${placementText(record.placement)}`,
    `config     ${JSON.stringify(record.config, null, 2)}`,
  ]);
}

function printRecords(records: readonly NamespaceRecord[], options: JsonFlag): void {
  if (options.json) return printJson(records);
  printLines(
    table(
      ['NAME', 'ORIGIN', 'STATE', 'CREATED', 'LAST SEEN', 'PLACEMENT'],
      records.map((record) => [
        record.name,
        record.origin,
        record.state,
        utc(record.createdAt),
        utc(record.lastSeen),
        placementText(record.placement),
      ]),
    ),
  );
}

function printShards(shards: readonly ShardInfo[], options: JsonFlag): void {
  if (options.json) return printJson(shards);
  printLines(
    table(
      ['SHARD', 'OWNER', 'EPOCH', 'VERSION', 'RECORDS'],
      shards.map((info) => [
        shardLabel(info.shard),
        info.owner === null ? '-' : String(info.owner.nodeId),
        info.owner === null ? '-' : String(info.owner.ownerEpoch),
        info.version === null ? '-' : String(info.version),
        info.damage === null ? String(info.records) : 'damaged',
      ]),
    ),
  );
}

function damagedShards(shards: readonly ShardInfo[]): DamagedPart[] {
  return shards.flatMap((info) =>
    info.damage === null
      ? []
      : [
          {
            what: `shard ${shardLabel(info.shard)}`,
            key: info.damage.key,
            reason: info.damage.reason,
          },
        ],
  );
}

function parseOrigin(text: string): NamespaceOrigin {
  if (text === 'minted' || text === 'explicit') return text;
  throw new UsageError(`--origin must be minted or explicit, got "${text}"`);
}

/** The --config text as a JSON object; text that is not JSON is the engine's `not-json`. */
function parseConfig(name: string, text: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidConfigError(
      name,
      'not-json',
      `--config is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return checkConfig(name, parsed);
}

/** The whole new placement (fields not given are absent); `--clear` removes it. */
function placementOf(options: PlacementFlags): NamespacePlacement {
  const given = {
    ...(options.placementNode !== undefined && { node: options.placementNode }),
    ...(options.placementRegion !== undefined && { region: options.placementRegion }),
    ...(options.placementTier !== undefined && { tier: options.placementTier }),
    ...(options.pinned === true && { pinned: true }),
  };
  const fields = Object.keys(given).length;
  if (options.clear) {
    if (fields > 0) throw new UsageError('--clear cannot be combined with placement fields');
    return null;
  }
  if (fields === 0)
    throw new UsageError(
      'give at least one of --placement-node, --placement-region, --placement-tier, --pinned (or --clear)',
    );
  return given;
}

export function registerNamespaces(program: Command): void {
  const ns = program.command('ns').description(groupDescription('ns'));

  withConnectionFlags(ns.command('ls').description('Every namespace, oldest first'))
    .option('--json', 'one JSON array')
    .action(
      registryAction(async (options: ConnectionOptions & JsonFlag) => {
        // Every readable record is printed; a damaged shard is named, never hides the rest.
        const survey = await (await openRegistry(options)).surveyNamespaces();
        printRecords(survey.records, options);
        reportDamaged(damagedShards(survey.shards));
      }),
    );

  withConnectionFlags(
    ns.command('get').description('One namespace record (null with --json when absent)'),
  )
    .argument('<name>', 'namespace name')
    .option('--json', 'the record as JSON')
    .action(
      registryAction(async (name: string, options: ConnectionOptions & JsonFlag) => {
        printRecord(await (await openRegistry(options)).getNamespace(name), name, options);
      }),
    );

  withConnectionFlags(
    ns.command('register').description('Create a namespace if absent; prints created or touched'),
  )
    .argument('<name>', 'namespace name')
    .option('--origin <origin>', 'minted (created by use) or explicit', 'minted')
    .option('--json', 'print {"name","outcome"}')
    .action(
      registryAction(
        async (name: string, options: ConnectionOptions & JsonFlag & { origin: string }) => {
          const outcome = await (
            await openRegistry(options)
          ).registerNamespace(name, parseOrigin(options.origin));
          if (options.json) printJson({ name, outcome });
          else printLines([outcome]);
        },
      ),
    );

  withConnectionFlags(
    ns
      .command('put')
      .description(
        'Create an explicit namespace with a config if absent; prints created or touched',
      ),
  )
    .argument('<name>', 'namespace name')
    .requiredOption('--config <json>', 'the config, a JSON object of at most 64 KiB')
    .option('--json', 'print {"name","outcome"}')
    .action(
      registryAction(
        async (name: string, options: ConnectionOptions & JsonFlag & { config: string }) => {
          const config = parseConfig(name, options.config);
          const outcome = await (
            await openRegistry(options)
          ).putNamespace(explicitRecord(name, config, null, Date.now()));
          if (options.json) printJson({ name, outcome });
          else printLines([outcome]);
        },
      ),
    );

  // `--node` (the acting node id) and `--region` (the S3 region) are connection flags, so the
  // placement's fields are spelled `--placement-*`.
  withConnectionFlags(
    ns
      .command('placement')
      .description("Replace a namespace's whole placement (exit 1 when the namespace is absent)"),
  )
    .argument('<name>', 'namespace name')
    .option('--placement-node <label>', 'the node the namespace is placed on')
    .option('--placement-region <label>', 'the region it is placed in')
    .option('--placement-tier <label>', 'the storage tier')
    .option('--pinned', 'pin it there')
    .option('--clear', 'remove the placement')
    .option('--json', 'the record after')
    .action(
      registryAction(async (name: string, options: ConnectionOptions & PlacementFlags) => {
        const record = await (
          await openRegistry(options)
        ).setNamespacePlacement(name, placementOf(options));
        printRecord(found(record, name), name, options);
      }),
    );

  withConnectionFlags(
    ns
      .command('deprecate')
      .description(
        'Move a namespace from active to deprecated (history is kept; exit 1 when absent)',
      ),
  )
    .argument('<name>', 'namespace name')
    .option('--json', 'the record after')
    .action(
      registryAction(async (name: string, options: ConnectionOptions & JsonFlag) => {
        const record = await (await openRegistry(options)).deprecateNamespace(name);
        printRecord(found(record, name), name, options);
      }),
    );

  withConnectionFlags(
    ns
      .command('take-ownership')
      .description(
        'Take a shard for --node, raising its owner epoch: fences the node that owned it',
      ),
  )
    .argument('<shard>', 'shard number')
    .option('--json', 'print the new owner {"shard","nodeId","ownerEpoch"}')
    .action(
      registryAction(async (shardText: string, options: ConnectionOptions & JsonFlag) => {
        const shard = Number(parseUnsigned('shard', shardText, 32));
        const owner = await (await openRegistry(options)).takeOwnership(shard);
        if (options.json) printJson({ shard, ...owner });
        else
          printLines([
            `shard ${shardLabel(shard)} is now owned by node ${owner.nodeId} (epoch ${owner.ownerEpoch})`,
          ]);
      }),
    );

  withConnectionFlags(
    ns.command('shards').description("Every shard's owner, owner epoch, version and record count"),
  )
    .option('--json', 'one JSON array')
    .action(
      registryAction(async (options: ConnectionOptions & JsonFlag) => {
        const shards = await (await openRegistry(options)).describeShards();
        printShards(shards, options);
        reportDamaged(damagedShards(shards));
      }),
    );
}
