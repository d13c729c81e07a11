import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, createSignedInOperator, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

interface Lead {
  id: string;
  agent_id: string;
  agent_name: string;
  conversation_id: string | null;
  visitor_id: string | null;
  email: string;
  name: string | null;
  phone: string | null;
  fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}
interface Page {
  data: Lead[];
  next_cursor: string | null;
}

/** RFC 4180 records of a CSV text (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(cell);
      cell = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      index += 1;
    } else cell += char;
  }
  expect(cell === "" && record.length === 0, "the file ends with CRLF").toBe(true);
  return records;
}

describeEachStore("the console's leads on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;
  const secondAgentId = "agt_leads_second";
  /** The seeded leads' e-mails, newest first. */
  const newestFirst = [
    "widget@visitor.test",
    "zoe@example.org",
    "tie-b@example.com",
    "tie-a@example.com",
    "formula@example.com",
    "quote@example.com",
    "ana.silva@example.com",
  ];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t, { admin: "Ada", agentOperator: "Ana", outsider: "Eve" }));
    const { db } = t.services;
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ($1, $2, 'Second Bot', 'Bo')`, [secondAgentId, tenant.workspaceId]);
    const insert = (id: string, agentId: string, workspaceId: string, email: string, name: string | null, phone: string | null, fields: object, at: string) =>
      db.query(
        `INSERT INTO leads (id, workspace_id, agent_id, email, email_normalized, name, phone, fields, created_at, updated_at)
         VALUES ($1, $2, $3, $4, lower($4), $5, $6, $7::jsonb, $8, $8)`,
        [id, workspaceId, agentId, email, name, phone, JSON.stringify(fields), at],
      );
    await insert("lead_a", tenant.agentId, tenant.workspaceId, "Ana.Silva@Example.com", "Ana Silva", "+351 900", { plan: "pro" }, "2026-01-01T10:00:00Z");
    await insert("lead_b", tenant.agentId, tenant.workspaceId, "quote@example.com", 'Bob "the builder", Jr.\nline two', null, {}, "2026-01-02T10:00:00Z");
    await insert("lead_c", secondAgentId, tenant.workspaceId, "formula@example.com", "=HYPERLINK(\"http://evil\")", "+1 555", { note: "@SUM(A1)" }, "2026-01-03T10:00:00Z");
    // Two leads at the same instant: the id breaks the tie (descending).
    await insert("lead_d1", tenant.agentId, tenant.workspaceId, "tie-a@example.com", "-2+3", null, {}, "2026-01-04T10:00:00.123456Z");
    await insert("lead_d2", tenant.agentId, tenant.workspaceId, "tie-b@example.com", "Tie", null, {}, "2026-01-04T10:00:00.123456Z");
    await insert("lead_e", secondAgentId, tenant.workspaceId, "zoe@example.org", "Zoë", null, {}, "2026-01-05T10:00:00Z");
    await insert("lead_x", other.agentId, other.workspaceId, "ana.other@example.com", "Ana Elsewhere", null, {}, "2026-01-06T10:00:00Z");
    // And one the widget captured, now: the newest.
    const session = await startSession(t.app, tenant.agentId);
    const captured = await t.app.inject({
      method: "POST",
      url: "/api/v1/widget/leads",
      headers: bearer(session.jwt),
      payload: { email: "widget@visitor.test", name: "Walter" },
    });
    expect(captured.statusCode, captured.body).toBeLessThan(300);
  });
  afterAll(() => t.close());

  const get = (session: ConsoleSession | null, url: string) =>
    t.app.inject({ method: "GET", url: `${CONSOLE}${url}`, ...(session ? { headers: session.headers } : {}) });
  const list = async (session: ConsoleSession, query = ""): Promise<Page> => {
    const response = await get(session, `/leads${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const emails = (page: Page) => page.data.map((lead) => lead.email.toLowerCase());

  it("happy: lists the workspace's leads newest first (ties by id, descending) with their agent and every field", async () => {
    const page = await list(admin);
    expect(emails(page)).toEqual(newestFirst);
    expect(page.next_cursor).toBeNull();
    expect(page.data.find((lead) => lead.id === "lead_a")).toEqual({
      id: "lead_a",
      agent_id: tenant.agentId,
      agent_name: "Acme Assistant",
      conversation_id: null,
      visitor_id: null,
      email: "Ana.Silva@Example.com",
      name: "Ana Silva",
      phone: "+351 900",
      fields: { plan: "pro" },
      created_at: "2026-01-01T10:00:00.000Z",
      updated_at: "2026-01-01T10:00:00.000Z",
    });
    const widget = page.data[0]!;
    expect(widget).toMatchObject({ name: "Walter", agent_name: "Acme Assistant" });
    expect(widget.conversation_id).toMatch(/^cnv_/);
    expect(widget.visitor_id).toMatch(/^vis_/);
  });

  it("happy: the cursor pages through every lead once, in order, whatever the page size", async () => {
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Page = await list(admin, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...emails(page));
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual(newestFirst);
    }
  });

  it("happy: q finds part of an e-mail or a name in any case; agent_id keeps one agent's; both combine with paging", async () => {
    expect(emails(await list(admin, "?q=SILVA"))).toEqual(["ana.silva@example.com"]);
    expect(emails(await list(admin, "?q=example.com"))).toEqual(["tie-b@example.com", "tie-a@example.com", "formula@example.com", "quote@example.com", "ana.silva@example.com"]);
    expect(emails(await list(admin, "?q=zo%C3%AB"))).toEqual(["zoe@example.org"]);
    expect(emails(await list(admin, "?q=%25"))).toEqual([]);
    expect(emails(await list(admin, `?agent_id=${secondAgentId}`))).toEqual(["zoe@example.org", "formula@example.com"]);
    expect(emails(await list(admin, `?agent_id=${secondAgentId}&q=zoe`))).toEqual(["zoe@example.org"]);
    const first = await list(admin, `?q=example.com&limit=2`);
    expect(emails(first)).toEqual(["tie-b@example.com", "tie-a@example.com"]);
    const second = await list(admin, `?q=example.com&limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(emails(second)).toEqual(["formula@example.com", "quote@example.com"]);
  });

  it("happy: an agent-role operator reads the leads too", async () => {
    expect(emails(await list(agentOperator))).toEqual(newestFirst);
  });

  it("security: another workspace's leads are never listed or exported, even naming its agent", async () => {
    expect(emails(await list(outsider))).toEqual(["ana.other@example.com"]);
    expect(emails(await list(admin, `?agent_id=${other.agentId}`))).toEqual([]);
    expect(emails(await list(admin, "?q=elsewhere"))).toEqual([]);
    const file = await get(admin, `/leads.csv?agent_id=${other.agentId}`);
    expect(parseCsv(file.body)).toHaveLength(1);
    expect(parseCsv((await get(outsider, "/leads.csv")).body).slice(1).map((row) => row[0])).toEqual(["ana.other@example.com"]);
  });

  it("security: without a session both routes are 401 unauthenticated", async () => {
    for (const url of ["/leads", "/leads.csv"]) {
      const response = await get(null, url);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("unauthenticated");
    }
  });

  it("error: a bad cursor, limit, q or agent_id is 422 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["?cursor=bm90LWEtY3Vyc29y", "querystring.cursor"],
      [`?cursor=${Buffer.from(JSON.stringify(["soon", "lead_a"])).toString("base64url")}`, "querystring.cursor"],
      ["?limit=0", "querystring.limit"],
      ["?limit=101", "querystring.limit"],
      [`?q=${"a".repeat(201)}`, "querystring.q"],
      ["?agent_id=a%20b", "querystring.agent_id"],
    ];
    for (const [query, field] of cases) {
      const response = await get(admin, `/leads${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields), query).toContain(field);
    }
    expect((await get(admin, "/leads.csv?agent_id=%00")).statusCode).toBe(422);
  });

  it("happy: the CSV export is an attachment with a header, every lead newest first, correct quoting and no formula a spreadsheet would run", async () => {
    const response = await get(admin, "/leads.csv");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual(["email", "name", "phone", "agent", "created_at", "updated_at", "conversation_id", "fields"]);
    expect(rows.map((row) => row[0]!.toLowerCase())).toEqual(newestFirst);
    const row = (email: string) => rows.find((cells) => cells[0] === email)!;
    expect(row("quote@example.com")).toEqual(["quote@example.com", 'Bob "the builder", Jr.\nline two', "", "Acme Assistant", "2026-01-02T10:00:00.000Z", "2026-01-02T10:00:00.000Z", "", ""]);
    expect(row("formula@example.com")).toEqual([
      "formula@example.com",
      "'=HYPERLINK(\"http://evil\")",
      "'+1 555",
      "Second Bot",
      "2026-01-03T10:00:00.000Z",
      "2026-01-03T10:00:00.000Z",
      "",
      '{"note":"@SUM(A1)"}',
    ]);
    expect(row("tie-a@example.com")[1]).toBe("'-2+3");
    expect(row("Ana.Silva@Example.com")[7]).toBe('{"plan":"pro"}');
    // The raw text: quotes doubled inside a quoted cell.
    expect(response.body).toContain('"Bob ""the builder"", Jr.\nline two"');
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it("happy: the export applies q and agent_id, and pages through a big workspace without losing or repeating a lead", async () => {
    const filtered = parseCsv((await get(admin, `/leads.csv?q=example&agent_id=${secondAgentId}`)).body);
    expect(filtered.slice(1).map((row) => row[0])).toEqual(["zoe@example.org", "formula@example.com"]);

    const big = await seedTenant(t.services);
    const owner = await createSignedInOperator(t, { workspaceId: big.workspaceId, role: "admin" });
    await t.services.db.query(
      `INSERT INTO leads (id, workspace_id, agent_id, email, email_normalized, created_at)
       SELECT 'lead_big_' || g, $1, $2, 'big' || g || '@example.com', 'big' || g || '@example.com',
         timestamptz '2026-02-01T00:00:00Z' + (g / 3) * interval '1 second'
       FROM generate_series(1, 1203) g`,
      [big.workspaceId, big.agentId],
    );
    const rows = parseCsv((await get(owner, "/leads.csv")).body).slice(1);
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((row) => row[0])).size).toBe(1203);
    const times = rows.map((row) => row[4]!);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
