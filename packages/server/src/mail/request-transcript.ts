import { listMessagesAfterSeq } from "../conversations/message-listing.js";
import { AppError } from "../http/app-error.js";
import { languagePackFor } from "../language/language-packs.js";
import type { Services } from "../services.js";
import { findAgent } from "../tenants/agents.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { findVisitorLead, normalizeEmail } from "../widget/leads.js";
import { transcriptMail } from "./mail-texts.js";
import { messageTexts } from "./message-texts.js";
import { queueMail } from "./queue-mail.js";

/** A transcript holds at most this many messages (the conversation's first ones). */
const TRANSCRIPT_MESSAGES_MAX = 1_000;
const PAGE = 100;

/**
 * POST /widget/conversation/transcript: the visitor asks for their conversation by e-mail (offered
 * when it closes), sent only to the address they left (POST /leads). An `email` is accepted only
 * when it is that address: the route never relays the visitor's words to an address nobody left as
 * a lead (a stranger's inbox, an address written to harass). The transcript is the
 * visitor's, the bot's and the operators' messages, system messages left out; it is a mail about the
 * visitor, so erasure deletes it. Rate-limited per conversation by the route.
 */
export async function requestTranscript(services: Services, session: WidgetSession, email: string | undefined): Promise<{ status: "queued" | "waiting" }> {
  const { conversation } = session;
  const address = (await findVisitorLead(services.db, conversation.visitorId))?.email;
  if (!address) {
    throw new AppError("validation_failed", "No e-mail address: leave one first (POST /leads).", { email: ["required: no address was left in this conversation"] });
  }
  if (email !== undefined && normalizeEmail(email) !== normalizeEmail(address)) {
    throw new AppError("validation_failed", "A transcript goes only to the address left in this conversation (POST /leads).", { email: ["not the address left in this conversation"] });
  }
  const agent = await findAgent(services.db, conversation.agentId);
  if (!agent) throw new AppError("agent_not_found", "The agent of this conversation no longer exists.");
  const pack = languagePackFor(agent.languageDefault);
  const lines: { who: string; text: string }[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = await listMessagesAfterSeq(services.db, { workspaceId: conversation.workspaceId, conversationId: conversation.id, afterSeq, limit: PAGE });
    const texts = await messageTexts(services.db, conversation.id, page.messages);
    page.messages.forEach((message, index) => {
      const text = texts[index] ?? message.content;
      if (message.role === "visitor") lines.push({ who: pack.mail.you, text });
      else if (message.role === "bot") lines.push({ who: agent.personaName || agent.name, text });
      else if (message.role === "operator") lines.push({ who: message.author?.name ?? agent.name, text });
      afterSeq = Math.max(afterSeq, message.seq ?? afterSeq);
    });
    if (!page.hasMore || lines.length >= TRANSCRIPT_MESSAGES_MAX || page.messages.length === 0) break;
  }
  const queued = await services.db.transaction((tx) =>
    queueMail(tx, services.jobs, services.config.mail, {
      workspaceId: conversation.workspaceId,
      kind: "transcript",
      to: { address, name: null },
      content: transcriptMail(pack, { agentName: agent.name, lines: lines.slice(0, TRANSCRIPT_MESSAGES_MAX) }),
      visitorId: conversation.visitorId,
      conversationId: conversation.id,
    }),
  );
  if (!queued) throw new AppError("validation_failed", "This e-mail address cannot be written to.", { email: ["not an address we send to"] });
  return { status: queued.status };
}
