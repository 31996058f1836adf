/** Shows a typed API error with its code and fields, and a retry when one makes sense. */
import type { ApiError } from '../../../shared/api-error';

export function ErrorPanel({ error, onRetry }: { error: ApiError | Error; onRetry?: () => void }) {
  const code = 'code' in error ? String(error.code) : error.name;
  const details =
    'details' in error ? Object.entries(error.details as Record<string, unknown>) : [];
  return (
    <div role="alert" className="error-panel">
      <div className="error-code">{code}</div>
      <div className="error-message">{error.message}</div>
      {details.length > 0 && (
        <dl className="error-details">
          {details.map(([field, value]) => (
            <div key={field}>
              <dt>{field}</dt>
              <dd>{String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
