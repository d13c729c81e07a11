import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { AppError } from "../../src/http/app-error.js";
import { json, run } from "../cli/cli-process.js";
import { adminOf, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";

const RULES = [
  { id: "pricing-hello", trigger: { type: "page", url: "/pricing*" }, action: { type: "message", text: "Questions about plans? Ask me." } },
  { id: "linger", trigger: { type: "time_on_page", seconds: 30, url: "/products/*" }, action: { type: "open" } },
  { id: "deep-read", trigger: { type: "scroll", percent: 60 }, action: { type: "cta", text: "Still looking?", label: "See the sale", url: "https://shop.example.com/sale", coupon: "SPRING-20" } },
  { id: "leaving", trigger: { type: "exit_intent" }, action: { type: "message", text: "Before you go: free returns for 30 days." } },
];

/** The AppError a command throws (the CLI prints it; through the admin socket it is the same). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describeEachStore("proactive rules (behavior_rules) on %s", (kind) => {
  let t: TestApp;
  let shop: Tenant;
  let blog: Tenant;
  const update = (agentId: string, behaviorRules: unknown, extra: Record<string, unknown> = {}) =>
    runAdminCommand(adminOf(t.services), { command: "agent.update", agentId, behaviorRules: behaviorRules as never, ...extra });
  const initRules = async (agentId: string) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/widget/init",
      headers: { origin: SITE_ORIGIN },
      payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/pricing` },
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { data: { behavior_rules: unknown[] } }).data.behavior_rules;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    shop = await seedTenant(t.services, { vertical: "ecommerce" });
    blog = await seedTenant(t.services, { vertical: "general" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("happy: agent update stores every kind of trigger and action, init returns them as stored, and [] removes them", async () => {
    expect(await initRules(shop.agentId)).toEqual([]);
    const updated = (await update(shop.agentId, RULES)) as { behavior_rules: unknown[] };
    expect(updated.behavior_rules).toEqual(RULES);
    expect(await initRules(shop.agentId)).toEqual(RULES);
    // Other settings are untouched by a rules-only update, and rules by an update of other settings.
    const renamed = (await runAdminCommand(adminOf(t.services), { command: "agent.update", agentId: shop.agentId, name: "Shop" })) as { behavior_rules: unknown[]; vertical: string };
    expect(renamed).toMatchObject({ behavior_rules: RULES, vertical: "ecommerce" });
    expect(((await update(shop.agentId, [])) as { behavior_rules: unknown[] }).behavior_rules).toEqual([]);
    expect(await initRules(shop.agentId)).toEqual([]);
  });

  it("happy/error: POST /rules reads them for an allowed page without starting a conversation; another origin, an unknown agent, a bad body are refused", async () => {
    await update(shop.agentId, RULES);
    const rules = (agentId: string, origin = SITE_ORIGIN, pageUrl = `${SITE_ORIGIN}/`) =>
      t.app.inject({ method: "POST", url: "/api/v1/widget/rules", headers: { origin }, payload: { agent_id: agentId, page_url: pageUrl } });
    const conversationsBefore = (await t.services.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM conversations`)).rows[0]!.count;
    const ok = await rules(shop.agentId);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { behavior_rules: RULES } });
    expect((await t.services.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM conversations`)).rows[0]!.count).toBe(conversationsBefore);
    const refused = await rules(shop.agentId, "https://evil.example");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("origin_forbidden");
    expect((await rules("agt_missing")).json().error.code).toBe("agent_not_found");
    const bad = await rules(shop.agentId, SITE_ORIGIN, "not a url");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields).toHaveProperty("page_url");
  });

  it("error: each invalid rule is refused with its field named (validation_failed, 422), and nothing is stored", async () => {
    await update(blog.agentId, [RULES[0]]);
    const fieldsOf = async (rules: unknown) => {
      const error = await refusal(update(blog.agentId, rules));
      expect(error.code).toBe("validation_failed");
      expect(error.status).toBe(422);
      return error.fields;
    };
    expect(await fieldsOf([{ ...RULES[0], id: "no spaces" }])).toEqual({ "behaviorRules.0.id": ["letters, digits, '_', '.' and '-' only"] });
    expect(await fieldsOf([RULES[0], { ...RULES[3], id: "pricing-hello" }])).toEqual({ "behaviorRules.1.id": ["the id 'pricing-hello' is used twice"] });
    expect(Object.keys((await fieldsOf([{ ...RULES[0], trigger: { type: "hover" } }]))!)).toEqual(["behaviorRules.0.trigger.type"]);
    expect(Object.keys((await fieldsOf([{ ...RULES[0], trigger: { type: "page" } }]))!)).toEqual(["behaviorRules.0.trigger.url"]);
    expect(await fieldsOf([{ ...RULES[0], trigger: { type: "page", url: "pricing" } }])).toEqual({
      "behaviorRules.0.trigger.url": ["a path such as /pricing or /blog/*, or a whole URL starting with http(s)://"],
    });
    expect(Object.keys((await fieldsOf([{ ...RULES[1], trigger: { type: "time_on_page", seconds: -1 } }]))!)).toEqual(["behaviorRules.0.trigger.seconds"]);
    expect(Object.keys((await fieldsOf([{ ...RULES[2], trigger: { type: "scroll", percent: 150 } }]))!)).toEqual(["behaviorRules.0.trigger.percent"]);
    expect(Object.keys((await fieldsOf([{ ...RULES[0], action: { type: "message", text: " " } }]))!)).toEqual(["behaviorRules.0.action.text"]);
    expect(Object.keys((await fieldsOf([{ ...RULES[2], action: { type: "cta", label: "Go", url: "javascript:alert(1)" } }]))!)).toEqual(["behaviorRules.0.action.url"]);
    expect(Object.keys((await fieldsOf([{ ...RULES[0], action: { type: "open", extra: true } }]))!)).toEqual(["behaviorRules.0.action"]);
    expect(Object.keys((await fieldsOf([{ ...RULES[0], delay: 3 }]))!)).toEqual(["behaviorRules.0"]);
    expect(await fieldsOf({ rules: [] })).toHaveProperty("behaviorRules");
    expect(Object.keys((await fieldsOf(Array.from({ length: 21 }, (_, index) => ({ ...RULES[3], id: `r${index}` }))))!)).toEqual(["behaviorRules"]);
    // A coupon is for e-commerce agents only.
    const coupon = await refusal(update(blog.agentId, [RULES[2]]));
    expect(coupon).toMatchObject({ code: "validation_failed", fields: { "behaviorRules.0.action.coupon": ["coupons are for e-commerce agents only (--vertical ecommerce)"] } });
    expect(coupon.message).toContain("--vertical ecommerce");
    expect(await initRules(blog.agentId)).toEqual([RULES[0]]);
  });

  it("error: an e-commerce agent whose rules offer coupons cannot become general until they go; with the rules in the same update it can", async () => {
    await update(shop.agentId, RULES);
    const error = await refusal(runAdminCommand(adminOf(t.services), { command: "agent.update", agentId: shop.agentId, vertical: "general" }));
    expect(error).toMatchObject({ code: "validation_failed", fields: { "behaviorRules.2.action.coupon": [expect.any(String)] } });
    expect(await initRules(shop.agentId)).toEqual(RULES);
    const withoutCoupon = RULES.filter((rule) => rule.id !== "deep-read");
    expect(await update(shop.agentId, withoutCoupon, { vertical: "general" })).toMatchObject({ vertical: "general", behavior_rules: withoutCoupon });
    await update(shop.agentId, RULES, { vertical: "ecommerce" });
  });
});

describeEachStore("admin agent update --behavior-rules-file on %s", (kind) => {
  let env: Record<string, string>;
  let database: TestDatabase | null = null;
  let agentId: string;
  let directory: string;
  const admin = (...args: string[]) => run(env, "admin", ...args);

  beforeAll(async () => {
    directory = await dataDirWithMigratedStore(kind, "frontdesk-rules-");
    env = { FRONTDESK_DATA_DIR: directory, FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
    const workspaceId = json(await admin("workspace", "create", "--name", "Acme")).id;
    agentId = json(await admin("agent", "create", "--workspace", workspaceId, "--name", "Shop", "--origin", "https://shop.test", "--vertical", "ecommerce")).id;
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("happy: the file's rules replace the agent's, agent list shows them, and --no-behavior-rules removes them", async () => {
    const file = join(directory, "rules.json");
    await writeFile(file, JSON.stringify(RULES, null, 2));
    expect(json(await admin("agent", "update", agentId, "--behavior-rules-file", file)).behavior_rules).toEqual(RULES);
    expect(json(await admin("agent", "update", agentId, "--no-behavior-rules")).behavior_rules).toEqual([]);
  }, 120_000);

  it("error: a missing file, a file that is not JSON or not an array are usage errors (exit 2); a bad rule names its field (exit 1)", async () => {
    const usage = async (...args: string[]) => {
      const result = await admin("agent", "update", agentId, ...args);
      expect(result.code, result.stderr).toBe(2);
      return (JSON.parse(result.stderr.split("\n")[0]!) as { error: { code: string; message: string } }).error;
    };
    expect(await usage("--behavior-rules-file", join(directory, "missing.json"))).toEqual({ code: "usage", message: `--behavior-rules-file: cannot read ${join(directory, "missing.json")} (ENOENT)` });
    const notJson = join(directory, "broken.json");
    await writeFile(notJson, "[{ id: 1 ");
    expect((await usage("--behavior-rules-file", notJson)).message).toMatch(new RegExp(`^--behavior-rules-file: ${notJson} is not JSON \\(`));
    const object = join(directory, "object.json");
    await writeFile(object, JSON.stringify({ behavior_rules: RULES }));
    expect((await usage("--behavior-rules-file", object)).message).toBe(`--behavior-rules-file: ${object} must hold a JSON array of rules ([] removes them all)`);
    expect((await usage("--behavior-rules-file", object, "--no-behavior-rules")).message).toBe("--behavior-rules-file and --no-behavior-rules cannot go together");

    const bad = join(directory, "bad.json");
    await writeFile(bad, JSON.stringify([{ ...RULES[0], trigger: { type: "scroll", percent: 0 } }]));
    const result = await admin("agent", "update", agentId, "--behavior-rules-file", bad);
    expect(result.code).toBe(1);
    const error = (JSON.parse(result.stderr) as { error: { code: string; message: string; fields: Record<string, string[]> } }).error;
    expect(error).toMatchObject({ code: "validation_failed", message: expect.stringContaining("behaviorRules.0.trigger.percent") });
    expect(Object.keys(error.fields)).toEqual(["behaviorRules.0.trigger.percent"]);
  }, 120_000);
});
