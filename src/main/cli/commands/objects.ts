/** `cairn objects ls|get`: raw keys and bytes of a store, paged, never a whole prefix at once. */
import { once } from 'node:events';
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import { readRanges } from '../../engine/objectio/ranged-read';
import { openConnection, withConnectionFlags, type ConnectionOptions } from '../connection-flags';
import { printJson, printLines, table } from '../output';
import { runAction } from '../run-action';

export function registerObjects(program: Command): void {
  const objects = program.command('objects').description(groupDescription('objects'));

  withConnectionFlags(
    objects.command('ls').description('List keys under a prefix (NDJSON with --json)'),
  )
    .argument('[prefix]', 'key prefix', '')
    .option('--delimiter <d>', 'group keys into folders at this delimiter')
    .option('--json', 'NDJSON, one object or folder per line')
    .action(
      runAction(
        async (
          prefix: string,
          options: ConnectionOptions & { delimiter?: string; json?: boolean },
        ) => {
          const { io } = await openConnection(options);
          for await (const page of io.list(prefix, { delimiter: options.delimiter })) {
            if (options.json) {
              for (const folder of page.commonPrefixes) printJson({ prefix: folder });
              for (const object of page.objects) printJson(object);
            } else {
              printLines(page.commonPrefixes.map((folder) => `${' '.repeat(10)}  ${folder}`));
              printLines(
                table(
                  ['SIZE', 'KEY'],
                  page.objects.map((object) => [String(object.size).padStart(10), object.key]),
                ).slice(1),
              );
            }
          }
        },
      ),
    );

  withConnectionFlags(objects.command('get').description("Write an object's bytes to stdout"))
    .argument('<key>', 'object key')
    .option('--json', 'print {key,size,etag,base64}')
    .action(
      runAction(async (key: string, options: ConnectionOptions & { json?: boolean }) => {
        const { io } = await openConnection(options);
        if (options.json) {
          // One JSON document holds the object: bounded by MAX_GET_BYTES (ObjectTooLarge above).
          const object = await io.get(key);
          printJson({
            key,
            size: object.size,
            etag: object.etag,
            base64: Buffer.from(object.bytes).toString('base64'),
          });
          return;
        }
        // Raw bytes stream in ranged pieces, so an object of any size costs one piece of memory.
        const { size } = await io.head(key);
        for await (const piece of readRanges(io, key, 0, size)) {
          if (!process.stdout.write(piece)) await once(process.stdout, 'drain');
        }
      }),
    );
}
