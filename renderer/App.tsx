/** The app shell: top bar, navigation on the left, the current screen beside it. */
import { useChangeEvents } from './api/hooks.js';
import { ComingLater } from './components/ComingLater.js';
import { Navigation } from './components/Navigation.js';
import { TopBar } from './components/TopBar.js';
import { useUiStore } from './state/ui.js';
import { views } from './views/catalog.js';
import { ProjectsView } from './views/ProjectsView.js';

export function App() {
  useChangeEvents();
  const current = useUiStore((state) => state.view);
  const entry = views.find((view) => view.name === current);

  return (
    <div className="app">
      <TopBar />
      <div className="app__body">
        <Navigation />
        <main className="app__main">
          {current === 'projects' ? <ProjectsView /> : entry && <ComingLater view={entry} />}
        </main>
      </div>
    </div>
  );
}
