import type { ConversationMessage } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId, randomBase62 } from "../db/ids.js";
import { iso } from "../db/timestamps.js";
import type { Vertical } from "../tenants/agent.js";

export interface Visitor {
  id: string;
  anonId: string;
}

/** The conversation a session token points at, with what every widget call needs of its agent. */
export interface SessionConversation {
  id: string;
  workspaceId: string;
  agentId: string;
  visitorId: string;
  agentPublished: boolean;
  vertical: Vertical;
}

/** What one init asks of the store: its visitor, and whether it may resume that visitor's latest conversation. */
export interface SessionStartRequest {
  anonId: string;
  pageUrl: string;
  userAgent: string | null;
  /** The browser's IANA time zone and first language (Accept-Language), when known: the visitor profile's. */
  timeZone: string | null;
  language: string | null;
  /** The visitor asked for a new conversation: never resume. */
  newConversation: boolean;
  /** A latest conversation active before this is not resumed. */
  idleCutoff: Date;
  /**
   * The site's user, verified (widget/verify-visitor-identity.ts): the visitor is then the agent's
   * visitor of that `user_id`, whichever browser asks, with the e-mail and name kept (a value not
   * given keeps the stored one); null: the anonymous visitor of `anonId`.
   */
  identity?: { userId: string; email: string | null; name: string | null } | null;
}

/** What every init of a batch shares: one agent, its workspace, the quota month and the monthly quota (null: none). */
export interface SessionStartScope {
  agentId: string;
  workspaceId: string;
  /** `YYYY-MM-01`, the UTC month counted. */
  month: string;
  quota: number | null;
}

/** The visitor, and the conversation init hands them: resumed, new, or null when the monthly quota is spent. */
export interface StartedSession {
  visitor: Visitor;
  conversationId: string | null;
  resumed: boolean;
}

/**
 * Starts the sessions of several inits of one agent in one statement (one commit: group commit).
 * It upserts their visitors, resumes each visitor's latest conversation when it is recent enough
 * (touching it with this init's page and browser), and starts a new conversation for the others,
 * counted against the workspace's monthly quota. The counter row is updated once for the whole
 * batch: `last_granted` (migration 0021) is how many of the asked-for conversations it counted, and
 * the batch's first that many (in request order) are inserted; the others get none. Exact under
 * concurrency: one statement at a time holds the row's lock, and the count never passes the quota.
 * `requests` must hold distinct visitors (visitorKey). Results are in the order of `requests`.
 *
 * A verified user's visitor is found by `(agent_id, user_id)` (visitors_agent_user_idx), never by
 * the browser's anonymous id: created with an anonymous id of its own that no browser is told, so a
 * browser that signs out cannot reach it anonymously; the browser keeps its own `anonId` (returned
 * as the visitor's), and its anonymous conversation is not merged into the user's (on a shared
 * computer the next person to sign in would read it).
 */
export async function startSessions(db: Queryable, scope: SessionStartScope, requests: readonly SessionStartRequest[]): Promise<StartedSession[]> {
  const input = requests.map((request, position) => ({
    position,
    key: visitorKey(request),
    visitor_id: newId("vis"),
    anon_id: request.identity ? `anon_${randomBase62(24)}` : request.anonId,
    user_id: request.identity?.userId ?? null,
    user_email: request.identity?.email ?? null,
    user_name: request.identity?.name ?? null,
    conversation_id: newId("cnv"),
    page_url: request.pageUrl,
    user_agent: request.userAgent,
    time_zone: request.timeZone,
    language: request.language,
    new_conversation: request.newConversation,
    idle_cutoff: request.idleCutoff.toISOString(),
  }));
  const { rows } = await db.query<{ position: number; visitor_id: string; anon_id: string; conversation_id: string | null; resumed: boolean }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(position integer, key text, visitor_id text, anon_id text, user_id text, user_email text,
         user_name text, conversation_id text, page_url text, user_agent text, time_zone text, language text, new_conversation boolean, idle_cutoff timestamptz)
     ),
     anonymous AS (
       INSERT INTO visitors (id, agent_id, anon_id) SELECT visitor_id, $2, anon_id FROM input WHERE user_id IS NULL ORDER BY anon_id
       ON CONFLICT (agent_id, anon_id) DO UPDATE SET last_seen_at = now()
       RETURNING id, anon_id, 'a:' || anon_id AS key
     ),
     identified AS (
       INSERT INTO visitors (id, agent_id, anon_id, user_id, user_email, user_name, user_verified_at)
       SELECT visitor_id, $2, anon_id, user_id, user_email, user_name, now() FROM input WHERE user_id IS NOT NULL ORDER BY user_id
       ON CONFLICT (agent_id, user_id) WHERE user_id IS NOT NULL DO UPDATE SET last_seen_at = now(), user_verified_at = now(),
         user_email = COALESCE(excluded.user_email, visitors.user_email), user_name = COALESCE(excluded.user_name, visitors.user_name)
       RETURNING id, anon_id, 'u:' || user_id AS key
     ),
     visitor AS (SELECT * FROM anonymous UNION ALL SELECT * FROM identified),
     decided AS (
       SELECT input.position, input.conversation_id, input.page_url, input.user_agent, input.time_zone, input.language, visitor.id AS visitor_id, visitor.anon_id,
         latest.id AS latest_id, (latest.id IS NOT NULL AND NOT input.new_conversation AND latest.last_activity_at >= input.idle_cutoff) AS resumes
       FROM input JOIN visitor ON visitor.key = input.key
       LEFT JOIN LATERAL (
         SELECT c.id, c.last_activity_at FROM conversations c WHERE c.visitor_id = visitor.id ORDER BY c.created_at DESC LIMIT 1
       ) latest ON true
     ),
     touched AS (
       UPDATE conversations c SET last_activity_at = now(), last_page_url = decided.page_url, user_agent = COALESCE(decided.user_agent, c.user_agent),
         time_zone = COALESCE(decided.time_zone, c.time_zone), language = COALESCE(decided.language, c.language)
       FROM decided WHERE decided.resumes AND c.id = decided.latest_id
       RETURNING c.id
     ),
     wanted AS (
       SELECT decided.*, row_number() OVER (ORDER BY decided.position) AS rank FROM decided WHERE NOT decided.resumes
     ),
     counted AS (
       INSERT INTO conversation_counters AS counter (workspace_id, month, count, last_granted)
       SELECT $3, $4::date, asked, asked FROM (SELECT LEAST(count(*)::integer, COALESCE($5::integer, count(*)::integer)) AS asked FROM wanted) batch
       WHERE EXISTS (SELECT 1 FROM wanted)
       ON CONFLICT (workspace_id, month) DO UPDATE SET
         count = counter.count + LEAST(excluded.count, GREATEST(0, COALESCE($5::integer - counter.count, excluded.count))),
         last_granted = LEAST(excluded.count, GREATEST(0, COALESCE($5::integer - counter.count, excluded.count)))
       RETURNING last_granted
     ),
     inserted AS (
       INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, page_url, last_page_url, user_agent, time_zone, language)
       SELECT conversation_id, $3, $2, visitor_id, page_url, page_url, user_agent, time_zone, language FROM wanted
       WHERE wanted.rank <= COALESCE((SELECT last_granted FROM counted), 0)
       RETURNING id
     )
     SELECT decided.position, decided.visitor_id, decided.anon_id, decided.resumes AS resumed,
       CASE WHEN decided.resumes THEN decided.latest_id ELSE inserted.id END AS conversation_id
     FROM decided LEFT JOIN inserted ON inserted.id = decided.conversation_id
     ORDER BY decided.position`,
    [JSON.stringify(input), scope.agentId, scope.workspaceId, scope.month, scope.quota],
  );
  if (rows.length !== requests.length) throw new Error(`startSessions: ${rows.length} rows for ${requests.length} requests (visitors must be distinct)`);
  return rows.map((row) => ({
    // A verified user's visitor keeps its own anonymous id to itself: the browser is told its own.
    visitor: { id: row.visitor_id, anonId: requests[row.position]?.identity ? requests[row.position]!.anonId : row.anon_id },
    conversationId: row.conversation_id,
    resumed: row.resumed,
  }));
}

/** Who an init is in the store: the verified user (`u:` and the id) or the browser's anonymous id (`a:` and it). One batch holds each once. */
export function visitorKey(request: Pick<SessionStartRequest, "anonId" | "identity">): string {
  return request.identity ? `u:${request.identity.userId}` : `a:${request.anonId}`;
}

/** The pages a conversation keeps besides its first (the latest ones). */
export const VISITED_PAGES_KEPT = 20;

/**
 * Where the visitor says they are, with their message: `page_url` becomes the conversation's last
 * page (the console shows it) and `page_context` its last page context (migration 0009). A page
 * other than the last one visited (the first page, then `visited_pages`' last) is appended to
 * `visited_pages` with its title and time, the oldest dropped past VISITED_PAGES_KEPT (migration
 * 0044): the visitor profile's pages. One statement, and none when neither is given; a row that
 * already holds them is not written.
 */
export async function recordVisitorPage(
  db: Queryable,
  conversationId: string,
  page: { pageUrl?: string | undefined; pageContext?: Record<string, unknown> | undefined },
): Promise<void> {
  if (page.pageUrl === undefined && page.pageContext === undefined) return;
  const title = typeof page.pageContext?.["title"] === "string" ? page.pageContext["title"].slice(0, 200) : null;
  await db.query(
    `UPDATE conversations SET last_page_url = COALESCE($2::text, last_page_url), last_page_context = COALESCE($3::jsonb, last_page_context),
       visited_pages = CASE WHEN $2::text IS NOT NULL AND $2::text IS DISTINCT FROM COALESCE(visited_pages -> -1 ->> 'url', page_url)
         THEN (CASE WHEN jsonb_array_length(visited_pages) >= $5::integer THEN visited_pages - 0 ELSE visited_pages END)
           || jsonb_build_array(jsonb_build_object('url', $2::text, 'title', $4::text, 'at', now()))
         ELSE visited_pages END
     WHERE id = $1::text
       AND (last_page_url IS DISTINCT FROM COALESCE($2::text, last_page_url) OR last_page_context IS DISTINCT FROM COALESCE($3::jsonb, last_page_context)
         OR ($2::text IS NOT NULL AND $2::text IS DISTINCT FROM COALESCE(visited_pages -> -1 ->> 'url', page_url)))`,
    [conversationId, page.pageUrl ?? null, page.pageContext === undefined ? null : JSON.stringify(page.pageContext), title, VISITED_PAGES_KEPT],
  );
}

interface MessageRow {
  id: string;
  conversation_seq: number | null;
  role: ConversationMessage["role"];
  content: string;
  system_code: ConversationMessage["code"];
  citations: ConversationMessage["citations"];
  author_name: string | null;
  created_at: Date;
  curated_answer_id: string | null;
}

const MESSAGE_COLUMNS = `id, conversation_seq, role, content, system_code, citations, author_name, created_at, curated_answer_id`;

const toMessage = (row: MessageRow): ConversationMessage => ({
  id: row.id,
  seq: row.conversation_seq,
  role: row.role,
  content: row.content,
  code: row.system_code,
  citations: row.citations,
  author: row.author_name !== null ? { name: row.author_name } : null,
  created_at: iso(row.created_at),
  ...(row.curated_answer_id !== null ? { curated: true } : {}),
});

/** The last `limit` messages of the conversation (system messages included), oldest first. */
export async function listRecentMessages(db: Queryable, conversationId: string, limit: number): Promise<ConversationMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2`,
    [conversationId, limit],
  );
  return rows.reverse().map(toMessage);
}

export async function findSessionConversation(db: Queryable, conversationId: string): Promise<SessionConversation | null> {
  const { rows } = await db.query<{
    id: string;
    workspace_id: string;
    agent_id: string;
    visitor_id: string;
    published: boolean;
    vertical: Vertical;
  }>(
    `SELECT c.id, c.workspace_id, c.agent_id, c.visitor_id, a.published, a.vertical
     FROM conversations c JOIN agents a ON a.id = c.agent_id WHERE c.id = $1`,
    [conversationId],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        workspaceId: row.workspace_id,
        agentId: row.agent_id,
        visitorId: row.visitor_id,
        agentPublished: row.published,
        vertical: row.vertical,
      }
    : null;
}

/** The conversation a resume link names, with its visitor's anonymous id, when both are still the agent's. */
export async function findResumableConversation(
  db: Queryable,
  claims: { agentId: string; conversationId: string; visitorId: string },
): Promise<{ conversationId: string; visitorId: string; anonId: string } | null> {
  const { rows } = await db.query<{ id: string; visitor_id: string; anon_id: string }>(
    `SELECT c.id, c.visitor_id, v.anon_id FROM conversations c JOIN visitors v ON v.id = c.visitor_id
     WHERE c.id = $1 AND c.agent_id = $2 AND c.visitor_id = $3 AND v.agent_id = $2`,
    [claims.conversationId, claims.agentId, claims.visitorId],
  );
  const row = rows[0];
  return row ? { conversationId: row.id, visitorId: row.visitor_id, anonId: row.anon_id } : null;
}
