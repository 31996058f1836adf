/** WAL procedures: each validated input goes to the WalService, which knows the connection's storage. */
import type { z } from 'zod';
import type { walProcedures } from '../../../shared/contract/wal';
import type { Caller } from '../../services/caller';
import type { WalService } from '../../services/wal/wal-service';

/** `wal.load.start` is made-up data: demo-handlers.ts guards it. */
type WalProcedures = Omit<typeof walProcedures, 'wal.load.start'>;
type WalHandlers = {
  [K in keyof WalProcedures]: (
    input: z.output<WalProcedures[K]['input']>,
    caller: Caller,
  ) => Promise<z.output<WalProcedures[K]['output']>>;
};

export function walHandlers({ wal }: { readonly wal: WalService }): WalHandlers {
  return {
    'wal.prefixes': ({ connectionId }) => wal.prefixes(connectionId),
    'wal.fleet': ({ connectionId, since, refreshMs }) => wal.fleet(connectionId, since, refreshMs),
    'wal.fleet.stop': async ({ connectionId }) => wal.stopFleet(connectionId),
    'wal.inspect': ({ connectionId, prefix }) => wal.inspect(connectionId, prefix),
    'wal.objects': ({ connectionId, prefix, status, offset, limit }) =>
      wal.objects(connectionId, prefix, status, offset, limit),
    'wal.regions': ({ connectionId, prefix, offset, limit }) =>
      wal.regions(connectionId, prefix, offset, limit),
    'wal.manifest': ({ connectionId, prefix, limit }) => wal.manifest(connectionId, prefix, limit),
    'wal.verifyObject': async ({ connectionId, key }) => {
      const verdict = await wal.verifyObject(connectionId, key);
      return {
        ...verdict,
        check: verdict.check ?? null,
        detail: verdict.detail ?? null,
        gone: verdict.gone === true,
      };
    },
    'wal.decodeObject': ({ connectionId, key, segmentOffset, segmentLimit }) =>
      wal.decodeObject(connectionId, key, { offset: segmentOffset, limit: segmentLimit }),
    'wal.metrics': ({ connectionId, prefix }) => wal.metrics(connectionId, prefix),
    'wal.replay.start': ({ connectionId, prefix, ...request }, caller) =>
      wal.startReplay(connectionId, prefix, request, caller),
    'wal.replay.pause': async ({ jobId }, { session }) => wal.pauseReplay(jobId, session),
    'wal.replay.resume': async ({ jobId }, { session }) => wal.resumeReplay(jobId, session),
    'wal.replay.cancel': async ({ jobId }, { session }) => wal.cancelReplay(jobId, session),
    'wal.replay.progress': async ({ jobId }, { session }) => wal.replayProgress(jobId, session),
    'wal.writer.open': ({ connectionId, prefix, ...options }) =>
      wal.openWriter(connectionId, prefix, options),
    'wal.writer.close': ({ connectionId, prefix }) => wal.closeWriter(connectionId, prefix),
    'wal.writer.state': ({ connectionId, prefix }) => wal.writerState(connectionId, prefix),
    'wal.load.stop': ({ connectionId, prefix }) => wal.stopLoad(connectionId, prefix),
    'wal.obsolete.preview': ({ connectionId, prefix, region, id }) =>
      wal.maintenance.previewObsolete(connectionId, prefix, region, id),
    'wal.obsolete': ({ connectionId, prefix, region, id }, { credit }) =>
      wal.maintenance.obsolete(connectionId, prefix, region, id, credit),
    'wal.obsoleteAll': ({ connectionId, prefix, region }, { credit }) =>
      wal.maintenance.obsoleteAll(connectionId, prefix, region, credit),
    'wal.gc.preview': ({ connectionId, prefix }) => wal.maintenance.gcPreview(connectionId, prefix),
    'wal.gc': ({ connectionId, prefix }, { credit }) =>
      wal.maintenance.gc(connectionId, prefix, credit),
    'wal.namespaces.create': ({ connectionId, prefix, region }) =>
      wal.createNamespace(connectionId, prefix, region),
    'wal.namespaces.delete': ({ connectionId, prefix, region }) =>
      wal.deleteNamespace(connectionId, prefix, region),
  };
}
