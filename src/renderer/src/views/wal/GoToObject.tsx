/**
 * "Go to sequence / id" in the Batches object table: a sequence (`1500`) or an entry id
 * (`1500:17`, whose object is sequence 1500) becomes the object's place in the filtered list,
 * asked of the main process (`wal.objects.locate`), whatever page it is on. Says so when the
 * list does not hold it; never guesses a neighbour.
 */
import { useState, type FormEvent } from 'react';
import { parseEntryId } from '../../../../shared/id-notation';
import type { WalObjectRow } from '../../../../shared/contract/wal';
import { api } from '../../api/client';
import type { ApiError } from '../../../../shared/api-error';
import { formText } from '../../components/form-text';

const SEQ_LIMIT = 1n << 44n;

/** The sequence a person typed: a bare number is a sequence, `seq:position` names its object. */
export function sequenceTyped(text: string): bigint | null {
  const trimmed = text.trim();
  if (/^\d{1,14}$/.test(trimmed)) {
    const seq = BigInt(trimmed);
    return seq < SEQ_LIMIT ? seq : null;
  }
  if (!trimmed.includes(':')) return null;
  const id = parseEntryId(trimmed);
  return id === null ? null : id >> 20n;
}

export function GoToObject({
  connectionId,
  prefix,
  status,
  onFound,
}: {
  connectionId: string;
  prefix: string;
  status: 'all' | 'damaged' | WalObjectRow['status'];
  onFound: (found: { index: number; row: WalObjectRow }) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = formText(new FormData(event.currentTarget), 'target');
    const seq = sequenceTyped(text);
    if (seq === null) {
      setProblem('a sequence (1500) or an entry id (1500:17)');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const found = await api.call('wal.objects.locate', { connectionId, prefix, status, seq });
      if (found === null)
        setProblem(
          `seq ${seq} is not among the ${status === 'all' ? '' : `${status} `}objects listed (never written, or collected)`,
        );
      else onFound(found);
    } catch (error) {
      const failure = error as ApiError;
      setProblem(`${failure.code}: ${failure.message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="inline wal-goto"
      role="search"
      aria-label="Go to object"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <input
        name="target"
        aria-label="Go to sequence or id"
        placeholder="seq or seq:position"
        className="mono"
        autoComplete="off"
      />
      <button type="submit" disabled={busy}>
        Go
      </button>
      {problem !== null && (
        <span role="alert" className="form-problem small">
          {problem}
        </span>
      )}
    </form>
  );
}
