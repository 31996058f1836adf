/** The shell's banner while the audit log cannot be written: operator actions are refused. */
import { useAuditAlarm } from '../state/audit-alarm';

export function AuditBanner() {
  const { alarm, dismiss } = useAuditAlarm();
  if (alarm === null) return null;
  return (
    <div role="alert" className="error-panel audit-banner">
      <strong>The audit log cannot be written</strong>: <span className="mono">{alarm.file}</span> (
      {alarm.reason}). Every operator action is refused, before it changes anything, until the log
      can be written again: free space or fix the data directory.
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
