/**
 * The erasure audit and a workspace's retention, as the admin CLI reaches them: `erasures` is
 * owned by privacy/.
 */
export { listErasures, setWorkspaceRetention } from "./erasure-repository.js";
