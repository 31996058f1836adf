/**
 * Procedures that take a person to a place in a prefix: "go to sequence" in the Batches
 * object table finds which page of the filtered list holds an object. Reads only.
 */
import { z } from 'zod';
import { ConnectionId } from './common';
import { procedure } from './procedure';
import { WalObjectRow, WalObjectStatus, WalPrefix } from './wal';

/** The object filters of the Batches table (`wal.objects`'s `status`). */
export const WalObjectFilter = z.enum(['all', 'damaged', ...WalObjectStatus.options]);

export const walNavigationProcedures = {
  'wal.objects.locate': procedure(
    'read',
    "Where the object of a sequence stands in the prefix's object list under a filter (its index), or null when that list does not hold it",
    z
      .object({
        connectionId: ConnectionId,
        prefix: WalPrefix,
        status: WalObjectFilter.default('all'),
        seq: z.union([z.bigint(), z.int().min(0)]).transform((seq, ctx) => {
          const value = BigInt(seq);
          if (value >= 1n << 44n) {
            ctx.addIssue({ code: 'custom', message: 'a sequence is below 2^44' });
            return z.NEVER;
          }
          return value;
        }),
      })
      .strict(),
    z.object({ index: z.number(), total: z.number(), row: WalObjectRow }).nullable(),
  ),
};
