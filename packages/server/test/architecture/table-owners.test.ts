import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readCreatedTables, readTableAccess, tablesOfSql, type TableAccess } from "./table-access.js";
import { TABLE_OWNERS } from "./table-owners.js";

const SOURCE = fileURLToPath(new URL("../../src", import.meta.url));
const MIGRATIONS = fileURLToPath(new URL("../../src/db/migrations", import.meta.url));

/** A table named outside its owner's folder that has not been moved yet: `file table`, and why. */
type Exception = readonly [access: string, reason: string];

/** Writes still outside their table's owner (this list only shrinks). */
const CROSS_OWNER_WRITES: readonly Exception[] = [
  ["widget/session-repository.ts conversation_counters", "not moved to its owner yet"],
  ["console/conversation-detail-repository.ts conversation_reads", "not moved to its owner yet"],
  ["answering/message-repository.ts conversations", "not moved to its owner yet"],
  ["widget/conversation-repository.ts conversations", "not moved to its owner yet"],
  ["widget/lead-repository.ts conversations", "not moved to its owner yet"],
  ["widget/session-repository.ts conversations", "not moved to its owner yet"],
  ["answering/message-repository.ts messages", "not moved to its owner yet"],
  ["widget/session-repository.ts visitors", "not moved to its owner yet"],
];

/** Reads (FROM, JOIN) outside their table's owner: each a join its owner does not offer yet (this list only shrinks). */
const CROSS_OWNER_READS: readonly Exception[] = [
  ["answering/retrieve/chunk-search-repository.ts agents", "not moved to its owner yet"],
  ["console/leads/lead-list-repository.ts agents", "not moved to its owner yet"],
  ["conversations/conversation-deletion-repository.ts agents", "a visitor's workspace is its agent's (visitors has no workspace_id)"],
  ["ingest/document-repository.ts agents", "not moved to its owner yet"],
  ["ingest/index-agent-vectors.ts agents", "not moved to its owner yet"],
  ["privacy/export-visitor-data.ts agents", "not moved to its owner yet"],
  ["widget/session-repository.ts agents", "not moved to its owner yet"],
  ["wordpress/post-index-repository.ts agents", "not moved to its owner yet"],
  ["answering/retrieve/chunk-search-repository.ts chunks", "not moved to its owner yet"],
  ["answering/retrieve/lexeme-statistics.ts chunks", "not moved to its owner yet"],
  ["tenants/agent-repository.ts chunks", "the vector-index promotion counts the agent's chunks in the statement that flags the agent"],
  ["wordpress/post-index-repository.ts chunks", "not moved to its owner yet"],
  ["console/usage/workspace-usage-repository.ts conversation_counters", "not moved to its owner yet"],
  ["console/conversation-detail-repository.ts conversation_reads", "not moved to its owner yet"],
  ["console/conversation-list-repository.ts conversation_reads", "not moved to its owner yet"],
  ["console/conversation-channel-repository.ts conversations", "not moved to its owner yet"],
  ["console/conversation-detail-repository.ts conversations", "not moved to its owner yet"],
  ["console/conversation-list-repository.ts conversations", "not moved to its owner yet"],
  ["console/curated/curated-answer-repository.ts conversations", "not moved to its owner yet"],
  ["console/curated/knowledge-gap-repository.ts conversations", "not moved to its owner yet"],
  ["privacy/export-visitor-data.ts conversations", "not moved to its owner yet"],
  ["widget/conversation-repository.ts conversations", "not moved to its owner yet"],
  ["widget/session-repository.ts conversations", "not moved to its owner yet"],
  ["widget/visitor-lock.ts conversations", "not moved to its owner yet"],
  ["answering/message-repository.ts curated_answers", "not moved to its owner yet"],
  ["answering/retrieve/chunk-search-repository.ts documents", "not moved to its owner yet"],
  ["sources/source-schedule-repository.ts documents", "not moved to its owner yet"],
  ["wordpress/post-index-repository.ts documents", "not moved to its owner yet"],
  ["wordpress/wordpress-post-repository.ts documents", "not moved to its owner yet"],
  ["console/analytics/analytics-repository.ts events", "not moved to its owner yet"],
  ["privacy/export-visitor-data.ts events", "not moved to its owner yet"],
  ["answering/retrieve/chunk-search-repository.ts knowledge_revisions", "not moved to its owner yet"],
  ["console/analytics/analytics-repository.ts leads", "not moved to its owner yet"],
  ["console/leads/lead-list-repository.ts leads", "not moved to its owner yet"],
  ["privacy/export-visitor-data.ts leads", "not moved to its owner yet"],
  ["answering/message-repository.ts messages", "not moved to its owner yet"],
  ["console/analytics/analytics-repository.ts messages", "not moved to its owner yet"],
  ["console/conversation-detail-repository.ts messages", "not moved to its owner yet"],
  ["console/conversation-list-repository.ts messages", "not moved to its owner yet"],
  ["console/curated/curated-answer-repository.ts messages", "not moved to its owner yet"],
  ["console/curated/knowledge-gap-repository.ts messages", "not moved to its owner yet"],
  ["privacy/export-visitor-data.ts messages", "not moved to its owner yet"],
  ["widget/session-repository.ts messages", "not moved to its owner yet"],
  ["console/conversation-detail-repository.ts operators", "not moved to its owner yet"],
  ["console/conversation-list-repository.ts operators", "not moved to its owner yet"],
  ["conversations/conversation-state-repository.ts operators", "not moved to its owner yet"],
  ["inbox/inbox-repository.ts operators", "not moved to its owner yet"],
  ["console/conversation-detail-repository.ts visitors", "not moved to its owner yet"],
  ["console/conversation-list-repository.ts visitors", "not moved to its owner yet"],
  ["privacy/export-visitor-data.ts visitors", "not moved to its owner yet"],
  ["widget/visitor-lock.ts visitors", "not moved to its owner yet"],
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
