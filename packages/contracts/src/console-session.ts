import { z } from "zod";

/** Passwords: at least 10 characters (and not one of the 1,000 most common, checked by the server). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1024;

export const operatorRoleSchema = z
  .enum(["admin", "agent"])
  .describe("`admin` manages agents, sources, API tokens and operators; `agent` handles conversations.");

/** The signed-in operator, as GET /api/v1/console/me and sign-in return it. */
export const consoleOperatorSchema = z.object({
  id: z.string().describe("The operator's id (`op_…`)."),
  workspace_id: z.string(),
  name: z.string(),
  email: z.string(),
  role: operatorRoleSchema,
});

export const meResponseSchema = z.object({ data: consoleOperatorSchema });

export const signInBodySchema = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

export const setPasswordBodySchema = z.object({
  token: z.string().min(1).max(200).describe("The token of the set-password link (after `#token=`)."),
  password: z.string().max(PASSWORD_MAX_LENGTH).describe(`At least ${PASSWORD_MIN_LENGTH} characters, and not one of the 1,000 most common passwords.`),
});

export type ConsoleOperator = z.infer<typeof consoleOperatorSchema>;
export type SignInBody = z.infer<typeof signInBodySchema>;
export type SetPasswordBody = z.infer<typeof setPasswordBodySchema>;
