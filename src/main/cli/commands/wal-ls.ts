/**
 * `cairn wal ls`: the WAL prefixes under the root, as the console's Overview lists them. Its
 * own file so that listing loads only the listing (no inspect, verify, ledger or decoders).
 */
import type { Command } from 'commander';
import { discoverPrefixes, type DiscoveredPrefix } from '../../engine/wal-read/discover';
import { isListedPrefix } from '../../services/wal/fleet/fleet-source';
import { printJson, printLines, table } from '../output';
import { runAction } from '../run-action';
import { openWalConnection, withWalFlags, type WalOptions } from './wal-config';

type JsonOption = WalOptions & { json?: boolean };

/** Where `wal ls` looked, in words: the bucket root or the prefix it walked. */
function placeOf(walked: string): string {
  return walked === '' ? 'the bucket root' : walked;
}

export function registerWalLsCommand(wal: Command): void {
  withWalFlags(
    wal
      .command('ls')
      .description(
        "WAL prefixes under --root, as the console's Overview lists them: Cairn's under ROOT/wal, GreptimeDB's anywhere (delimiter listing, bounded)",
      ),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: JsonOption) => {
        const { io, root } = await openWalConnection(options);
        // --prefix walks under that prefix and lists all it finds; else the console's view.
        const walked = options.prefix ?? root;
        const found = await discoverPrefixes(io, walked);
        const prefixes = found.prefixes.filter(
          (p) => options.prefix !== undefined || isListedPrefix(root, p.prefix),
        );
        if (found.truncated)
          process.stderr.write('cairn: the listing stopped at a bound; narrow it with --root\n');
        if (options.json) printJson(prefixes);
        else if (prefixes.length === 0) printLines([`no WAL prefix under ${placeOf(walked)}`]);
        else printLines(prefixTable(prefixes));
      }),
    );
}

function prefixTable(prefixes: readonly DiscoveredPrefix[]): string[] {
  return table(
    ['FORMAT', 'NODE', 'GENERATION', 'PREFIX'],
    prefixes.map((p) => [
      p.format ?? 'empty',
      p.nodeId === null ? '-' : String(p.nodeId),
      p.generation === null ? '-' : String(p.generation),
      p.prefix,
    ]),
  );
}
