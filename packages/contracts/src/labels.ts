import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * Labels (/api/v1/console/labels): a workspace's names and colours that operators put on
 * conversations to group them; the inbox filters by one, analytics counts conversations per label.
 */

/** A workspace holds at most this many labels (the console lists them all, the inbox filters by one). */
export const LABELS_PER_WORKSPACE_MAX = 100;
export const LABEL_NAME_MAX = 40;

const labelIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an id");

/** A colour as `#rrggbb` (any case; stored lower case). */
export const labelColourSchema = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, "must be a colour written #rrggbb")
  .transform((value) => value.toLowerCase())
  .describe("The chip's colour, `#rrggbb`; always shown beside the name, never instead of it.");

export const labelNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LABEL_NAME_MAX, `must be at most ${LABEL_NAME_MAX} characters`)
  .refine((value) => !/[\u0000-\u001f\u007f]/u.test(value), "must not contain control characters")
  .describe(`The label's name, 1–${LABEL_NAME_MAX} characters, unique in the workspace whatever the case.`);

/** A label as a conversation carries it. */
export const conversationLabelSchema = z.object({ id: z.string(), name: z.string(), colour: z.string() });
export type ConversationLabel = z.infer<typeof conversationLabelSchema>;

export const labelSchema = conversationLabelSchema.extend({
  conversations: z.number().int().describe("The workspace's conversations carrying it now."),
  created_at: isoTimestampSchema,
});
export type Label = z.infer<typeof labelSchema>;

export const createLabelBodySchema = z.object({ name: labelNameSchema, colour: labelColourSchema });
export type CreateLabelBody = z.infer<typeof createLabelBodySchema>;

export const updateLabelBodySchema = z
  .object({ name: labelNameSchema.optional(), colour: labelColourSchema.optional() })
  .refine((body) => body.name !== undefined || body.colour !== undefined, "give `name`, `colour` or both");
export type UpdateLabelBody = z.infer<typeof updateLabelBodySchema>;

export const labelParamsSchema = z.object({ id: labelIdSchema });
export const conversationLabelParamsSchema = z.object({ id: labelIdSchema, label_id: labelIdSchema });

export const labelResponseSchema = z.object({ data: labelSchema });
export const labelListResponseSchema = z.object({ data: z.array(labelSchema) });
export const conversationLabelsResponseSchema = z.object({
  data: z.object({ conversation_id: z.string(), labels: z.array(conversationLabelSchema) }),
});
