/** `cairn serve`: browser mode on 127.0.0.1 with a token in the printed URL. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import { createRouter } from '../../api/create-router';
import { appVersion } from '../../services/app-version';
import { createServices } from '../../services/services';
import { startWebServer } from '../../web/web-server';
import { installProcessGuard } from '../../process-guard';
import { projectRoot } from '../../project-root';
import { parseUnsigned } from '../connection-flags';
import { dataDirOf, withDataDirFlag, type DataDirOptions } from '../data-dir-flag';
import { eitherSpelling, withOldSpelling } from '../old-spelling';
import { printJson } from '../output';
import { runAction } from '../run-action';

const PROJECT_ROOT = projectRoot();

export function registerServe(program: Command): void {
  const serve = program.command('serve').description(groupDescription('serve'));
  withDataDirFlag(
    serve,
    "app data directory; its embedded store is DATA_DIR/cairn-data (default: CAIRN_DATA_DIR, else the desktop app's)",
  );
  withOldSpelling(serve, 'dir');
  serve
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', '7467')
    .option('--renderer <path>', 'built renderer directory', join(PROJECT_ROOT, 'out', 'renderer'))
    .option('--json', 'print {"url","port","dataDir"} as JSON')
    .action(
      runAction(
        async (
          options: DataDirOptions & {
            dir?: string;
            port: string;
            renderer: string;
            json?: boolean;
          },
        ) => {
          installProcessGuard();
          const port = Number(parseUnsigned('--port', options.port, 32));
          const dataDir = resolve(
            dataDirOf({
              dataDir: eitherSpelling(options.dataDir, options.dir, '--data-dir', '--dir'),
            }),
          );
          const services = await createServices({
            name: 'Cairn',
            version: appVersion(PROJECT_ROOT),
            mode: 'browser',
            dataDir,
          });
          if (!existsSync(join(options.renderer, 'index.html'))) {
            process.stderr.write(
              `The renderer is not built in ${options.renderer}: run \`npm run build\` first.\n`,
            );
          }
          const server = await startWebServer({
            router: createRouter(services),
            events: services.events,
            rendererDir: options.renderer,
            port,
            onSessionEnd: (session) => services.connections.endSession(session),
          });
          if (options.json) printJson({ url: server.url, port: server.port, dataDir });
          else
            process.stdout.write(
              `Cairn browser mode: ${server.url}\n(data directory ${dataDir}; Ctrl+C stops it)\n`,
            );
          // Writers opened in the app stop cleanly, so their epochs are sealed, not taken over later.
          const stop = () =>
            void Promise.allSettled([services.wal.closeAll(), server.close()]).then(() =>
              process.exit(0),
            );
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        },
      ),
    );
}
