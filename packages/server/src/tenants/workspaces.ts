/**
 * Workspaces as other domains reach them: `workspaces` is owned by tenants/.
 */
export { findWorkspace, insertWorkspace, listRetentionWorkspaces, listWorkspaces, setWorkspaceRetention } from "./workspace-repository.js";
export type { Workspace } from "./workspace-repository.js";
