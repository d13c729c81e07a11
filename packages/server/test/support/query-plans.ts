import type { Queryable, QueryResult, SqlValue } from "../../src/db/database.js";

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
