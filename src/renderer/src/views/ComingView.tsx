/** The frame of a view whose engine has not landed in this build yet: says which one. */
export function ComingView({ title, needs }: { title: string; needs: string }) {
  return (
    <section aria-labelledby="coming-title" className="view">
      <h1 id="coming-title">{title}</h1>
      <p className="muted">This view needs {needs}, which this build does not include yet.</p>
    </section>
  );
}
