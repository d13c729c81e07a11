import { consoleOperatorSchema, setPasswordBodySchema, signInBodySchema, type ConsoleOperator } from "@frontdesk/contracts";
import { componentSchemas } from "../openapi/component-schemas.js";
import type { SignedInOperator } from "./authenticate-operator.js";

componentSchemas.add(consoleOperatorSchema, { id: "ConsoleOperator", description: "An operator of the workspace: who is signed in." });
componentSchemas.add(signInBodySchema, { id: "SignInRequest" });
componentSchemas.add(setPasswordBodySchema, { id: "SetPasswordRequest" });

export const presentSignedInOperator = (operator: SignedInOperator): ConsoleOperator => ({
  id: operator.id,
  workspace_id: operator.workspaceId,
  name: operator.name,
  email: operator.email,
  role: operator.role,
});
