/** "Find by epoch & offset" and "highest offset for epoch": the seed's two queries, on demand. */
import { useState, type FormEvent } from 'react';
import { FindSegmentInput, HighestOffsetInput } from '../../../../shared/contract/segments';
import { useApiMutation } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { formText } from '../../components/form-text';
import { shortId, type SelectedPartition } from './segment-words';

interface LookupProps {
  readonly connectionId: string;
  readonly partition: SelectedPartition;
}

/** A form's integer field as a number, or the raw text for the schema to refuse by name. */
function integerField(form: FormData, field: string): number | string {
  const text = formText(form, field);
  return /^-?\d{1,16}$/.test(text) ? Number(text) : text;
}

function firstProblem(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  const issue = issues[0];
  return `${issue?.path.map(String).join('.') || 'form'}: ${issue?.message ?? 'invalid'}`;
}

export function FindSegmentPanel({ connectionId, partition }: LookupProps) {
  // A lookup is a read, but it runs on demand: a mutation-style call keeps its last answer.
  const find = useApiMutation('segments.find');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = FindSegmentInput.safeParse({
      connectionId,
      topicId: partition.topicId,
      partition: partition.partition,
      epoch: integerField(form, 'epoch'),
      offset: integerField(form, 'offset'),
    });
    if (!parsed.success) return setProblem(firstProblem(parsed.error.issues));
    setProblem(null);
    find.mutate(parsed.data);
  };
  const found = find.data;
  return (
    <section className="segments-panel" aria-labelledby="find-title">
      <h2 id="find-title">Find by epoch &amp; offset</h2>
      <form onSubmit={submit} noValidate>
        <label>
          Leader epoch <input name="epoch" inputMode="numeric" required />
        </label>
        <label>
          Offset <input name="offset" inputMode="numeric" required />
        </label>
        <button type="submit" disabled={find.isPending}>
          Find segment
        </button>
      </form>
      {problem && (
        <p role="alert" className="form-problem">
          {problem}
        </p>
      )}
      {find.error && (
        <ErrorPanel
          error={find.error}
          onRetry={() => find.variables && find.mutate(find.variables)}
        />
      )}
      <p role="status" aria-label="Find result">
        {find.isSuccess &&
          find.variables &&
          (found
            ? `Segment ${shortId(found.segmentId)} (offsets ${found.startOffset}–${found.endOffset}) serves offset ${find.variables.offset} of epoch ${find.variables.epoch}.`
            : `No finished segment serves offset ${find.variables.offset} of epoch ${find.variables.epoch}.`)}
      </p>
    </section>
  );
}

export function HighestOffsetPanel({ connectionId, partition }: LookupProps) {
  const highest = useApiMutation('segments.highest');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = HighestOffsetInput.safeParse({
      connectionId,
      topicId: partition.topicId,
      partition: partition.partition,
      epoch: integerField(form, 'epoch'),
    });
    if (!parsed.success) return setProblem(firstProblem(parsed.error.issues));
    setProblem(null);
    highest.mutate(parsed.data);
  };
  return (
    <section className="segments-panel" aria-labelledby="highest-title">
      <h2 id="highest-title">Highest offset for epoch</h2>
      <form onSubmit={submit} noValidate>
        <label>
          Epoch <input name="epoch" inputMode="numeric" required />
        </label>
        <button type="submit" disabled={highest.isPending}>
          Look up highest offset
        </button>
      </form>
      {problem && (
        <p role="alert" className="form-problem">
          {problem}
        </p>
      )}
      {highest.error && (
        <ErrorPanel
          error={highest.error}
          onRetry={() => highest.variables && highest.mutate(highest.variables)}
        />
      )}
      <p role="status" aria-label="Highest offset result">
        {highest.isSuccess &&
          highest.variables &&
          (highest.data === null
            ? `No finished segment carries epoch ${highest.variables.epoch}.`
            : `Highest offset of epoch ${highest.variables.epoch}: ${highest.data}`)}
      </p>
    </section>
  );
}
