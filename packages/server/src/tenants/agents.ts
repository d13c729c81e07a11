/**
 * Agents as other domains reach them: `agents` is owned by tenants/, whose repository alone holds
 * its SQL.
 */
export {
  claimOwnVectorIndex,
  findAgent,
  findAgentWithQuota,
  findVectorIndexOf,
  findWorkspaceAgent,
  listAgentsWithOwnVectorIndex,
  listWorkspaceAgents,
  promoteAgentToVectorIndex,
  setAgentPublished,
} from "./agent-repository.js";
export { officeHoursStatus, type OfficeHoursStatus } from "./office-hours.js";
export { findWorkspaceOperatorsAmong, lockRoundRobinTurn, moveRoundRobinTurn, type RoundRobinTurn } from "./agent-routing-repository.js";
