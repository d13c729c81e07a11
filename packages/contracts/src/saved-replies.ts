import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { consoleIdSchema } from "./console-inbox.js";
import { MAX_MESSAGE_LENGTH } from "./messages.js";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "./storable-text.js";

/**
 * Saved replies (/api/v1/console/saved-replies): texts an operator inserts in a reply by typing
 * `/` and a shortcut. A workspace's (`scope: "workspace"`, managed by its admins, seen by every
 * operator) or one operator's own (`scope: "personal"`, seen and managed by them alone). Their text
 * may hold variables, `{{visitor.name}}`, `{{agent.name}}` and `{{operator.name}}`, each with an
 * optional fallback for a value the conversation lacks: `{{visitor.name|there}}`.
 */

export const savedReplyScopes = ["workspace", "personal"] as const;
export type SavedReplyScope = (typeof savedReplyScopes)[number];
/** The variables a saved reply's text may name, filled from the conversation when it is used. */
export const savedReplyVariables = ["visitor.name", "agent.name", "operator.name"] as const;
export type SavedReplyVariable = (typeof savedReplyVariables)[number];
/** At most this many saved replies of each kind: a workspace's, and each operator's own. */
export const SAVED_REPLIES_PER_SCOPE_MAX = 500;

/** `{{ name }}` or `{{ name | fallback }}`: the name, and the fallback when one is given. */
const PLACEHOLDER = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/gu;

/** What is wrong with a saved reply's text: its unknown variables, or a `{{` that opens no variable; empty when it is right. */
export function savedReplyTextProblems(text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? "";
    if (!(savedReplyVariables as readonly string[]).includes(name)) {
      problems.push(`unknown variable {{${name}}}: use ${savedReplyVariables.map((variable) => `{{${variable}}}`).join(", ")}`);
    }
  }
  if (text.replace(PLACEHOLDER, "").includes("{{")) problems.push("has a {{ that opens no variable (write {{visitor.name}}, {{agent.name}} or {{operator.name}})");
  return problems;
}

/** A saved reply's text with its variables filled: a missing value (null or blank) is the variable's fallback, or nothing. */
export function fillSavedReply(text: string, values: Readonly<Record<SavedReplyVariable, string | null>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string, fallback: string | undefined) => {
    if (!(savedReplyVariables as readonly string[]).includes(name)) return whole;
    const value = values[name as SavedReplyVariable]?.trim();
    return value ? value : (fallback ?? "").trim();
  });
}

const storable = (schema: z.ZodString) => schema.refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

export const savedReplyTitleSchema = storable(z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters")).describe(
  "What the reply is about, shown in the list and the picker.",
);
export const savedReplyShortcutSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/u, "must be 1–32 letters, digits, - or _, starting with a letter or digit")
  .describe("What follows `/` in the reply box (`/refund`): lowercased; unique among the workspace's replies and among each operator's own.");
export const savedReplyContentSchema = storable(z.string().max(MAX_MESSAGE_LENGTH, `must be at most ${MAX_MESSAGE_LENGTH} characters`))
  .refine((value) => value.trim().length > 0, "must not be blank")
  .superRefine((value, context) => {
    for (const problem of savedReplyTextProblems(value)) context.addIssue({ code: "custom", message: problem });
  })
  .describe("The reply's text. Variables: `{{visitor.name}}` (the lead's name), `{{agent.name}}`, `{{operator.name}}` (who sends it), each with an optional fallback: `{{visitor.name|there}}`.");

export const savedReplySchema = z.object({
  id: z.string(),
  scope: z.enum(savedReplyScopes),
  /** The operator a personal reply belongs to; null for the workspace's. */
  owner_id: z.string().nullable(),
  title: z.string(),
  shortcut: z.string(),
  content: z.string(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
});
export type SavedReply = z.infer<typeof savedReplySchema>;

export const savedReplyListResponseSchema = z.object({ data: z.array(savedReplySchema) });
export const savedReplyResponseSchema = z.object({ data: savedReplySchema });

export const createSavedReplyBodySchema = z.object({
  scope: z.enum(savedReplyScopes).default("personal").describe("`personal` (the default): yours alone; `workspace`: every operator's, admins only."),
  title: savedReplyTitleSchema,
  shortcut: savedReplyShortcutSchema,
  content: savedReplyContentSchema,
});
export type CreateSavedReplyBody = z.infer<typeof createSavedReplyBodySchema>;

export const updateSavedReplyBodySchema = z
  .object({ title: savedReplyTitleSchema.optional(), shortcut: savedReplyShortcutSchema.optional(), content: savedReplyContentSchema.optional() })
  .refine((body) => body.title !== undefined || body.shortcut !== undefined || body.content !== undefined, "give title, shortcut or content");
export type UpdateSavedReplyBody = z.infer<typeof updateSavedReplyBodySchema>;

export const savedReplyParamsSchema = z.object({ id: consoleIdSchema });

export const renderSavedReplyBodySchema = z.object({
  conversation_id: consoleIdSchema.describe("The conversation whose visitor and agent fill the variables."),
});
export const renderedSavedReplySchema = z.object({
  id: z.string(),
  content: z.string().describe("The text with its variables filled, ready to send or edit."),
});
export const renderedSavedReplyResponseSchema = z.object({ data: renderedSavedReplySchema });
