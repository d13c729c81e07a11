import { ssoSettingsBodySchema, ssoSettingsSchema } from "@frontdesk/contracts";
import { componentSchemas } from "../../openapi/component-schemas.js";

componentSchemas.add(ssoSettingsSchema, { id: "SsoSettings", description: "A workspace's OpenID provider for its operators' sign-in (the client secret never returned)." });
componentSchemas.add(ssoSettingsBodySchema, { id: "SsoSettingsRequest" });
