import type { Database, Queryable, QueryResult, SqlValue } from "../../src/db/database.js";

/** A node of `EXPLAIN (FORMAT JSON)`'s plan, with the members the index tests read. */
export interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/** Runs each statement for real, after recording (flattened) the plan the store chose for it. */
export function explaining(tx: Queryable, plans: PlanNode[][]): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
      const { rows } = await tx.query<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      const raw = rows[0]!["QUERY PLAN"];
      const explained = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
      plans.push(nodesOf(explained[0].Plan));
      return tx.query<Row>(sql, params);
    },
  };
}

/**
 * The flattened plan nodes of every statement `read` runs, in one transaction on `db` (the reads
 * run for real); `settings` (`SET LOCAL …`) are applied first, e.g. to forbid what a tiny table
 * would rightly get.
 */
export async function plansOf(db: Database, read: (tx: Queryable) => Promise<unknown>, settings: string[] = []): Promise<PlanNode[]> {
  const plans: PlanNode[][] = [];
  await db.transaction(async (tx) => {
    for (const setting of settings) await tx.query(setting);
    await read(explaining(tx, plans));
  });
  return plans.flat();
}

/** The indexes the plan reads. */
export const indexesOf = (nodes: PlanNode[]): string[] => nodes.flatMap((node) => (node["Index Name"] ? [node["Index Name"]] : []));

/** The plan's whole-table scans of any of `tables` (the big ones: a small table is rightly scanned). */
export const scansOf = (nodes: PlanNode[], tables: string[]): PlanNode[] =>
  nodes.filter((node) => node["Node Type"] === "Seq Scan" && tables.includes(node["Relation Name"] ?? ""));
