import type { Logger } from "pino";
import type { Services } from "../services.js";
import { wakeSnoozedConversation } from "./wake-snoozed-conversation.js";

/** Starts this process's worker of snoozes whose time came (conversations/wake-snoozed-conversation.ts). */
export async function registerSnoozeWorker(services: Services, logger: Logger): Promise<{ close(): Promise<void> }> {
  await services.jobs.work("wake-snoozed-conversation", 2, async (payload) => {
    const outcome = await wakeSnoozedConversation(services, payload);
    if (outcome === "woken") logger.debug({ conversationId: payload.conversationId }, "snoozed conversation back");
  });
  return { async close() {} };
}
