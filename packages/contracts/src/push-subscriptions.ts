import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * Web Push on operators' devices: what the console sends when a browser subscribes (the fields of
 * the browser's `PushSubscription.toJSON()`), what it shows of a device, and the alert a device
 * receives (docs/api.md: "Push alerts").
 */


export const pushSubscriptionBodySchema = z.object({
  endpoint: z.string().min(1).max(2048).describe("The push service's URL for this browser (`PushSubscription.endpoint`): https."),
  keys: z.object({
    // 65 bytes, the first 0x04 (an uncompressed point): 87 base64url characters starting with B, padded or not.
    p256dh: z.string().regex(/^B[A-Za-z0-9_-]{86}=?$/, "must be an uncompressed P-256 public key, 65 bytes in base64url").describe("The browser's public key (`getKey('p256dh')`), base64url."),
    auth: z.string().regex(/^[A-Za-z0-9_-]{21}[AQgw](==)?$/, "must be 16 bytes in base64url").describe("The browser's authentication secret (`getKey('auth')`), base64url: kept sealed, never shown again."),
  }),
  device_label: z.string().trim().max(100).default("").describe("A name for this device in the list (the console sends the browser and system)."),
});
export type PushSubscriptionBody = z.input<typeof pushSubscriptionBodySchema>;

export const pushDeviceSchema = z.object({
  id: z.string().describe("The subscription's id (`psh_…`)."),
  device_label: z.string(),
  endpoint_origin: z.string().describe("The push service's origin (the whole endpoint is a capability and is not shown)."),
  created_at: isoTimestampSchema,
  last_success_at: isoTimestampSchema.nullable().describe("When a push service last accepted an alert for it."),
  last_failure_at: isoTimestampSchema.nullable(),
  last_failure: z.string().nullable().describe("Why the last send failed (a status or a network error), while it keeps failing."),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;

/** The JSON a device's service worker receives, decrypted: untrusted text is text (shown as a notification, never as markup). */
export const pushAlertSchema = z.object({
  kind: z.enum(["human_requested", "note_mentioned"]).describe("`human_requested`: a visitor waits for a person; `note_mentioned`: a colleague mentioned the operator in a note."),
  title: z.string(),
  body: z.string(),
  url: z.string().describe("The conversation in the console."),
  conversation_id: z.string(),
  tag: z.string().describe("One notification per conversation (per note for a mention): a newer alert replaces an older one."),
});
export type PushAlert = z.infer<typeof pushAlertSchema>;
