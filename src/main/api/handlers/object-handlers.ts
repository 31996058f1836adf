import { MAX_OBJECT_READ_BYTES } from '../../../shared/contract/objects';
import type { Services } from '../../services/services';
import type { Handlers } from '../router';

type ObjectHandlers = Pick<Handlers, 'objects.list' | 'objects.head' | 'objects.get'>;

export function objectHandlers({ connections }: Services): ObjectHandlers {
  return {
    'objects.list': async ({
      connectionId,
      prefix,
      delimiter,
      continuation,
      startAfter,
      pageSize,
    }) => {
      const { io } = await connections.io(connectionId);
      const page = await io.listPage(prefix, { delimiter, continuation, startAfter, pageSize });
      return {
        objects: [...page.objects],
        commonPrefixes: [...page.commonPrefixes],
        continuation: page.continuation,
      };
    },
    'objects.head': async ({ connectionId, key }) =>
      (await connections.io(connectionId)).io.head(key),
    'objects.get': async ({ connectionId, key, range }) => {
      const { io } = await connections.io(connectionId);
      // A viewer never pulls more than 1 MiB at once: huge objects are read in ranges.
      const bounded = range ?? { start: 0, end: MAX_OBJECT_READ_BYTES - 1 };
      const limited =
        'suffix' in bounded
          ? { suffix: Math.min(bounded.suffix, MAX_OBJECT_READ_BYTES) }
          : {
              start: bounded.start,
              end: Math.min(
                bounded.end ?? Number.MAX_SAFE_INTEGER,
                bounded.start + MAX_OBJECT_READ_BYTES - 1,
              ),
            };
      const result = await io.get(key, limited);
      return {
        bytes: result.bytes,
        etag: result.etag,
        size: result.size,
        truncated: result.bytes.length < result.size,
      };
    },
  };
}
