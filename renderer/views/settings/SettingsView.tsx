/**
 * Settings: who you are (the app's user), what you are notified about, appearance (theme), language, the data folder
 * with backup and restore, what closing does with changes not yet sent, the local API for other programs on this
 * computer, workshop mode (the floor view for paired devices on the workshop network), the surcharge rules payroll
 * hours are split by, the payroll settings of the payroll files, and each employee's resource and payroll number. Each section
 * says plainly when something is
 * only possible in the desktop app.
 */
import { Notices } from '../../components/Notices.js';
import { useT } from '../../i18n/index.js';
import { AppearanceSettings } from './AppearanceSettings.js';
import { AppUserSettings } from './AppUserSettings.js';
import { ClosingSettings } from './ClosingSettings.js';
import { DataFolderSettings } from './DataFolderSettings.js';
import { LanguageSettings } from './LanguageSettings.js';
import { LocalApiSettings } from './LocalApiSettings.js';
import { NotificationSettings } from './NotificationSettings.js';
import { PayrollPeople } from './PayrollPeople.js';
import { PayrollSettings } from './PayrollSettings.js';
import { SurchargeRulesSettings } from './SurchargeRulesSettings.js';
import { WorkshopSettings } from './WorkshopSettings.js';
import './settings.css';

export function SettingsView() {
  const t = useT();
  return (
    <section className="view settings-view" aria-labelledby="settings-title">
      <div className="view__header">
        <h1 id="settings-title" className="view__title">
          {t('nav.settings')}
        </h1>
      </div>
      <AppUserSettings />
      <NotificationSettings />
      <AppearanceSettings />
      <LanguageSettings />
      <DataFolderSettings />
      <ClosingSettings />
      <LocalApiSettings />
      <WorkshopSettings />
      <SurchargeRulesSettings />
      <PayrollSettings />
      <PayrollPeople />
      <Notices />
    </section>
  );
}
