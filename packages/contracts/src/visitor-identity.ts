import { z } from "zod";

/**
 * Verified visitor identity (issue 34): the site's back end vouches for its signed-in user with
 * `user_hash` = lowercase hex HMAC-SHA256(the agent's identity secret, `user_id`), and init checks it.
 */

/** The longest `user_id` init accepts, in characters. */
export const MAX_USER_ID_LENGTH = 256;

/** No control characters (C0, DEL, C1): an id is shown to operators and written to logs and exports. */
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}]*$/u;

/** The site's own id of its signed-in user: 1–256 characters, no control characters, taken exactly (no trimming: the hash is of these bytes). */
export const userIdSchema = z
  .string()
  .min(1)
  .max(MAX_USER_ID_LENGTH)
  .regex(NO_CONTROL_CHARACTERS, "must not hold control characters");

/** Per agent: `off` (init ignores identities), `optional` (anonymous visitors allowed; a claimed id must verify), `required` (init needs a verified id). */
export const identityModes = ["off", "optional", "required"] as const;
export type IdentityMode = (typeof identityModes)[number];
export const identityModeSchema = z.enum(identityModes);

/** What init takes of a signed-in user (all optional; see docs/widget.md). */
export const initIdentityFields = {
  user_id: userIdSchema.optional().describe("The site's id of its signed-in user (1–256 characters, no control characters)."),
  user_hash: z
    .string()
    .max(1024)
    .optional()
    .describe("Lowercase hex HMAC-SHA256 of `user_id` under the agent's identity secret, computed by the site's back end. A bearer credential for that id."),
  email: z.string().trim().max(320).pipe(z.email({ message: "must be a valid e-mail address" })).optional().describe("The user's e-mail, sent with a verified `user_id` (ignored otherwise)."),
  name: z.string().trim().min(1).max(200).regex(NO_CONTROL_CHARACTERS, "must not hold control characters").optional().describe("The user's name, sent with a verified `user_id`."),
};

/** A visitor the site vouched for, as the console shows it: the verified id and what came with it. */
export const visitorIdentitySchema = z.object({
  user_id: z.string().describe("The site's id of the user, verified by its `user_hash`."),
  email: z.string().nullable().describe("The e-mail sent with the verified id at the latest init (null: none)."),
  name: z.string().nullable().describe("The name sent with the verified id at the latest init (null: none)."),
  verified_at: z.string().describe("When the id was last verified (its latest init)."),
});
export type VisitorIdentity = z.infer<typeof visitorIdentitySchema>;

/** An agent's identity settings as the console reads them: the mode and whether a secret exists (never the secret). */
export const agentIdentitySchema = z.object({
  mode: identityModeSchema,
  secret_created_at: z.string().nullable().describe("When the current identity secret was created; null: none yet."),
});

/** POST /api/v1/console/agents/{id}/identity-secret: the new secret, shown once. */
export const identitySecretResponseSchema = z.object({
  data: z.object({
    secret: z.string().describe("The new identity secret. Shown once: it is stored sealed and never returned again. Every hash made with the previous one stops verifying."),
    created_at: z.string(),
  }),
});
