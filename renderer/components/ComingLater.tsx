/** Stands in for a screen that is not built yet, saying what it will be for. */
import type { ViewEntry } from '../views/catalog.js';

export function ComingLater({ view }: { view: ViewEntry }) {
  return (
    <section className="view" aria-labelledby={`${view.name}-title`}>
      <h1 id={`${view.name}-title`} className="view__title">
        {view.title}
      </h1>
      <div className="placeholder">
        <p>{view.purpose}</p>
        <p className="muted">This screen is coming in a later version.</p>
      </div>
    </section>
  );
}
