import { z } from "zod";
import { consoleOperatorSchema, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./console-session.js";

/**
 * The first run: a deployment without any operator prints a one-time setup link
 * (`{public url}/console/setup#token=…`: in the fragment, which the browser never sends, so no
 * request line or log holds it); its page reads the token there, checks it (POST
 * /api/v1/console/setup/status) and creates the workspace and its first admin with it (POST
 * /api/v1/console/setup), the token in each request's body.
 */

export const setupTokenSchema = z.string().min(1).max(200).describe("The token of the setup link (after `#token=`).");

export const setupStatusBodySchema = z.object({ token: setupTokenSchema });

export const setupStatusSchema = z.object({
  valid: z.boolean().describe("Whether the token can still create the first admin."),
  reason: z
    .enum(["setup_done", "token_invalid"])
    .nullable()
    .describe("Why not: `setup_done` (an operator exists: sign in instead) or `token_invalid` (unknown, used or expired); null when valid."),
  expires_at: z.string().nullable().describe("When the token stops working; null unless valid."),
});
export const setupStatusResponseSchema = z.object({ data: setupStatusSchema });

export const setupBodySchema = z.object({
  token: setupTokenSchema,
  workspace_name: z.string().trim().min(1).max(200).optional().describe("The workspace's name (default: the existing workspace's, else `My workspace`)."),
  name: z.string().trim().min(1).max(200).describe("The admin's name, as visitors see it when they take over."),
  email: z.string().trim().max(320).pipe(z.email({ message: "must be a valid e-mail address" })),
  password: z.string().max(PASSWORD_MAX_LENGTH).describe(`At least ${PASSWORD_MIN_LENGTH} characters, and not one of the 1,000 most common passwords.`),
});

export const setupResponseSchema = z.object({
  data: z.object({
    operator: consoleOperatorSchema,
    workspace: z.object({ id: z.string(), name: z.string() }),
  }),
});

export type SetupBody = z.infer<typeof setupBodySchema>;
export type SetupStatus = z.infer<typeof setupStatusSchema>;
