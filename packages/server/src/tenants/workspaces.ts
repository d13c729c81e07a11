/**
 * Workspaces as other domains reach them: `workspaces` is owned by tenants/.
 */
export { findFirstWorkspace, findWorkspace, insertWorkspace, listRetentionWorkspaces, listWorkspaces, renameWorkspace, setWorkspaceRetention } from "./workspace-repository.js";
export type { Workspace } from "./workspace-repository.js";
