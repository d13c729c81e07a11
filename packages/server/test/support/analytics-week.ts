import type { Queryable } from "../../src/db/database.js";

/** A conversation of the seeded week: its creation, handover, rating and messages (role, text, seconds after creation, low confidence, the visitor's 👍/👎). */
interface SeededConversation {
  number: number;
  agent: "a" | "b" | "other";
  visitor: number;
  createdAt: string;
  handedAfterSeconds?: number;
  rating?: "good" | "bad";
  messages?: [role: "visitor" | "bot" | "operator" | "system", content: string, afterSeconds: number, lowConfidence?: boolean, rating?: "up" | "down"][];
}

/**
 * The week of 1–7 March 2026 whose every analytics figure the server's analytics test
 * (test/console/analytics.test.ts) and the console's Analytics screen in Chromium check exactly.
 */
const CONVERSATIONS: SeededConversation[] = [
  // Answered (confidently), rated good.
  { number: 1, agent: "a", visitor: 1, createdAt: "2026-03-01T10:00:00Z", rating: "good", messages: [["visitor", "Where is my order?", 5], ["bot", "In transit.", 6]] },
  // Answered with low confidence, rated bad, its answer 👎: ended without a person, unconfirmed.
  { number: 2, agent: "a", visitor: 2, createdAt: "2026-03-01T12:00:00Z", rating: "bad", messages: [["visitor", "where is my   ORDER", 5], ["bot", "Maybe?", 6, true, "down"]] },
  // One confident and one low-confidence answer: low confidence; the first answer 👍 confirms it resolved.
  { number: 3, agent: "a", visitor: 3, createdAt: "2026-03-02T09:00:00Z", messages: [["visitor", "Do you ship abroad?", 1], ["bot", "Yes.", 2, false, "up"], ["bot", "Perhaps.", 3, true]] },
  // Handed to a person after a bot answer; first operator reply 120 s after the handover.
  {
    number: 4,
    agent: "a",
    visitor: 4,
    createdAt: "2026-03-03T08:00:00Z",
    handedAfterSeconds: 60,
    // Its answer 👍 counts among the ratings, but a person took part: not a confirmed resolution.
    messages: [["visitor", "I want a human", 10], ["bot", "Sure.", 20, false, "up"], ["system", "Waiting for a person to join", 60], ["operator", "Hi, Ana here.", 180]],
  },
  // Handed at creation; replies at 600 s and 1,200 s (the first counts); rated good.
  {
    number: 5,
    agent: "a",
    visitor: 5,
    createdAt: "2026-03-03T09:00:00Z",
    handedAfterSeconds: 0,
    rating: "good",
    messages: [["visitor", "Where is my order!", 1], ["operator", "Let me look.", 600], ["visitor", "Thanks", 700], ["operator", "Found it.", 1200]],
  },
  // The same visitor as conversation 3; a reply 30 s after the handover.
  { number: 6, agent: "a", visitor: 3, createdAt: "2026-03-05T10:00:00Z", handedAfterSeconds: 0, messages: [["visitor", "Do you ship abroad", 0], ["operator", "We do.", 30]] },
  // A person asked for without a word written, and never answered: counted, handed, not in the median.
  { number: 7, agent: "a", visitor: 7, createdAt: "2026-03-05T11:00:00Z", handedAfterSeconds: 5 },
  // The bot never answered; "???" normalises to nothing and is no question.
  { number: 8, agent: "a", visitor: 8, createdAt: "2026-03-06T11:00:00Z", messages: [["visitor", "hello?", 1], ["visitor", "???", 2]] },
  // Opened without a word: not counted.
  { number: 9, agent: "a", visitor: 9, createdAt: "2026-03-06T12:00:00Z" },
  // Outside the period (one microsecond before it, and its first instant after), another agent, another workspace.
  { number: 10, agent: "a", visitor: 10, createdAt: "2026-02-28T23:59:59.999999Z", rating: "good", messages: [["visitor", "Where is my order", 0]] },
  { number: 11, agent: "a", visitor: 11, createdAt: "2026-03-08T00:00:00Z", handedAfterSeconds: 0, messages: [["visitor", "Where is my order", 0], ["operator", "Hi", 1]] },
  { number: 12, agent: "b", visitor: 12, createdAt: "2026-03-02T10:00:00Z", rating: "bad", messages: [["visitor", "Can I return a helmet?", 0], ["bot", "Within 30 days.", 1]] },
  { number: 13, agent: "other", visitor: 13, createdAt: "2026-03-02T10:00:00Z", messages: [["visitor", "Where is my order", 0]] },
];

/** launcher.open (and other) events: [agent, visitor, event, time]. */
const EVENTS: [agent: "a" | "b" | "other", visitor: number, event: string, at: string][] = [
  ["a", 1, "launcher.open", "2026-03-01T09:59:00Z"],
  ["a", 1, "launcher.open", "2026-03-04T09:59:00Z"],
  ["a", 2, "launcher.open", "2026-03-01T11:59:00Z"],
  ["a", 3, "launcher.open", "2026-03-02T08:59:00Z"],
  ["a", 4, "launcher.open", "2026-03-03T07:59:00Z"],
  ["a", 9, "launcher.open", "2026-03-06T11:59:00Z"],
  ["a", 5, "cta.click", "2026-03-03T08:59:00Z"],
  ["a", 5, "launcher.open", "2026-03-08T00:00:00Z"],
  ["b", 12, "launcher.open", "2026-03-02T09:59:00Z"],
  ["other", 13, "launcher.open", "2026-03-02T09:59:00Z"],
];

/** Leads: [agent, visitor, created]. */
const LEADS: [agent: "a" | "b", visitor: number, at: string][] = [
  ["a", 1, "2026-03-01T10:05:00Z"],
  ["a", 4, "2026-03-03T08:30:00Z"],
  ["a", 10, "2026-02-27T10:00:00Z"],
  ["b", 12, "2026-03-02T10:05:00Z"],
];

type SeededAgent = { workspaceId: string; agentId: string };

/**
 * Writes the analytics week: agent `a`'s conversations, events and leads, one conversation of
 * agent `b` (same workspace), and, when `other` is given, one of another workspace's agent. Rows
 * are named `cnv_{prefix}{n}`, `vis_{prefix}{n}`, `msg_{prefix}{n}`, `lead_{prefix}{n}`.
 */
export async function seedAnalyticsWeek(db: Queryable, agents: { a: SeededAgent; b: SeededAgent; other?: SeededAgent }, prefix = ""): Promise<void> {
  const seeded = CONVERSATIONS.filter((conversation) => conversation.agent !== "other" || agents.other);
  const agentOf = (agent: "a" | "b" | "other"): SeededAgent => (agent === "other" ? agents.other! : agents[agent]);
  const visitor = (number: number) => `vis_${prefix}${number}`;
  const visitors = new Map(seeded.map((conversation) => [conversation.visitor, conversation.agent]));
  for (const [number, agent] of visitors) {
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) VALUES ($1, $2, $1)`, [visitor(number), agentOf(agent).agentId]);
  }
  let messageNumber = 0;
  for (const conversation of seeded) {
    const { workspaceId, agentId } = agentOf(conversation.agent);
    const at = (seconds: number) => new Date(Date.parse(conversation.createdAt) + seconds * 1000).toISOString();
    const id = `cnv_${prefix}${conversation.number}`;
    await db.query(
      `INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, created_at, last_activity_at, handed_to_human_at, satisfaction_rating, satisfaction_at)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz, $6::timestamptz, $7, CASE WHEN $7::text IS NULL THEN NULL ELSE $5::timestamptz END)`,
      [id, workspaceId, agentId, visitor(conversation.visitor), conversation.createdAt, conversation.handedAfterSeconds === undefined ? null : at(conversation.handedAfterSeconds), conversation.rating ?? null],
    );
    for (const [role, content, seconds, lowConfidence, rating] of conversation.messages ?? []) {
      messageNumber += 1;
      await db.query(
        `INSERT INTO messages (id, conversation_id, role, content, low_confidence, created_at, rating, rated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7::text IS NULL THEN NULL ELSE $6::timestamptz END)`,
        [`msg_${prefix}${messageNumber}`, id, role, content, lowConfidence ?? false, at(seconds), rating ?? null],
      );
    }
  }
  for (const [agent, number, event, at] of EVENTS) {
    if (agent === "other" && !agents.other) continue;
    const { workspaceId, agentId } = agentOf(agent);
    await db.query(`INSERT INTO events (workspace_id, agent_id, visitor_id, event, created_at) VALUES ($1, $2, $3, $4, $5)`, [workspaceId, agentId, visitor(number), event, at]);
  }
  for (const [index, [agent, number, at]] of LEADS.entries()) {
    const { workspaceId, agentId } = agentOf(agent);
    await db.query(
      `INSERT INTO leads (id, workspace_id, agent_id, visitor_id, email, email_normalized, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5, $6, $6)`,
      [`lead_${prefix}${index}`, workspaceId, agentId, visitor(number), `lead${index}@example.com`, at],
    );
  }
}
