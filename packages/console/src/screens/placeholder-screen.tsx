/** A screen that is its title only: the console's "Not found". */
export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <section className="placeholder" aria-labelledby="placeholder-title">
      <h1 id="placeholder-title">{title}</h1>
    </section>
  );
}
