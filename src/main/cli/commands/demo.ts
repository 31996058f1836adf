/**
 * `cairn demo`: writes the demo data the console's "Generate demo data" writes, through the
 * same services and the same guard (`MadeUpDataGuard`): offered freely on the embedded store
 * and on an empty one; on any other store only with `--confirm NAME`, the connection's name.
 * A store that already holds a demo place is refused whole (`DemoPlaceTaken`), nothing written.
 */
import type { Command } from 'commander';
import type { DemoSummary } from '../../services/demo/demo-data';
import { counted } from '../../../shared/plural';
import { groupDescription } from '../command-groups';
import { dataDirOf, withDataDirFlag, type DataDirOptions } from '../data-dir-flag';
import { printJson, printLines } from '../output';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';

interface DemoOptions extends DataDirOptions {
  connection: string;
  confirm?: string;
  json?: boolean;
}

export function registerDemo(program: Command): void {
  withDataDirFlag(program.command('demo').description(groupDescription('demo')))
    .option(
      '--connection <name>',
      'the saved connection (name or id) to write into; default: the embedded store of --data-dir',
      'embedded',
    )
    .option(
      '--confirm <name>',
      "the connection's name: needed when it is neither embedded nor empty",
    )
    .option('--json', 'print the summary as JSON')
    .action(runAction(writeDemo));
}

async function writeDemo(options: DemoOptions): Promise<void> {
  // Loaded here: the services are the command's whole weight, and only this command needs them.
  const { createServices } = await import('../../services/services');
  const { generateDemoData } = await import('../../services/demo/demo-data');
  const { MadeUpDataGuard } = await import('../../services/demo/made-up-data-guard');
  const { projectRoot } = await import('../../project-root');
  const { appVersion } = await import('../../services/app-version');
  const services = await createServices({
    name: 'Cairn',
    version: appVersion(projectRoot()),
    mode: 'browser',
    dataDir: dataDirOf(options),
  });
  try {
    const connections = await services.connections.list();
    const connection = connections.find(
      (candidate) => candidate.id === options.connection || candidate.name === options.connection,
    );
    if (connection === undefined)
      throw new UsageError(
        `no saved connection named ${options.connection} (cairn connections ls lists them)`,
      );
    const guard = new MadeUpDataGuard(services.connections, services.wal);
    guard.check(await guard.demoOffer(connection.id), 'demo.generate', options.confirm);
    const summary = await generateDemoData(services, connection.id);
    if (options.json) printJson({ connection: connection.name, ...summary });
    else printLines(describeDemo(connection.name, summary));
  } finally {
    await services.wal.closeAll();
  }
}

function describeDemo(connection: string, summary: DemoSummary): string[] {
  return [
    `Demo data written to ${connection}: ${counted(summary.entries, 'WAL entry', 'WAL entries')}, ${counted(summary.namespaces, 'namespace')}, ${counted(summary.segments, 'segment')}.`,
    'WAL prefixes:',
    ...summary.walPrefixes.map((prefix) => `  ${prefix}`),
  ];
}
