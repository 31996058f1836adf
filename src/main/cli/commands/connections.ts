/** `cairn connections`: the same saved profiles the app shows (in the app data directory). */
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import type { Connection } from '../../../shared/contract';
import { NewConnectionSpec, type ConnectionSpec } from '../../../shared/contract/connections';
import { ConnectionsService } from '../../services/connections/connections-service';
import { EventBus } from '../../services/event-bus';
import { dataDirOf, withDataDirFlag, type DataDirOptions } from '../data-dir-flag';
import { printJson, printLines, table } from '../output';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';

interface DataDirOption extends DataDirOptions {
  json?: boolean;
}

const service = (options: DataDirOption) =>
  new ConnectionsService(dataDirOf(options), new EventBus());

function where(connection: Connection): string {
  return connection.kind === 'local'
    ? connection.path
    : `s3://${connection.bucket}/${connection.root} at ${connection.endpoint ?? 'AWS'}`;
}

function validSpec(candidate: unknown): ConnectionSpec {
  const parsed = NewConnectionSpec.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UsageError(`${issue?.path.join('.') ?? 'connection'}: ${issue?.message ?? 'invalid'}`);
}

export function registerConnections(program: Command): void {
  const connections = program.command('connections').description(groupDescription('connections'));
  const common = (command: Command) => withDataDirFlag(command).option('--json', 'JSON output');

  common(connections.command('ls').description('List saved connections')).action(
    runAction(async (options: DataDirOption) => {
      const list = await service(options).list();
      if (options.json) printJson(list);
      else
        printLines(
          table(
            ['ID', 'NAME', 'KIND', 'LOCATION'],
            list.map((c) => [c.id, c.name, c.kind, where(c)]),
          ),
        );
    }),
  );

  common(connections.command('add-local').description('Save a local-directory connection'))
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--path <dir>', 'directory')
    .action(
      runAction(async (options: DataDirOption & { name: string; path: string }) => {
        const added = await service(options).add(
          validSpec({ kind: 'local', name: options.name, path: options.path }),
        );
        if (options.json) printJson(added);
        else printLines([`added ${added.id} (${added.name})`]);
      }),
    );

  common(
    connections
      .command('add-s3')
      .description('Save an S3 connection (credentials: AWS chain or --profile; never stored)'),
  )
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--bucket <bucket>', 'bucket')
    .option('--s3-endpoint <url>', 'endpoint URL (blank: AWS)')
    .option('--s3-region <region>', 'S3 region', 'us-east-1')
    .option('--path-style', 'path-style addressing')
    .option('--profile <name>', 'named AWS profile')
    .option('--root <prefix>', 'key prefix', '')
    .action(
      runAction(
        async (
          options: DataDirOption & {
            name: string;
            bucket: string;
            s3Endpoint?: string;
            s3Region: string;
            pathStyle?: boolean;
            profile?: string;
            root: string;
          },
        ) => {
          const spec = validSpec({
            kind: 's3',
            name: options.name,
            bucket: options.bucket,
            endpoint: options.s3Endpoint,
            region: options.s3Region,
            forcePathStyle: options.pathStyle === true,
            profile: options.profile,
            root: options.root,
          });
          const added = await service(options).add(spec);
          if (options.json) printJson(added);
          else printLines([`added ${added.id} (${added.name})`]);
        },
      ),
    );

  common(
    connections
      .command('test')
      .description(
        'Reachability, permissions, the conditional-write probe and the link (latency p50 / p99, rate)',
      ),
  )
    .argument('<id>', 'connection id')
    .action(
      runAction(async (id: string, options: DataDirOption) => {
        const result = await service(options).test(id);
        if (options.json) printJson(result);
        else
          printLines([
            `reachable:        ${result.reachable}`,
            `writable:         ${result.writable}`,
            `create-if-absent: ${result.createIfAbsent}`,
            `detail:           ${result.detail}`,
            ...(result.link === null
              ? []
              : [
                  `link:             p50 ${result.link.p50Ms.toFixed(1)} ms, p99 ${result.link.p99Ms.toFixed(1)} ms, ${Math.round(result.link.requestsPerSecond)} requests/s (${result.link.requests} listings)`,
                ]),
          ]);
        if (!result.reachable) process.exitCode = 1;
      }),
    );

  common(connections.command('rm').description('Forget a saved connection (its data is untouched)'))
    .argument('<id>', 'connection id')
    .action(
      runAction(async (id: string, options: DataDirOption) => {
        await service(options).remove(id);
        if (options.json) printJson({ removed: id });
        else printLines([`removed ${id}`]);
      }),
    );
}
