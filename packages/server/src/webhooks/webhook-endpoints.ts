/**
 * Webhook endpoints as the admin CLI reaches them: `webhook_endpoints`, `webhook_deliveries` and
 * `webhook_events` are owned by webhooks/.
 */
export { listWorkspaceWebhookEndpoints, presentWebhookEndpoint } from "./webhook-endpoint-repository.js";
