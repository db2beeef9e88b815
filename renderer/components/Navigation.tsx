/** The left navigation between the app's screens. */
import { useT } from '../i18n/index.js';
import { useUiStore } from '../state/ui.js';
import { views } from '../views/catalog.js';
import { GettingStartedItem } from '../views/first-start/FirstStartChecklist.js';
import { useOrderScreen } from '../views/orders/order-screen-state.js';

export function Navigation() {
  const current = useUiStore((state) => state.view);
  const showView = useUiStore((state) => state.showView);
  const t = useT();
  return (
    <nav className="navigation" aria-label={t('nav.label')}>
      <ul className="navigation__items">
        {views.map((view) => (
          <li key={view.name} className={view.name === 'settings' ? 'navigation__item--end' : undefined}>
            <button
              type="button"
              className="navigation__button"
              aria-current={view.name === current ? 'page' : undefined}
              onClick={() => {
                // The Orders item always opens the order list, also when an order was left open.
                if (view.name === 'orders') useOrderScreen.getState().backToList();
                showView(view.name);
              }}
            >
              {t(view.titleKey)}
            </button>
          </li>
        ))}
        <GettingStartedItem />
      </ul>
    </nav>
  );
}
