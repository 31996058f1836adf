/** "Find by epoch & offset" and "highest offset for epoch": the seed's two queries, on demand. */
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { ApiError } from '../../../../shared/api-error';
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

interface LookupFormProps<S extends z.ZodType> {
  readonly id: string;
  readonly title: string;
  readonly fields: readonly { readonly name: string; readonly label: string }[];
  readonly submitLabel: string;
  /** Validated with the contract's own schema before anything is sent. */
  readonly schema: S;
  readonly inputOf: (form: FormData) => unknown;
  readonly run: (input: z.output<S>) => void;
  readonly pending: boolean;
  readonly error: ApiError | null;
  readonly onRetry: () => void;
  readonly resultLabel: string;
  readonly result: string | null;
}

/** One on-demand lookup: a small form, its validation problem, the API's error, the answer. */
function LookupForm<S extends z.ZodType>(props: LookupFormProps<S>) {
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = props.schema.safeParse(props.inputOf(new FormData(event.currentTarget)));
    if (!parsed.success) return setProblem(firstProblem(parsed.error.issues));
    setProblem(null);
    props.run(parsed.data);
  };
  return (
    <section className="segments-panel" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <form onSubmit={submit} noValidate>
        {props.fields.map((field) => (
          <label key={field.name}>
            {field.label} <input name={field.name} inputMode="numeric" required />
          </label>
        ))}
        <button type="submit" disabled={props.pending}>
          {props.submitLabel}
        </button>
      </form>
      {problem && (
        <p role="alert" className="form-problem">
          {problem}
        </p>
      )}
      {props.error && <ErrorPanel error={props.error} onRetry={props.onRetry} />}
      <p role="status" aria-label={props.resultLabel}>
        {props.result}
      </p>
    </section>
  );
}

export function FindSegmentPanel({ connectionId, partition }: LookupProps) {
  // A lookup is a read, but it runs on demand: a mutation-style call keeps its last answer.
  const find = useApiMutation('segments.find');
  const asked = find.variables;
  const found = find.data;
  const result =
    find.isSuccess && asked
      ? found
        ? `Segment ${shortId(found.segmentId)} (offsets ${found.startOffset}–${found.endOffset}) serves offset ${asked.offset} of epoch ${asked.epoch}.`
        : `No finished segment serves offset ${asked.offset} of epoch ${asked.epoch}.`
      : null;
  return (
    <LookupForm
      id="find"
      title="Find by epoch & offset"
      fields={[
        { name: 'epoch', label: 'Leader epoch' },
        { name: 'offset', label: 'Offset' },
      ]}
      submitLabel="Find segment"
      schema={FindSegmentInput}
      inputOf={(form) => ({
        connectionId,
        topicId: partition.topicId,
        partition: partition.partition,
        epoch: integerField(form, 'epoch'),
        offset: integerField(form, 'offset'),
      })}
      run={(input) => find.mutate(input)}
      pending={find.isPending}
      error={find.error}
      onRetry={() => asked && find.mutate(asked)}
      resultLabel="Find result"
      result={result}
    />
  );
}

export function HighestOffsetPanel({ connectionId, partition }: LookupProps) {
  const highest = useApiMutation('segments.highest');
  const asked = highest.variables;
  const result =
    highest.isSuccess && asked
      ? highest.data === null
        ? `No finished segment carries epoch ${asked.epoch}.`
        : `Highest offset of epoch ${asked.epoch}: ${highest.data}`
      : null;
  return (
    <LookupForm
      id="highest"
      title="Highest offset for epoch"
      fields={[{ name: 'epoch', label: 'Epoch' }]}
      submitLabel="Look up highest offset"
      schema={HighestOffsetInput}
      inputOf={(form) => ({
        connectionId,
        topicId: partition.topicId,
        partition: partition.partition,
        epoch: integerField(form, 'epoch'),
      })}
      run={(input) => highest.mutate(input)}
      pending={highest.isPending}
      error={highest.error}
      onRetry={() => asked && highest.mutate(asked)}
      resultLabel="Highest offset result"
      result={result}
    />
  );
}
