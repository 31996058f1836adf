/** Tiered-segment procedures: each validated input goes to the connection's TieringConsole. */
import type { z } from 'zod';
import { segmentProcedures } from '../../../shared/contract/segments';
import type { TieringService } from '../../services/tiering/tiering-service';
import { nextStates } from '../../services/tiering/transitions';

type SegmentProcedures = typeof segmentProcedures;
type SegmentHandlers = {
  [K in keyof SegmentProcedures]: (
    input: z.output<SegmentProcedures[K]['input']>,
  ) => Promise<z.output<SegmentProcedures[K]['output']>>;
};

export function segmentHandlers({
  tiering,
}: {
  readonly tiering: TieringService;
}): SegmentHandlers {
  const of = (connectionId: string) => tiering.console(connectionId);
  return {
    'segments.partitions': async ({ connectionId }) => (await of(connectionId)).partitions(),
    'segments.list': async (input) => (await of(input.connectionId)).list(input),
    'segments.find': async (input) =>
      (await of(input.connectionId)).find(input, input.epoch, input.offset),
    'segments.highest': async (input) => (await of(input.connectionId)).highest(input, input.epoch),
    'segments.add': async (input) => (await of(input.connectionId)).add(input),
    'segments.update': async (input) => (await of(input.connectionId)).update(input),
    'segments.deletePartition': async (input) =>
      (await of(input.connectionId)).deletePartition(input),
    'segments.caughtUp': async (input) => (await of(input.connectionId)).caughtUp(input),
    'segments.transitions': async (input) => nextStates(input),
  };
}
