import { z } from 'zod';
import { ConnectionId, ObjectKey, ObjectPrefix, Token } from './common';
import { procedure } from './procedure';

export const ObjectMeta = z.object({
  key: z.string(),
  size: z.number(),
  etag: z.string(),
  lastModified: z.date().optional(),
});

export const ObjectListing = z.object({
  objects: z.array(ObjectMeta),
  commonPrefixes: z.array(z.string()),
  continuation: z.string().optional(),
});

const ByteRange = z.union([
  z
    .object({
      start: z.number().int().nonnegative(),
      end: z.number().int().nonnegative().optional(),
    })
    .strict(),
  z.object({ suffix: z.number().int().positive() }).strict(),
]);

/** Payloads larger than this are truncated for viewing; the raw download reads ranges. */
export const MAX_OBJECT_READ_BYTES = 1024 * 1024;

export const objectProcedures = {
  'objects.list': procedure(
    'read',
    'One page of keys under a prefix',
    z
      .object({
        connectionId: ConnectionId,
        prefix: ObjectPrefix.default(''),
        delimiter: z.string().min(1).max(8).optional(),
        continuation: Token.optional(),
        /** Only keys after this one (S3 StartAfter): a listing that opens at a key. */
        startAfter: ObjectKey.optional(),
        pageSize: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
    ObjectListing,
  ),
  'objects.head': procedure(
    'read',
    'Size and ETag of one object',
    z.object({ connectionId: ConnectionId, key: ObjectKey }).strict(),
    ObjectMeta,
  ),
  'objects.get': procedure(
    'read',
    'Bytes of one object (at most 1 MiB per call; ask ranges for more)',
    z.object({ connectionId: ConnectionId, key: ObjectKey, range: ByteRange.optional() }).strict(),
    z.object({
      bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array),
      etag: z.string(),
      size: z.number(),
      truncated: z.boolean(),
    }),
  ),
};
