import { z } from "zod";
import { consoleOperatorSchema } from "./console-session.js";

/** What a sign-in whose password was right still needs: a code of the operator's authenticator, or enrolling one (the workspace requires it). */
export const pendingSignInStepSchema = z
  .enum(["totp", "enrol_totp"])
  .describe("`totp`: type the authenticator's code (or a recovery code); `enrol_totp`: the workspace requires two-factor sign-in, set up an authenticator now.");

/** POST /session's answer when a second step is due (202): a pending cookie, not a session. */
export const pendingSignInResponseSchema = z.object({
  data: z.object({
    second_step: pendingSignInStepSchema,
    expires_at: z.string().describe("When the pending sign-in ends (5 minutes after the password): sign in again after it."),
  }),
});

const totpCode = z.string().trim().regex(/^\d{6}$/, "six digits").describe("The six digits the authenticator app shows now.");
const recoveryCode = z.string().trim().min(1).max(64).describe("One of the recovery codes shown at enrolment (`XXXX-XXXX-XXXX`); each works once.");

/** A second factor: exactly one of `code` and `recovery_code`. */
export const secondFactorBodySchema = z
  .object({ code: totpCode.optional(), recovery_code: recoveryCode.optional() })
  .refine((body) => (body.code === undefined) !== (body.recovery_code === undefined), { message: "give either code or recovery_code", path: ["code"] });

export const totpCodeBodySchema = z.object({ code: totpCode });

/** A new authenticator secret, shown once: as text, as otpauth:// URI and as a QR code. */
export const totpEnrolmentResponseSchema = z.object({
  data: z.object({
    secret: z.string().describe("The secret in base32, to type into an authenticator app that cannot scan."),
    otpauth_uri: z.string().describe("`otpauth://totp/Frontdesk:<e-mail>?secret=…&issuer=Frontdesk` (SHA-1, 6 digits, 30 seconds)."),
    qr_code: z.string().describe("The URI as a QR code: an SVG `data:` URL, for an `<img>`."),
  }),
});

export const recoveryCodesSchema = z
  .array(z.string())
  .describe("Ten recovery codes, shown this once (only their hashes are kept): each signs in once in place of a code.");

export const recoveryCodesResponseSchema = z.object({ data: z.object({ recovery_codes: recoveryCodesSchema }) });

/** Sign-in's enrolment step confirmed: the operator is signed in, and sees the recovery codes once. */
export const enrolledSignInResponseSchema = z.object({ data: consoleOperatorSchema, recovery_codes: recoveryCodesSchema });

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean().describe("Whether sign-in asks for an authenticator's code."),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int().describe("Recovery codes not used yet."),
  required_by_workspace: z.boolean().describe("The workspace requires two-factor sign-in: it cannot be turned off."),
});
export const twoFactorStatusResponseSchema = z.object({ data: twoFactorStatusSchema });

export const workspaceSignInSettingsSchema = z.object({
  require_two_factor: z.boolean().describe("Every operator signs in with an authenticator's code; those without one set it up at their next sign-in."),
});
export const workspaceSignInSettingsResponseSchema = z.object({ data: workspaceSignInSettingsSchema });
export const updateWorkspaceSignInSettingsBodySchema = workspaceSignInSettingsSchema.partial();

export type PendingSignInStep = z.infer<typeof pendingSignInStepSchema>;
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
export type WorkspaceSignInSettings = z.infer<typeof workspaceSignInSettingsSchema>;
