import { z } from "zod";

/** `pusher:subscribe`'s data: `auth` for private and presence channels, `channel_data` for presence. */
export const subscribeDataSchema = z.object({
  channel: z.string().min(1),
  auth: z.string().optional(),
  channel_data: z.string().optional(),
});
export type SubscribeData = z.infer<typeof subscribeDataSchema>;

const unsubscribeDataSchema = z.object({ channel: z.string().min(1) });

/** The frames a client may send. `data` may arrive as an object or as a JSON string (older clients). */
const envelopeSchema = z.object({
  event: z.string().min(1).max(200),
  channel: z.string().optional(),
  data: z.unknown().optional(),
});

export type ClientMessage =
  | { kind: "ping" }
  | { kind: "pong" }
  | { kind: "subscribe"; data: SubscribeData }
  | { kind: "unsubscribe"; channel: string }
  /** `data` as subscribers receive it: a JSON string (pusher-js sends an object). */
  | { kind: "client-event"; event: string; channel: string | undefined; data: string }
  | { kind: "invalid"; reason: string };

/** Reads one text frame from a client into a typed message; anything else is `invalid`. */
export function parseClientMessage(text: string): ClientMessage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "invalid", reason: "The message is not JSON." };
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) return { kind: "invalid", reason: "The message has no event." };
  const { event, channel } = envelope.data;
  const data = dataObject(envelope.data.data);
  switch (event) {
    case "pusher:ping":
      return { kind: "ping" };
    case "pusher:pong":
      return { kind: "pong" };
    case "pusher:subscribe": {
      const parsed = subscribeDataSchema.safeParse(data);
      return parsed.success ? { kind: "subscribe", data: parsed.data } : { kind: "invalid", reason: "pusher:subscribe needs data.channel." };
    }
    case "pusher:unsubscribe": {
      const parsed = unsubscribeDataSchema.safeParse(data);
      return parsed.success ? { kind: "unsubscribe", channel: parsed.data.channel } : { kind: "invalid", reason: "pusher:unsubscribe needs data.channel." };
    }
    default:
      if (event.startsWith("client-")) {
        const raw = envelope.data.data;
        return { kind: "client-event", event, channel, data: typeof raw === "string" ? raw : JSON.stringify(raw ?? {}) };
      }
      return { kind: "invalid", reason: `Unknown event ${JSON.stringify(event)}.` };
  }
}

function dataObject(data: unknown): unknown {
  if (typeof data !== "string") return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
