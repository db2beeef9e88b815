/** The strip across the top of the window: the app's name, the count of exceptions, my timer and the sync status, always in view. */
import { ExceptionCount } from '../views/exceptions/ExceptionCount.js';
import { MyTimer } from '../views/time/MyTimer.js';
import { SyncStatus } from './SyncStatus.js';

export function TopBar() {
  return (
    <header className="top-bar">
      <span className="top-bar__mark" aria-hidden="true" />
      <span className="top-bar__name">Planner</span>
      <ExceptionCount />
      <MyTimer />
      <SyncStatus />
    </header>
  );
}
