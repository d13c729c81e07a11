import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readCreatedTables, readInterpolatedTables, readTableAccess, tablesOfSql, type TableAccess } from "./table-access.js";
import { TABLE_OWNERS } from "./table-owners.js";

const SOURCE = fileURLToPath(new URL("../../src", import.meta.url));
const MIGRATIONS = fileURLToPath(new URL("../../src/db/migrations", import.meta.url));

/** A table that SQL outside its owner's folder names: `file table`, and why it stays there. */
type Exception = readonly [access: string, reason: string];

/** Writes outside their table's owner: none (12 tables had writers in several folders before issue 29). */
const CROSS_OWNER_WRITES: readonly Exception[] = [];

/**
 * Reads (FROM, JOIN, USING) outside their table's owner: each a join kept in one statement rather
 * than split into a query per owner (this list only shrinks).
 */
const CROSS_OWNER_READS: readonly Exception[] = [
  ["answering/retrieve/chunk-search-repository.ts agents", "retrieval's ranking SQL (vector, BM25, proximity) is answering's; it filters by the agent's vector-index flag in the search statement"],
  ["conversations/conversation-deletion-repository.ts agents", "a visitor's workspace is its agent's (visitors has no workspace_id): erasure scopes the visitor by it"],
  ["conversations/visitor-export-repository.ts agents", "a visitor's workspace is its agent's (visitors has no workspace_id): the export scopes the visitor by it"],
  ["conversations/visitor-session-repository.ts agents", "the session's conversation is read with its agent's published flag and vertical in one indexed query per request"],
  ["ingest/document-repository.ts agents", "a document is indexed in its agent's default language, read with the document in one statement"],
  ["ingest/index-agent-vectors.ts agents", "a chunk's vector_indexed is its agent's flag at insert (vectorIndexedOf); the upkeep lists flagged agents with chunks left"],
  ["widget/lead-list-repository.ts agents", "the console's lead list shows each lead's agent name, joined in the keyset page"],
  ["wordpress/post-index-repository.ts agents", "a post is indexed in its agent's default language, read with the batch's posts in one statement"],
  ["answering/retrieve/chunk-search-repository.ts chunks", "retrieval's ranking SQL reads ingest's index in one statement per stage; its scoring is answering's"],
  ["answering/retrieve/lexeme-statistics.ts chunks", "BM25's lexeme statistics of an agent's chunks are retrieval's, read from ingest's index"],
  ["answering/retrieve/lexeme-statistics.ts knowledge_revisions", "the statistics are taken at the agent's knowledge revision, read in the statement that counts its chunks, so they are recomputed only when it moved"],
  ["tenants/agent-repository.ts chunks", "the vector-index promotion counts the agent's chunks in the statement that flags the agent"],
  ["wordpress/post-index-repository.ts chunks", "a post's current embedder is read with its document in the batch's one statement"],
  ["conversations/message-repository.ts curated_answers", "a visitor's question is stored with whether the agent has curated answers, one round trip"],
  ["answering/retrieve/chunk-search-repository.ts documents", "the passages of the ranked chunks are read with their documents' URL and title, with the proximity score, in one statement"],
  ["sources/source-schedule-repository.ts documents", "a source is syncing while a document of it is pending, read with the due schedules"],
  ["wordpress/post-index-repository.ts documents", "posts and their documents in one indexed join per batch"],
  ["wordpress/wordpress-post-repository.ts documents", "posts and their documents' states in one indexed join per batch"],
  ["conversations/conversation-analytics-repository.ts events", "the funnel counts widget visitors beside conversations in one statement"],
  ["answering/retrieve/chunk-search-repository.ts knowledge_revisions", "the lexical cache's freshness is the agent's knowledge revision, read with the search"],
  ["conversations/conversation-analytics-repository.ts leads", "the funnel counts leads beside conversations in one statement"],
  ["conversations/conversation-detail-repository.ts operators", "the assignee's name, joined in the console's one-query conversation detail"],
  ["conversations/conversation-list-repository.ts operators", "the assignee's name, joined in the console's keyset page of conversations"],
  ["conversations/conversation-state-repository.ts operators", "the assignee's name, joined when the state is read or locked"],
  ["inbox/inbox-repository.ts operators", "a notification goes to the workspace's operators, read and checked in the insert"],
];

const folderOf = (file: string) => file.slice(0, file.indexOf("/") === -1 ? file.length : file.indexOf("/"));
const key = (access: TableAccess) => `${access.file} ${access.table}`;

describe("one owner per table", () => {
  const tables = new Set(Object.keys(TABLE_OWNERS));
  const accesses = readTableAccess(SOURCE, tables, (file) => file.startsWith("db/migrations/"));
  const outside = accesses.filter((access) => folderOf(access.file) !== TABLE_OWNERS[access.table]);
  const outsideOf = (kind: TableAccess["kind"]) => outside.filter((access) => access.kind === kind).map(key);

  it("happy: every table the migrations create has an owner, and the rules read a real tree", () => {
    expect(readCreatedTables(MIGRATIONS)).toEqual([...tables].sort());
    expect(accesses.filter((access) => access.kind === "write").length).toBeGreaterThan(40);
    expect(accesses.filter((access) => access.kind === "read").length).toBeGreaterThan(70);
  });

  it("happy: a statement's writes and reads are told apart", () => {
    const sql = `WITH gone AS (DELETE FROM leads l USING agents a WHERE a.id = l.agent_id RETURNING l.id)
      UPDATE conversations c SET status = 'open' FROM gone JOIN visitors v ON v.id = gone.id
      ON CONFLICT (id) DO UPDATE SET name = 1 FOR UPDATE OF c`;
    expect(tablesOfSql(sql, tables)).toEqual([
      { kind: "write", table: "leads" },
      { kind: "write", table: "conversations" },
      { kind: "read", table: "agents" },
      { kind: "read", table: "visitors" },
    ]);
  });

  it("security: no SQL names its table through an interpolation, which the rules could not read", () => {
    expect(readInterpolatedTables(SOURCE, (file) => file.startsWith("db/migrations/"))).toEqual([]);
  });

  it.each([
    ["write", CROSS_OWNER_WRITES],
    ["read", CROSS_OWNER_READS],
  ] as const)("security: no file %ss a table outside its owner's folder, except the listed ones", (kind, exceptions) => {
    const listed = new Set(exceptions.map(([access]) => access));
    expect(outsideOf(kind).filter((access) => !listed.has(access))).toEqual([]);
  });

  it.each([
    ["write", CROSS_OWNER_WRITES],
    ["read", CROSS_OWNER_READS],
  ] as const)("security: every listed %s outside the owner still happens (the list only shrinks)", (kind, exceptions) => {
    const found = new Set(outsideOf(kind));
    expect(exceptions.map(([access]) => access).filter((access) => !found.has(access))).toEqual([]);
    expect(new Set(exceptions.map(([access]) => access)).size).toBe(exceptions.length);
  });
});
