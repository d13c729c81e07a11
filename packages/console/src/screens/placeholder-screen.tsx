/** A screen still to be built: its title only. */
export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <section className="placeholder" aria-labelledby="placeholder-title">
      <h1 id="placeholder-title">{title}</h1>
    </section>
  );
}
