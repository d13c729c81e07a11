import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { operatorRoleSchema } from "./console-session.js";

/**
 * The workspace channel's events (`private-workspace.{id}`) that keep the console's Leads and
 * Settings screens live. Each carries ids and non-secret fields only: never a token's plaintext
 * or hash, no password data, no lead's contact details (the screen reads them through its route).
 */

/** `lead.captured` (a new lead) and `lead.updated` (a repeat e-mail updated it). */
export const leadEventSchema = z.object({
  lead_id: z.string(),
  agent_id: z.string(),
  conversation_id: z.string().nullable(),
  at: isoTimestampSchema,
});
export type LeadEvent = z.infer<typeof leadEventSchema>;

/** `token.created` and `token.revoked`: an API token of the workspace, by id. */
export const apiTokenEventSchema = z.object({
  token_id: z.string(),
  at: isoTimestampSchema,
});
export type ApiTokenEvent = z.infer<typeof apiTokenEventSchema>;

/** `operator.invited`, `operator.updated` (role, password set) and `operator.removed`. */
export const operatorEventSchema = z.object({
  operator_id: z.string(),
  role: operatorRoleSchema,
  at: isoTimestampSchema,
});
export type OperatorEvent = z.infer<typeof operatorEventSchema>;

export const leadEventNames = ["lead.captured", "lead.updated"] as const;
export const apiTokenEventNames = ["token.created", "token.revoked"] as const;
export const operatorEventNames = ["operator.invited", "operator.updated", "operator.removed"] as const;
