import { z } from "zod";
import { operatorRoleSchema } from "./console-session.js";

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "an e-mail domain such as example.com");

/** A workspace's OpenID provider, as an admin sets it (PUT /workspace/sso). */
export const ssoSettingsBodySchema = z.object({
  display_name: z.string().trim().min(1).max(60).describe("What the sign-in button says: \"Sign in with <display_name>\" (Okta, Google Workspace …)."),
  issuer: z.string().trim().url().max(2000).describe("The provider's issuer URL; its `/.well-known/openid-configuration` is read through the outbound address guard."),
  client_id: z.string().trim().min(1).max(500),
  client_secret: z
    .string()
    .min(1)
    .max(2000)
    .nullable()
    .optional()
    .describe("Absent: keep the stored one. Null: none (a public client, PKCE only). Stored sealed, never returned."),
  allowed_domains: z.array(domain).min(1).max(50).describe("E-mail domains whose people the provider signs in; an operator of one is created at their first sign-in."),
  default_role: operatorRoleSchema.default("agent").describe("The role of an operator created at their first sign-in."),
  password_sign_in: z.boolean().default(true).describe("False: the workspace's operators sign in only through the provider."),
});

export const ssoSettingsSchema = z.object({
  display_name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  allowed_domains: z.array(z.string()),
  default_role: operatorRoleSchema,
  password_sign_in: z.boolean(),
  redirect_uri: z.string().describe("The redirect URI to register with the provider: `<public URL>/api/v1/console/sso/callback`."),
  post_logout_redirect_uri: z.string().describe("The post-logout redirect URI to register: `<public URL>/console/`."),
  updated_at: z.string(),
});
export const ssoSettingsResponseSchema = z.object({ data: ssoSettingsSchema.nullable() });

export const ssoDiscoveryQuerySchema = z.object({ email: z.string().trim().min(3).max(320) });
export const ssoDiscoveryResponseSchema = z.object({
  data: z.object({ provider: z.string().nullable().describe("The button's name when the e-mail's domain signs in with a provider; null otherwise.") }),
});
export const ssoStartBodySchema = z.object({ email: z.string().trim().min(3).max(320) });
export const ssoStartResponseSchema = z.object({ data: z.object({ authorization_url: z.string().describe("Where to send the browser (top-level navigation).") }) });
export const ssoCallbackQuerySchema = z
  .object({
    code: z.string().max(4000).optional(),
    state: z.string().max(4000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    iss: z.string().max(2000).optional(),
  })
  .passthrough();
export const ssoSignOutResponseSchema = z.object({
  data: z.object({ end_session_url: z.string().nullable().describe("The provider's sign-out page to send the browser to (RP-initiated logout); null when the session was not the provider's.") }),
});

export type SsoSettingsBody = z.infer<typeof ssoSettingsBodySchema>;
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;
