/**
 * Operators' console sessions as the console reaches them: `operator_sessions` is owned by
 * tenants/, whose repository alone holds its SQL.
 */
export {
  deleteOperatorSession,
  deleteOperatorSessions,
  findActiveOperatorSession,
  insertOperatorSession,
  liveOperatorSessionRole,
  SESSION_TOUCH_INTERVAL_MS,
  touchOperatorSession,
} from "./operator-session-repository.js";
