/** The left navigation between the app's screens. */
import { useUiStore } from '../state/ui.js';
import { views } from '../views/catalog.js';

export function Navigation() {
  const current = useUiStore((state) => state.view);
  const showView = useUiStore((state) => state.showView);
  return (
    <nav className="navigation" aria-label="Main">
      <ul className="navigation__items">
        {views.map((view) => (
          <li key={view.name} className={view.name === 'settings' ? 'navigation__item--end' : undefined}>
            <button
              type="button"
              className="navigation__button"
              aria-current={view.name === current ? 'page' : undefined}
              onClick={() => showView(view.name)}
            >
              {view.title}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
