import { EmailAlertsSection } from "../mail/email-alerts-section.js";
import { MailSection } from "../mail/mail-section.js";
import { AiModelSection } from "./ai-model-section.js";
import { ApiTokensSection } from "./api-tokens-section.js";
import { DeviceNotificationsSection } from "./device-notifications-section.js";
import { EmbeddingsSection } from "./embeddings-section.js";
import { OperatorsSection } from "./operators-section.js";
import { TwoFactorSection } from "./two-factor-section.js";
import { SingleSignOnSection } from "./single-sign-on-section.js";
import { UsageSection } from "./usage-section.js";
import { useSettingsLive } from "./use-settings-live.js";
import { WebhooksSection } from "./webhooks-section.js";
import { LabelsSection } from "../labels/labels-section.js";
import "./settings.css";

/**
 * Settings: notifications on this device, e-mail alerts, the API tokens page, the operators, the
 * AI model, the webhooks, the embeddings provider, the workspace's e-mail (admins) and its quota and usage. Each section asks the server,
 * which says who may.
 */
export function SettingsScreen() {
  useSettingsLive();
  return (
    <div className="settings">
      <header className="settings-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-body">
        <DeviceNotificationsSection />
        <EmailAlertsSection />
        <ApiTokensSection />
        <OperatorsSection />
        <LabelsSection />
        <TwoFactorSection />
        <SingleSignOnSection />
        <AiModelSection />
        <WebhooksSection />
        <EmbeddingsSection />
        <MailSection />
        <UsageSection />
      </div>
    </div>
  );
}
