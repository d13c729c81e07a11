import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../http/app-error.js";
import { kindOfChannel } from "../channels/channel-name.js";
import type { RealtimeServer } from "../realtime-server.js";
import { describeChannel, requestedInfo } from "./channel-info.js";
import { verifyRequestSignature } from "./request-signature.js";
import {
  appParamsSchema,
  batchBodySchema,
  batchResponseSchema,
  channelParamsSchema,
  channelQuerySchema,
  channelResponseSchema,
  channelsQuerySchema,
  channelsResponseSchema,
  emptyResponseSchema,
  signedQuerySchema,
  triggerBodySchema,
  usersResponseSchema,
} from "./schemas.js";

/**
 * The Pusher HTTP API of the embedded server: publish events, and ask which channels are occupied
 * and who is present. Every request is signed with the app's key and secret (request-signature.ts).
 */
export const pusherApiRoutes: FastifyPluginAsyncZod<{ server: RealtimeServer; now: () => Date }> = async (app, options) => {
  const realtime = options.server;
  const { limits } = realtime.config;
  const rawBodies = new WeakMap<FastifyRequest, string>();

  // body_md5 signs the body as sent, so this scope keeps the text it parses, and reads JSON only:
  // a body in any other type (that no body_md5 would be checked against) is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    rawBodies.set(request, text);
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError("invalid_json", "The request body is not valid JSON."));
    }
  });

  app.addHook("preValidation", async (request) => {
    const { appId } = request.params as { appId?: string };
    if (appId !== realtime.credentials.appId) throw new AppError("not_found", "No app has this id.");
    const path = (request.raw.url ?? request.url).split("?")[0] ?? "";
    verifyRequestSignature(
      { method: request.method, path, query: request.query as Record<string, unknown>, rawBody: rawBodies.get(request) ?? "" },
      realtime.credentials,
      options.now().getTime(),
    );
  });

  const payloadWithinLimit = (data: string) => {
    if (Buffer.byteLength(data, "utf8") > limits.eventPayloadBytes) {
      throw new AppError("payload_too_large", `An event's data is at most ${limits.eventPayloadBytes} bytes.`);
    }
  };

  app.post("/apps/:appId/events", {
    schema: { hide: true, params: appParamsSchema, querystring: signedQuerySchema, body: triggerBodySchema(limits), response: { 200: emptyResponseSchema } },
    handler: async (request) => {
      const body = request.body;
      payloadWithinLimit(body.data);
      const channels = body.channels ?? (body.channel === undefined ? [] : [body.channel]);
      await realtime.publish({ channels, event: body.name, data: body.data, exceptSocketId: body.socket_id });
      if (body.info === undefined) return {};
      const info = body.info;
      const described = await Promise.all(channels.map(async (channel) => [channel, await describeChannel(realtime, channel, info)] as const));
      return { channels: Object.fromEntries(described) };
    },
  });

  app.post("/apps/:appId/batch_events", {
    schema: { hide: true, params: appParamsSchema, querystring: signedQuerySchema, body: batchBodySchema(limits), response: { 200: batchResponseSchema } },
    handler: async (request) => {
      const { batch } = request.body;
      for (const event of batch) payloadWithinLimit(event.data);
      for (const event of batch) await realtime.publish({ channels: [event.channel], event: event.name, data: event.data, exceptSocketId: event.socket_id });
      if (batch.every((event) => event.info === undefined)) return {};
      return { batch: await Promise.all(batch.map((event) => (event.info === undefined ? {} : describeChannel(realtime, event.channel, event.info)))) };
    },
  });

  app.get("/apps/:appId/channels", {
    schema: { hide: true, params: appParamsSchema, querystring: channelsQuerySchema, response: { 200: channelsResponseSchema } },
    handler: async (request) => {
      const wanted = requestedInfo(request.query.info);
      const counts = await realtime.subscriptionCounts(request.query.filter_by_prefix ?? "");
      const presenceChannels = wanted.userCount ? [...counts.keys()].filter((channel) => kindOfChannel(channel) === "presence") : [];
      // Users are counted (one command for every presence channel listed), never listed.
      const users = presenceChannels.length > 0 ? await realtime.userCounts(presenceChannels) : new Map<string, number>();
      const channels: Record<string, { user_count?: number; subscription_count?: number }> = {};
      for (const [channel, subscriptionCount] of counts) {
        const userCount = users.get(channel);
        channels[channel] = {
          ...(userCount === undefined ? {} : { user_count: userCount }),
          ...(wanted.subscriptionCount ? { subscription_count: subscriptionCount } : {}),
        };
      }
      return { channels };
    },
  });

  app.get("/apps/:appId/channels/:channelName", {
    schema: { hide: true, params: channelParamsSchema, querystring: channelQuerySchema, response: { 200: channelResponseSchema } },
    handler: async (request) => describeChannel(realtime, request.params.channelName, request.query.info),
  });

  app.get("/apps/:appId/channels/:channelName/users", {
    schema: { hide: true, params: channelParamsSchema, querystring: signedQuerySchema, response: { 200: usersResponseSchema } },
    handler: async (request) => {
      const channel = request.params.channelName;
      if (kindOfChannel(channel) !== "presence") throw new AppError("bad_request", "Only presence channels have users.");
      return { users: (await realtime.presenceMembers(channel)).map((member) => ({ id: member.userId })) };
    },
  });
};
