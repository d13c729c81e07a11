import { ApiTokensSection } from "./api-tokens-section.js";
import { DeviceNotificationsSection } from "./device-notifications-section.js";
import { OperatorsSection } from "./operators-section.js";
import { UsageSection } from "./usage-section.js";
import { useSettingsLive } from "./use-settings-live.js";
import { WebhooksSection } from "./webhooks-section.js";
import "./settings.css";

/** Settings: notifications on this device, the API tokens page, the operators, the webhooks, the workspace's quota and usage. Each section asks the server, which says who may. */
export function SettingsScreen() {
  useSettingsLive();
  return (
    <div className="settings">
      <header className="settings-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-body">
        <DeviceNotificationsSection />
        <ApiTokensSection />
        <OperatorsSection />
        <WebhooksSection />
        <UsageSection />
      </div>
    </div>
  );
}
