/**
 * The first run's setup links as the console reaches them: `setup_tokens` is owned by tenants/,
 * whose repository alone holds its SQL.
 */
export { anyOperatorExists, consumeSetupToken, findUsableSetupToken, insertSetupToken, lockSetup, SETUP_TOKEN_LIFETIME_MS } from "./setup-token-repository.js";
