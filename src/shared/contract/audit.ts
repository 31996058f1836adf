import { z } from 'zod';
import { procedure } from './procedure';

export const AuditEntrySchema = z.object({
  at: z.string(),
  connectionId: z.string().nullable(),
  action: z.string(),
  target: z.string(),
  parameters: z.unknown(),
  result: z.enum(['ok', 'error']),
  error: z.string().optional(),
});

export const auditProcedures = {
  'audit.recent': procedure(
    'read',
    'The newest operator actions, newest first',
    z.object({ limit: z.number().int().min(1).max(10_000).default(500) }).strict(),
    z.array(AuditEntrySchema),
  ),
};
