import { z } from 'zod';
import { Empty } from './common';
import { procedure } from './procedure';

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  dataDir: z.string(),
  mode: z.enum(['desktop', 'browser']),
  platform: z.string(),
  nodeVersion: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const appProcedures = {
  'app.info': procedure(
    'read',
    'Version, data directory and mode of the running app',
    Empty,
    AppInfo,
  ),
};
