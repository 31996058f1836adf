/**
 * "Generate demo data" on one connection: one click on the embedded store or an empty one;
 * on any other store a typed confirmation naming the connection first, saying where the
 * demo goes (beside what the store holds, never over it). The main process checks the same.
 */
import type { Connection } from '../../../../shared/contract';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { useToasts } from '../../components/Toasts';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { counted } from '../../../../shared/plural';

export function DemoDataButton({ connection }: { connection: Connection }) {
  const offer = useApiQuery(
    'demo.offer',
    { connectionId: connection.id },
    { refetchInterval: false },
  );
  const demo = useApiMutation('demo.generate', [
    'demo.offer',
    'objects.list',
    'namespaces.list',
    'segments.partitions',
  ]);
  const push = useToasts((state) => state.push);
  const label = `Generate demo data in ${connection.name}`;
  const generate = (confirm?: string) =>
    demo.mutateAsync({ connectionId: connection.id, confirm }).then(
      (summary) => {
        push({
          tone: 'ok',
          title: `Demo data written to ${connection.name}`,
          description: `${counted(summary.entries, 'WAL entry', 'WAL entries')}, ${counted(summary.namespaces, 'namespace')}, ${counted(summary.segments, 'segment')}`,
        });
        return true;
      },
      (error: { code: string; message: string }) => {
        push({
          tone: 'error',
          title: 'No demo data written',
          description: `${error.code}: ${error.message}`,
        });
        return false;
      },
    );
  const phrase = offer.data?.confirmPhrase ?? null;
  if (phrase === null)
    return (
      <button
        type="button"
        aria-label={label}
        disabled={demo.isPending || offer.isPending}
        title={offer.error ? `${offer.error.code}: ${offer.error.message}` : undefined}
        onClick={() => void generate()}
      >
        {demo.isPending ? 'Generating…' : 'Generate demo data'}
      </button>
    );
  return (
    <TypedConfirmDialog
      title={label}
      phrase={phrase}
      actionLabel="Generate demo data"
      pending={demo.isPending}
      error={demo.error}
      onOpenChange={() => demo.reset()}
      trigger={
        <button type="button" aria-label={label}>
          Generate demo data…
        </button>
      }
      onConfirm={(typed) => generate(typed)}
    >
      <p role="alert">
        <strong>{connection.name}</strong> is not the embedded store and already holds data. Demo
        data - made-up WAL prefixes, namespaces and tiered segments - would be written beside it,
        and stay there.
      </p>
      <p className="small muted">
        Nothing it holds is overwritten: a prefix or namespace name the demo uses that is already
        taken refuses the whole, before anything is written.
      </p>
    </TypedConfirmDialog>
  );
}
