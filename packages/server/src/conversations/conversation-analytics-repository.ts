import type { Queryable } from "../db/database.js";

/** One agent's conversations created in [from, to): what every analytics query reads. */
export interface AnalyticsScope {
  workspaceId: string;
  agentId: string;
  from: Date;
  /** Exclusive. */
  to: Date;
}

const params = (scope: AnalyticsScope) => [scope.agentId, scope.workspaceId, scope.from, scope.to];

/**
 * The conversations analytics counts: the agent's, created in the period (conversations_agent_created_idx),
 * in which the visitor wrote or a person was asked for. A conversation opened without a word is left out.
 */
const COUNTED_CONVERSATIONS = `FROM conversations c
  WHERE c.agent_id = $1 AND c.workspace_id = $2 AND c.created_at >= $3 AND c.created_at < $4
    AND (c.handed_to_human_at IS NOT NULL OR EXISTS (SELECT 1 FROM messages v WHERE v.conversation_id = c.id AND v.role = 'visitor'))`;

export interface DailyOutcomes {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  conversations: number;
  handedToHuman: number;
  answeredLowConfidence: number;
  answered: number;
  good: number;
  bad: number;
  /** Bot answers the visitors rated 👍 and 👎. */
  answersUp: number;
  answersDown: number;
  /** Without a person: the visitor confirmed it was resolved (a 👍 on an answer, or a good satisfaction rating). */
  resolvedConfirmed: number;
  /** Without a person: the bot answered and the visitor confirmed nothing. */
  endedWithoutPerson: number;
}

/**
 * Per UTC day of creation: the counted conversations, each in one outcome (a person took part;
 * else the bot answered with low confidence at least once; else the bot answered; else none),
 * the satisfaction ratings, the ratings of the bot's answers, and the conversations without a person
 * the visitor confirmed resolved (a 👍 or a good satisfaction rating) apart from those that merely
 * ended. Messages are read per conversation (messages_conversation_seq_idx).
 */
export async function countDailyOutcomes(db: Queryable, scope: AnalyticsScope): Promise<DailyOutcomes[]> {
  const { rows } = await db.query<{
    day: string;
    conversations: string;
    handed_to_human: string;
    answered_low_confidence: string;
    answered: string;
    good: string;
    bad: string;
    answers_up: string;
    answers_down: string;
    resolved_confirmed: string;
    ended_without_person: string;
  }>(
    `WITH counted AS (
       SELECT to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, c.handed_to_human_at IS NOT NULL AS handed, c.satisfaction_rating,
         EXISTS (SELECT 1 FROM messages b WHERE b.conversation_id = c.id AND b.role = 'bot') AS bot_replied,
         EXISTS (SELECT 1 FROM messages b WHERE b.conversation_id = c.id AND b.role = 'bot' AND b.low_confidence) AS low_confidence,
         (SELECT count(*) FROM messages r WHERE r.conversation_id = c.id AND r.rating = 'up') AS answers_up,
         (SELECT count(*) FROM messages r WHERE r.conversation_id = c.id AND r.rating = 'down') AS answers_down
       ${COUNTED_CONVERSATIONS}
     )
     SELECT day, count(*)::text AS conversations,
       count(*) FILTER (WHERE handed)::text AS handed_to_human,
       count(*) FILTER (WHERE NOT handed AND low_confidence)::text AS answered_low_confidence,
       count(*) FILTER (WHERE NOT handed AND NOT low_confidence AND bot_replied)::text AS answered,
       count(*) FILTER (WHERE satisfaction_rating = 'good')::text AS good,
       count(*) FILTER (WHERE satisfaction_rating = 'bad')::text AS bad,
       COALESCE(sum(answers_up), 0)::text AS answers_up,
       COALESCE(sum(answers_down), 0)::text AS answers_down,
       count(*) FILTER (WHERE NOT handed AND (answers_up > 0 OR satisfaction_rating = 'good'))::text AS resolved_confirmed,
       count(*) FILTER (WHERE NOT handed AND bot_replied AND NOT (answers_up > 0 OR satisfaction_rating IS NOT DISTINCT FROM 'good'))::text AS ended_without_person
     FROM counted GROUP BY day ORDER BY day`,
    params(scope),
  );
  return rows.map((row) => ({
    day: row.day,
    conversations: Number(row.conversations),
    handedToHuman: Number(row.handed_to_human),
    answeredLowConfidence: Number(row.answered_low_confidence),
    answered: Number(row.answered),
    good: Number(row.good),
    bad: Number(row.bad),
    answersUp: Number(row.answers_up),
    answersDown: Number(row.answers_down),
    resolvedConfirmed: Number(row.resolved_confirmed),
    endedWithoutPerson: Number(row.ended_without_person),
  }));
}

/**
 * The median time from a person's being asked for (or an operator's takeover without a request:
 * `handed_to_human_at`) to the first operator message at or after it, in seconds, over the
 * counted conversations an operator replied to; and how many those are.
 */
export async function medianFirstOperatorReply(db: Queryable, scope: AnalyticsScope): Promise<{ medianSeconds: number | null; replied: number }> {
  const { rows } = await db.query<{ median_seconds: number | string | null; replied: string }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM first_reply - handed_to_human_at)::float8) AS median_seconds,
       count(*)::text AS replied
     FROM (
       SELECT c.handed_to_human_at,
         (SELECT min(o.created_at) FROM messages o
           WHERE o.conversation_id = c.id AND o.role = 'operator' AND o.created_at >= c.handed_to_human_at) AS first_reply
       ${COUNTED_CONVERSATIONS} AND c.handed_to_human_at IS NOT NULL
     ) handed
     WHERE first_reply IS NOT NULL`,
    params(scope),
  );
  const row = rows[0];
  return { medianSeconds: row?.median_seconds === null || row?.median_seconds === undefined ? null : Number(row.median_seconds), replied: Number(row?.replied ?? 0) };
}

/**
 * SQL of a question's normalised text: lower case, runs of white space as one space, no
 * punctuation or space at either end ("Where is my ORDER?? " and "where is my order" are one).
 */
const NORMALISED_QUESTION = `regexp_replace(regexp_replace(lower(m.content), '[[:space:]]+', ' ', 'g'), '^[[:space:][:punct:]]+|[[:space:][:punct:]]+$', '', 'g')`;

/** The visitors' most frequent questions in the counted conversations, by normalised text: most frequent first, then alphabetical. */
export async function listTopQuestions(db: Queryable, scope: AnalyticsScope, limit: number): Promise<{ question: string; count: number }[]> {
  const { rows } = await db.query<{ question: string; count: string }>(
    `SELECT question, count(*)::text AS count
     FROM (
       SELECT ${NORMALISED_QUESTION} AS question
       FROM messages m JOIN (SELECT c.id ${COUNTED_CONVERSATIONS}) counted ON counted.id = m.conversation_id
       WHERE m.role = 'visitor'
     ) questions
     WHERE question <> ''
     GROUP BY question ORDER BY count(*) DESC, question
     LIMIT $5`,
    [...params(scope), limit],
  );
  return rows.map((row) => ({ question: row.question, count: Number(row.count) }));
}

/**
 * The widget's funnel in the period: visitors who opened the launcher (`launcher.open` events,
 * events_agent_event_created_idx), visitors with a counted conversation, leads captured
 * (leads_agent_created_idx).
 */
export async function countFunnel(db: Queryable, scope: AnalyticsScope): Promise<{ launcherOpened: number; conversations: number; leads: number }> {
  const { rows } = await db.query<{ launcher_opened: string; conversations: string; leads: string }>(
    `SELECT
       (SELECT count(DISTINCT e.visitor_id) FROM events e
         WHERE e.agent_id = $1 AND e.workspace_id = $2 AND e.event = 'launcher.open' AND e.created_at >= $3 AND e.created_at < $4)::text AS launcher_opened,
       (SELECT count(DISTINCT c.visitor_id) ${COUNTED_CONVERSATIONS})::text AS conversations,
       (SELECT count(*) FROM leads l WHERE l.agent_id = $1 AND l.workspace_id = $2 AND l.created_at >= $3 AND l.created_at < $4)::text AS leads`,
    params(scope),
  );
  const row = rows[0]!;
  return { launcherOpened: Number(row.launcher_opened), conversations: Number(row.conversations), leads: Number(row.leads) };
}

/**
 * How many of the counted conversations carry each label (a label on none is absent): the period's
 * conversations (conversations_agent_created_idx), then their labels by conversation_labels' key.
 */
export async function countConversationsPerLabel(db: Queryable, scope: AnalyticsScope): Promise<Map<string, number>> {
  const { rows } = await db.query<{ label_id: string; n: number }>(
    `SELECT cl.label_id, count(*)::int AS n FROM conversation_labels cl
     WHERE cl.workspace_id = $2 AND cl.conversation_id IN (SELECT c.id ${COUNTED_CONVERSATIONS})
     GROUP BY cl.label_id`,
    params(scope),
  );
  return new Map(rows.map((row) => [row.label_id, row.n]));
}
