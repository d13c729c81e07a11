import { z } from "zod";
import type { RealtimeLimits } from "../../config/realtime.js";
import { channelNameProblem } from "../channels/channel-name.js";

/** The query of a signed request: the auth parameters, plus what the route reads. */
const signedQuery = {
  auth_key: z.string(),
  auth_timestamp: z.string(),
  auth_version: z.string(),
  auth_signature: z.string(),
  body_md5: z.string().optional(),
};

export const appParamsSchema = z.object({ appId: z.string() });
export const channelParamsSchema = z.object({ appId: z.string(), channelName: z.string() });

function channelName(limits: RealtimeLimits) {
  return z.string().superRefine((name, context) => {
    const problem = channelNameProblem(name, limits.channelNameLength);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });
}

/** `data` is a string as Pusher's libraries send it; an object is accepted and serialized. */
const eventData = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).transform((data) => (typeof data === "string" ? data : JSON.stringify(data)));

function eventFields() {
  return {
    name: z.string().min(1).max(200),
    data: eventData,
    socket_id: z.string().regex(/^\d+\.\d+$/, "must be a socket id (digits.digits)").optional(),
    info: z.string().optional(),
  };
}

export function triggerBodySchema(limits: RealtimeLimits) {
  return z
    .object({
      ...eventFields(),
      channels: z.array(channelName(limits)).min(1).max(limits.channelsPerEvent, `at most ${limits.channelsPerEvent} channels per event`).optional(),
      channel: channelName(limits).optional(),
    })
    .refine((body) => (body.channels === undefined) !== (body.channel === undefined), { message: "give either channels or channel", path: ["channels"] });
}

export function batchBodySchema(limits: RealtimeLimits) {
  return z.object({
    batch: z.array(z.object({ ...eventFields(), channel: channelName(limits) })).min(1).max(limits.eventsPerBatch, `at most ${limits.eventsPerBatch} events per batch`),
  });
}

export const signedQuerySchema = z.object(signedQuery).passthrough();
export const channelsQuerySchema = z.object({ ...signedQuery, filter_by_prefix: z.string().optional(), info: z.string().optional() });
export const channelQuerySchema = z.object({ ...signedQuery, info: z.string().optional() });

export const emptyResponseSchema = z.object({}).passthrough();
export const batchResponseSchema = z.object({ batch: z.array(z.object({}).passthrough()) }).partial();
export const channelsResponseSchema = z.object({
  channels: z.record(z.string(), z.object({ user_count: z.number().int().optional(), subscription_count: z.number().int().optional() })),
});
export const channelResponseSchema = z.object({
  occupied: z.boolean(),
  subscription_count: z.number().int().optional(),
  user_count: z.number().int().optional(),
});
export const usersResponseSchema = z.object({ users: z.array(z.object({ id: z.string() })) });
