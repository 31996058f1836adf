/**
 * Whether the main process last refused an action because its audit log could not be written
 * (`AuditUnavailable`): the shell shows a banner naming the file and the reason until the
 * operator dismisses it (the next refusal raises it again). UI state only.
 */
import { create } from 'zustand';
import { ApiError } from '../../../shared/api-error';

export interface AuditAlarm {
  readonly file: string;
  readonly reason: string;
}

interface AuditAlarmState {
  readonly alarm: AuditAlarm | null;
  readonly dismiss: () => void;
}

export const useAuditAlarm = create<AuditAlarmState>((set) => ({
  alarm: null,
  dismiss: () => set({ alarm: null }),
}));

/** Raises the banner for an `AuditUnavailable` reply; other errors leave it as it is. */
export function noteCallError(error: unknown): void {
  if (!(error instanceof ApiError) || error.code !== 'AuditUnavailable') return;
  const { file, reason } = error.details;
  useAuditAlarm.setState({ alarm: { file: String(file), reason: String(reason) } });
}
