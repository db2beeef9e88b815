/** The app shell: top bar, navigation on the left, the current screen beside it. */
import type { ComponentType } from 'react';
import { useChangeEvents } from './api/hooks.js';
import { ComingLater } from './components/ComingLater.js';
import { Navigation } from './components/Navigation.js';
import { TopBar } from './components/TopBar.js';
import { useShellMenu } from './components/use-shell-menu.js';
import { useUiStore, type ViewName } from './state/ui.js';
import { ActivitiesView } from './views/ActivitiesView.js';
import { WhoAreYou } from './views/app-user/WhoAreYou.js';
import { FirstStartChecklist } from './views/first-start/FirstStartChecklist.js';
import { SampleWorkshopBanner } from './views/first-start/SampleWorkshopBanner.js';
import { views } from './views/catalog.js';
import { ExceptionsView } from './views/exceptions/ExceptionsView.js';
import { useExceptionNotices } from './views/exceptions/use-exception-notices.js';
import { KpiView } from './views/kpi/KpiView.js';
import { OrdersView } from './views/orders/OrdersView.js';
import { PlanboardView } from './views/PlanboardView.js';
import { ProjectsView } from './views/ProjectsView.js';
import { ResourcesView } from './views/ResourcesView.js';
import { ScenarioBanner } from './views/scenarios/ScenarioBanner.js';
import { SettingsView } from './views/settings/SettingsView.js';
import { useAppliedTheme } from './views/settings/theme.js';
import { SyncView } from './views/sync/SyncView.js';
import { TimeView } from './views/time/TimeView.js';

/** The screens built so far; the others say what they will be for. */
const screens: Partial<Record<ViewName, ComponentType>> = {
  planboard: PlanboardView,
  exceptions: ExceptionsView,
  kpi: KpiView,
  orders: OrdersView,
  projects: ProjectsView,
  activities: ActivitiesView,
  resources: ResourcesView,
  time: TimeView,
  sync: SyncView,
  settings: SettingsView,
};

export function App() {
  useChangeEvents();
  useAppliedTheme();
  useShellMenu();
  useExceptionNotices();
  const current = useUiStore((state) => state.view);
  const entry = views.find((view) => view.name === current);
  const Screen = screens[current];

  return (
    <div className="app">
      <TopBar />
      <WhoAreYou />
      <div className="app__body">
        <Navigation />
        <main className="app__main">
          <ScenarioBanner />
          <SampleWorkshopBanner />
          <FirstStartChecklist />
          {Screen ? <Screen /> : entry && <ComingLater view={entry} />}
        </main>
      </div>
    </div>
  );
}
