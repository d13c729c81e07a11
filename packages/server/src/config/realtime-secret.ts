import { resolveKeptSecret } from "./jwt-secret.js";

const SECRET_FILE = "realtime-app-secret";

/**
 * FRONTDESK_REALTIME_APP_SECRET, or the secret generated on first start and kept in the data dir
 * (mode 0600), so subscriptions signed before a restart stay valid and every process on one data
 * dir signs alike.
 */
export function resolveRealtimeSecret(configured: string | undefined, dataDir: string): Promise<string> {
  return resolveKeptSecret(configured, dataDir, SECRET_FILE);
}
