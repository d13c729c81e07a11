/**
 * Workspaces' OpenID providers for their operators' sign-in as the console reaches them:
 * `workspace_sso` is owned by tenants/, whose repository alone holds its SQL.
 */
export {
  deleteWorkspaceSso,
  domainsTakenElsewhere,
  findSsoOfDomain,
  findWorkspaceSso,
  passwordSignInAllowed,
  upsertWorkspaceSso,
} from "./workspace-sso-repository.js";
export type { SsoSettings, WorkspaceSso } from "./workspace-sso-repository.js";
