import { z } from 'zod';
import { procedure } from './procedure';

export const AuditEntrySchema = z.object({
  at: z.string(),
  connectionId: z.string().nullable(),
  /** The connection's name when the action was taken (ids are random; names are what people read). */
  connection: z.string().optional(),
  /** Which session acted: a browser session, a desktop window, or the process itself. */
  session: z.string().optional(),
  /**
   * The call's id: every entry a call wrote or caused (one per region of a bulk, each deletion
   * pass after it) carries it; absent on entries of older versions and of the CLI.
   */
  callId: z.string().optional(),
  action: z.string(),
  target: z.string(),
  parameters: z.unknown(),
  /** 'started': written before the action, its outcome never recorded (see audit-log.md). */
  result: z.enum(['ok', 'error', 'started']),
  error: z.string().optional(),
});

/** Where a page of the audit log ends: `<generation>[:<byte offset>]`, opaque to callers. */
const AuditCursor = z.string().regex(/^\d{1,9}(:\d{1,15})?$/, 'not a cursor of audit.page');

export const AuditPage = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as `before` for the entries older than these; null when there are none. */
  older: AuditCursor.nullable(),
  /** Lines on the way that were no entry (a torn write, an over-long line): skipped, counted. */
  unreadable: z.number(),
});
export type AuditPage = z.infer<typeof AuditPage>;

export const auditProcedures = {
  'audit.recent': procedure(
    'read',
    'The newest operator actions, newest first',
    z.object({ limit: z.number().int().min(1).max(10_000).default(500) }).strict(),
    z.array(AuditEntrySchema),
  ),
  'audit.page': procedure(
    'read',
    'A page of operator actions, newest first, from the newest or from before a cursor',
    z
      .object({
        limit: z.number().int().min(1).max(1_000).default(200),
        before: AuditCursor.optional(),
      })
      .strict(),
    AuditPage,
  ),
};
