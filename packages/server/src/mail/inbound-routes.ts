import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../http/app-error.js";
import { registerJsonBodies } from "../http/json-body.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import { parseRawMail, UnreadableMailError, type InboundChannel, type InboundMail } from "./inbound-mail.js";
import { registerInboundMailMetrics } from "./inbound-mail-metrics.js";
import { mailgunRouteSchema, postmarkRouteSchema } from "./inbound-schemas.js";
import { isMailgunSigned, isPostmarkAuthorised, mailOfMailgunPost, mailOfPostmarkPost } from "./provider-posts.js";
import { receiveInboundMail, type InboundMailContext } from "./receive-inbound-mail.js";

export const INBOUND_MAIL_PREFIX = "/api/v1/inbound-mail";

/** A form post (url-encoded or multipart, read by undici's FormData parser) as its string fields; files are counted, never kept. */
async function formFields(body: Buffer, contentType: string): Promise<Record<string, string>> {
  const form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  const fields: Record<string, string> = {};
  let files = 0;
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") fields[name] = value;
    else files += 1;
  }
  if (files > 0 && fields["attachment-count"] === undefined) fields["attachment-count"] = String(files);
  return fields;
}

/**
 * Providers' inbound-mail webhooks, under /api/v1/inbound-mail: Mailgun (signed posts) and
 * Postmark (basic auth), each answering 404 until configured. The post is authenticated before it
 * is validated (preValidation), so a stranger learns nothing of the format. Its own scope reads
 * JSON (as every route does) and forms up to twice FRONTDESK_INBOUND_MAIL_MAX_BYTES (encodings make a mail bigger); a
 * refused post is logged with its reason. A mail dropped for a business reason is still 200, so
 * the provider does not post it again.
 */
export const inboundMailRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const settings = services.config.inboundMail;
  const bodyLimit = 2 * settings.maxBytes;
  const metrics = registerInboundMailMetrics(services.metrics);
  const contextOf = (request: FastifyRequest): InboundMailContext => ({ services, logger: request.log, metrics });

  // Counted per client IP before the body is read or the signature checked: forged posts cost little.
  app.addHook("onRequest", async (request, reply) => enforceRateLimit(services.limiter, reply, ["inboundMail", request.ip]));
  // JSON as everywhere (nesting depth, UTF-8, storable strings), up to this route's limit; forms too.
  app.removeAllContentTypeParsers();
  registerJsonBodies(app, bodyLimit);
  app.addContentTypeParser(["application/x-www-form-urlencoded", "multipart/form-data"], { parseAs: "buffer", bodyLimit }, async (request: FastifyRequest, body: Buffer) => {
    try {
      return await formFields(body, request.headers["content-type"] ?? "");
    } catch {
      throw new AppError("bad_request", "The form body could not be read.");
    }
  });
  app.addHook("onError", async (request, _reply, error) => {
    const code = (error as { code?: string }).code;
    if (code === "FST_ERR_CTP_BODY_TOO_LARGE" || (error instanceof AppError && error.code === "payload_too_large")) {
      const channel = request.url.endsWith("/postmark") ? "postmark" : "mailgun";
      metrics.inc({ channel, outcome: "too_large" });
      request.log.warn({ channel, outcome: "too_large", limit: settings.maxBytes }, "inbound mail refused: over FRONTDESK_INBOUND_MAIL_MAX_BYTES");
    }
  });

  const refuseUnauthenticated = (request: FastifyRequest, channel: InboundChannel, why: string): never => {
    metrics.inc({ channel, outcome: "unauthenticated" });
    request.log.warn({ channel, outcome: "unauthenticated" }, `inbound mail post refused: ${why}`);
    throw new AppError("invalid_signature", why);
  };
  const answer = async (request: FastifyRequest, reply: FastifyReply, channel: InboundChannel, mail: () => Promise<InboundMail>) => {
    let read: InboundMail;
    try {
      read = await mail();
    } catch (error) {
      if (!(error instanceof UnreadableMailError)) throw error;
      metrics.inc({ channel, outcome: "malformed" });
      request.log.warn({ channel, outcome: "malformed", reason: error.message }, `inbound mail refused: ${error.message}`);
      return reply.code(200).send({ data: { outcome: "malformed" as const } });
    }
    const { outcome } = await receiveInboundMail(contextOf(request), read);
    return reply.code(200).send({ data: { outcome: outcome === "too_large" ? "malformed" : outcome } });
  };

  app.post("/mailgun", {
    schema: mailgunRouteSchema,
    bodyLimit,
    preValidation: async (request) => {
      const key = settings.mailgunSigningKey;
      if (key === null) throw new AppError("not_found", "Mailgun is not configured on this service.");
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (!isMailgunSigned(key, body, Math.floor(services.now().getTime() / 1000))) refuseUnauthenticated(request, "mailgun", "The Mailgun signature is missing or wrong, or its timestamp is over five minutes away.");
    },
    handler: async (request, reply) => {
      const post = request.body;
      const raw = post["body-mime"];
      if (raw !== undefined && Buffer.byteLength(raw, "utf8") > settings.maxBytes) {
        throw new AppError("payload_too_large", "The mail is over FRONTDESK_INBOUND_MAIL_MAX_BYTES.");
      }
      return answer(request, reply, "mailgun", async () => (raw !== undefined ? parseRawMail(Buffer.from(raw, "utf8"), "mailgun") : mailOfMailgunPost(post)));
    },
  });

  app.post("/postmark", {
    schema: postmarkRouteSchema,
    bodyLimit,
    preValidation: async (request) => {
      const credentials = settings.postmarkCredentials;
      if (credentials === null) throw new AppError("not_found", "Postmark is not configured on this service.");
      if (!isPostmarkAuthorised(credentials, request.headers.authorization)) refuseUnauthenticated(request, "postmark", "The Postmark basic-auth credentials are missing or wrong.");
    },
    handler: async (request, reply) => answer(request, reply, "postmark", async () => mailOfPostmarkPost(request.body)),
  });
};
