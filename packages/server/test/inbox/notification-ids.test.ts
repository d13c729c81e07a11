import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The milliseconds in an id's 8 base62 time characters (docs/behaviour.md, Identifiers). */
function timeOf(id: string): number {
  return [...id.slice(id.indexOf("_") + 1, id.indexOf("_") + 9)].reduce((ms, character) => ms * 62 + ALPHABET.indexOf(character), 0);
}

describeEachStore("inbox notification ids on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  const operatorIds: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
    for (const email of ["ann@ids.test", "bob@ids.test", "cy@ids.test"]) {
      const operator = (await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: tenant.workspaceId, email, name: email })) as { id: string };
      operatorIds.push(operator.id);
    }
  });
  afterAll(() => t.close());

  it("happy: every operator's notification has an id of the documented form (ntf_, 8 time and 14 random base62 characters)", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const before = Date.now();
    const response = await t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(session.jwt), payload: { reason: "ids" } });
    expect(response.statusCode).toBe(200);
    const after = Date.now();
    const { rows } = await t.services.db.query<{ id: string; operator_id: string }>(
      "SELECT id, operator_id FROM inbox_notifications WHERE conversation_id = $1 ORDER BY operator_id",
      [session.conversationId],
    );
    expect(rows.map((row) => row.operator_id)).toEqual([...operatorIds].sort());
    for (const { id } of rows) {
      expect(id).toMatch(/^ntf_[0-9a-zA-Z]{22}$/);
      expect(timeOf(id)).toBeGreaterThanOrEqual(before);
      expect(timeOf(id)).toBeLessThanOrEqual(after);
    }
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  });
});
