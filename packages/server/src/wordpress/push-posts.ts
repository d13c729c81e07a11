import type { WordpressPost, WordpressPostResult, WordpressPostsBody, WordpressPostsResponse } from "@frontdesk/contracts";
import { CONCURRENCY_SQL_STATES, sqlStateOf } from "../db/sql-state.js";
import { AppError } from "../http/app-error.js";
import { sha256Hex } from "../ingest/content-hash.js";
import { deleteSourceDocuments, insertPendingDocuments, requeueDocumentsAtUrls } from "../ingest/documents.js";
import type { Services } from "../services.js";
import { findOrCreateWordpressSource, markWordpressPush } from "../sources/sources.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { isOriginAllowed } from "../tenants/origin-policy.js";
import { checkPosts, type CheckedPost } from "./check-posts.js";
import { refreshWordpressProgress } from "./index-wordpress-posts-job.js";
import {
  findStoredPosts,
  findUrlHolders,
  touchUnchangedPosts,
  upsertPosts,
  type PostToStore,
  type StoredPost,
} from "./wordpress-post-repository.js";

type Accepted = Extract<CheckedPost, { ok: true }> & { contentHash: string };

/** unique_violation (two pushes inserting one key), and the concurrency failures. */
const RETRYABLE_SQL_STATES = new Set(["23505", ...CONCURRENCY_SQL_STATES]);

/** The time in UTC: WordPress may send any offset JavaScript reads, and Postgres refuses offsets beyond ±15:59. */
const utc = (time: string): string => new Date(time).toISOString();

/** What a post's index depends on: a change of any of these re-indexes it. */
const hashOf = (post: WordpressPost) => sha256Hex(JSON.stringify([post.title, post.url, post.content]));

const rejection = (index: number, postId: number | null, fields: Record<string, string[]>): WordpressPostResult => ({
  index,
  post_id: postId,
  result: "rejected",
  error: { code: "validation_failed", message: "This post was not stored; `fields` says why.", fields },
});

const toStore = (entry: Accepted, documentId: number | null): PostToStore => ({
  postId: entry.post.post_id,
  documentId,
  url: entry.post.url,
  title: entry.post.title,
  postType: entry.post.type,
  postStatus: entry.post.status,
  modifiedAt: utc(entry.post.modified_at),
  contentHash: entry.contentHash,
  // Nothing of a post that is not published is kept beyond what identifies it.
  content: entry.published ? entry.post.content : null,
});

/** A stored post needs no indexing: same hash, and its document indexed or on its way (a failed one is tried again). */
const isUnchanged = (entry: Accepted, stored: StoredPost | undefined): boolean =>
  stored !== undefined && stored.contentHash === entry.contentHash && stored.documentId !== null && stored.documentStatus !== "failed";

export interface PushOutcome {
  response: WordpressPostsResponse["data"];
  /** Something was queued or removed: the source's state is worth announcing. */
  changed: boolean;
}

/**
 * POST /wp/posts: upserts a batch of posts by (agent, post ID), each on its own. In one
 * transaction: the agent's `wordpress` source (created on the first push), the documents of
 * new or changed published posts (pending) with one `index-wordpress-posts` job for them, the
 * documents of unpublished posts deleted, and the posts. Nothing is indexed here.
 */
export async function pushPosts(services: Services, workspaceId: string, body: WordpressPostsBody): Promise<PushOutcome> {
  const agent = await findWorkspaceAgent(services.db, workspaceId, body.agent_id);
  if (!agent) throw new AppError("agent_not_found", "No agent with this id in the token's workspace.");
  const checked = checkPosts(body.posts);
  const results: WordpressPostResult[] = [];
  const accepted: Accepted[] = [];
  for (const entry of checked) {
    if (entry.ok) accepted.push({ ...entry, contentHash: await hashOf(entry.post) });
    else results[entry.index] = rejection(entry.index, entry.postId, entry.fields);
  }
  if (accepted.length === 0) {
    const fields = Object.assign({}, ...checked.map((entry) => (entry.ok ? {} : entry.fields))) as Record<string, string[]>;
    throw new AppError("validation_failed", "No post of the batch could be stored; `fields` says why for each.", fields);
  }

  const siteUrl = new URL(accepted[0]!.post.url).origin;
  const { sourceId, changed } = await services.db.transaction(async (tx) => {
    const { source, created } = await findOrCreateWordpressSource(tx, { id: agent.id, workspaceId }, siteUrl);
    const stored = await findStoredPosts(tx, agent.id, accepted.map((entry) => entry.post.post_id));
    const toIndex = accepted.filter((entry) => entry.published && !isUnchanged(entry, stored.get(entry.post.post_id)));
    const holders = await findUrlHolders(tx, source.id, toIndex.map((entry) => entry.post.url));
    // A URL that another post's document has (and that post is not in this batch being unpublished) cannot be taken.
    const leaving = new Set(accepted.filter((entry) => !entry.published).map((entry) => entry.post.post_id));
    const conflicted = new Set(
      toIndex
        .filter((entry) => {
          const holder = holders.get(entry.post.url);
          return holder !== undefined && holder !== entry.post.post_id && !leaving.has(holder);
        })
        .map((entry) => entry.index),
    );
    for (const entry of accepted.filter((candidate) => conflicted.has(candidate.index))) {
      results[entry.index] = rejection(entry.index, entry.post.post_id, {
        [`posts.${entry.index}.url`]: [`is already the address of post ${holders.get(entry.post.url)} of this agent; push or delete that post first`],
      });
    }
    const kept = accepted.filter((entry) => !conflicted.has(entry.index));
    const queued = toIndex.filter((entry) => !conflicted.has(entry.index));
    const unpublished = kept.filter((entry) => !entry.published);
    const unchanged = kept.filter((entry) => entry.published && isUnchanged(entry, stored.get(entry.post.post_id)));

    const removedDocuments = unpublished.flatMap((entry) => stored.get(entry.post.post_id)?.documentId ?? []);
    await deleteSourceDocuments(tx, source.id, removedDocuments);
    const requeued = queued.flatMap((entry) => {
      const documentId = stored.get(entry.post.post_id)?.documentId;
      return documentId ? [{ id: documentId, url: entry.post.url }] : [];
    });
    await requeueDocumentsAtUrls(tx, source.id, requeued);
    const fresh = await insertPendingDocuments(tx, source, queued.filter((entry) => !stored.get(entry.post.post_id)?.documentId).map((entry) => entry.post.url));
    const documentOf = (entry: Accepted): number => stored.get(entry.post.post_id)?.documentId ?? fresh.get(entry.post.url)!;

    await upsertPosts(tx, source, [...queued.map((entry) => toStore(entry, documentOf(entry))), ...unpublished.map((entry) => toStore(entry, null))]);
    await touchUnchangedPosts(tx, agent.id, unchanged.map((entry) => ({ postId: entry.post.post_id, modifiedAt: utc(entry.post.modified_at), postType: entry.post.type, postStatus: entry.post.status })));
    if (queued.length > 0) await services.jobs.send("index-wordpress-posts", { sourceId: source.id, documentIds: queued.map(documentOf) }, tx);
    const sourceChanged = created || queued.length > 0 || removedDocuments.length > 0;
    if (sourceChanged) {
      await markWordpressPush(tx, source.id, queued.length > 0);
      await refreshWordpressProgress(tx, services.events, source.id);
    }
    for (const entry of queued) results[entry.index] = withWarning({ index: entry.index, post_id: entry.post.post_id, result: "queued" }, entry, agent.allowedOrigins);
    for (const entry of unchanged) results[entry.index] = { index: entry.index, post_id: entry.post.post_id, result: "unchanged" };
    for (const entry of unpublished) results[entry.index] = { index: entry.index, post_id: entry.post.post_id, result: "removed" };
    return { sourceId: source.id, changed: sourceChanged };
  }).catch((error: unknown) => {
    // Two pushes writing the same posts or URLs at once (one waits on the other's key, then conflicts), or a push
    // and an indexing job locking the same posts in another order (Postgres ends one of them): the batch can be sent again.
    if (RETRYABLE_SQL_STATES.has(sqlStateOf(error))) {
      throw new AppError("service_unavailable", "Another push changed these posts at the same time; send this batch again.");
    }
    throw error;
  });

  const count = (outcome: WordpressPostResult["result"]) => results.filter((result) => result.result === outcome).length;
  return {
    response: {
      agent_id: agent.id,
      source_id: sourceId,
      received: body.posts.length,
      queued: count("queued"),
      unchanged: count("unchanged"),
      removed: count("removed"),
      rejected: count("rejected"),
      results,
    },
    changed,
  };
}

/** The URL is cited, never fetched, so any origin is accepted; one outside the agent's allowed origins is flagged. */
function withWarning(result: WordpressPostResult, entry: Accepted, allowedOrigins: readonly string[]): WordpressPostResult {
  const origin = new URL(entry.post.url).origin;
  if (allowedOrigins.length === 0 || isOriginAllowed(allowedOrigins, origin)) return result;
  return { ...result, warning: `${origin} is not among the agent's allowed origins; answers will cite it all the same.` };
}

