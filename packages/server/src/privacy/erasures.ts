/**
 * The erasure audit, as the admin CLI reaches it: `erasures` is owned by privacy/ (a workspace's
 * retention setting is a column of `workspaces`: tenants/workspaces.ts).
 */
export { listErasures } from "./erasure-repository.js";
