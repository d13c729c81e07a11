import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sendAdminCommand } from "../../src/admin/admin-socket.js";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { freePort, json, run, startServer, stopServer, type Run } from "./cli-process.js";

interface CliError {
  code: string;
  message: string;
  fields?: Record<string, string[]>;
}

function errorOf(result: Run): CliError {
  expect(result.code, result.stdout).toBe(1);
  expect(result.stdout).toBe("");
  return (JSON.parse(result.stderr) as { error: CliError }).error;
}

describeEachStore("admin agent update on %s", (kind) => {
  let env: Record<string, string>;
  let database: TestDatabase | null = null;
  let workspaceId: string;
  const admin = (...args: string[]) => run(env, "admin", ...args);

  beforeAll(async () => {
    env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore(kind, "frontdesk-update-"), FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
    workspaceId = json(await admin("workspace", "create", "--name", "Acme")).id;
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("happy: on the store directly, update sets every setting agent create takes, and --no-X puts one back to its default", async () => {
    const agent = json(
      await admin("agent", "create", "--workspace", workspaceId, "--name", "Shop bot", "--origin", "https://shop.test", "--persona-name", "Sam",
        "--tone", "upbeat", "--primary-color", "#ff6600", "--starter-prompt", "Track my order", "--language", "fr"),
    );
    const updated = json(
      await admin("agent", "update", agent.id, "--name", "Help desk", "--origin", "https://help.test", "--origin", "https://*.help.test",
        "--vertical", "ecommerce", "--persona-name", "Max", "--tone", "calm", "--primary-color", "#123456", "--starter-prompt", "Opening hours?",
        "--starter-prompt", "Returns?", "--language", "pt-BR"),
    );
    expect(updated).toEqual({
      ...agent,
      name: "Help desk",
      allowed_origins: ["https://help.test", "https://*.help.test"],
      vertical: "ecommerce",
      persona: { name: "Max", tone: "calm" },
      theme: { primary: "#123456" },
      starter_prompts: ["Opening hours?", "Returns?"],
      language_default: "pt-BR",
      updated_at: expect.any(String),
    });
    expect(Date.parse(String(updated.updated_at))).toBeGreaterThan(Date.parse(String(agent.updated_at)));

    // Only what is named changes; --no-X is what agent create gives when X is not set.
    const cleared = json(await admin("agent", "update", agent.id, "--no-persona-name", "--no-tone", "--no-primary-color", "--no-starter-prompts", "--no-language"));
    expect(cleared).toMatchObject({
      name: "Help desk",
      allowed_origins: ["https://help.test", "https://*.help.test"],
      vertical: "ecommerce",
      persona: { name: "Help desk", tone: "friendly" },
      theme: { primary: "#2563eb" },
      starter_prompts: [],
      language_default: "en",
    });
    const listed = JSON.parse((await admin("agent", "list", "--workspace", workspaceId)).stdout) as unknown[];
    expect(listed).toContainEqual(cleared);
  }, 300_000);

  // Its refusals come from the CLI's parsing and the use cases the in-process tests run on both
  // stores: through the binary they are checked once, on the embedded store.
  if (kind === "pglite")
    it("error: on the store directly, a bad value names its field, an unknown id is not found, and nothing changes", async () => {
      const agent = json(await admin("agent", "create", "--workspace", workspaceId, "--name", "Keep", "--origin", "https://keep.test", "--language", "de"));
      const bad = errorOf(await admin("agent", "update", agent.id, "--name", "Changed", "--primary-color", "orange"));
      expect(bad).toMatchObject({ code: "validation_failed", message: expect.stringContaining("primaryColor"), fields: { primaryColor: ["a hex colour such as #2563eb"] } });
      expect(errorOf(await admin("agent", "update", "agt_missing", "--name", "x"))).toMatchObject({ code: "not_found", message: "No agent agt_missing." });

      const both = await admin("agent", "update", agent.id, "--language", "fr", "--no-language");
      expect(both.code).toBe(2);
      expect(JSON.parse(both.stderr.split("\n")[0]!).error).toMatchObject({ code: "usage", message: "--language and --no-language cannot go together" });
      expect((await admin("agent", "update", "--name", "x")).code).toBe(2);

      const listed = JSON.parse((await admin("agent", "list", "--workspace", workspaceId)).stdout) as unknown[];
      expect(listed).toContainEqual(agent);
    }, 300_000);

  it("happy: office hours from a JSON file, the away message and the reply time; a bad zone or overlap names its field; --no-X clears each", async () => {
    const agent = json(await admin("agent", "create", "--workspace", workspaceId, "--name", "Hours", "--origin", "https://hours.test"));
    const dir = await mkdtemp(join(tmpdir(), "frontdesk-hours-"));
    const file = (name: string, value: unknown) => writeFile(join(dir, name), JSON.stringify(value)).then(() => join(dir, name));
    const week = { time_zone: "America/New_York", days: { mon: [{ open: "08:00", close: "12:00" }, { open: "13:00", close: "18:00" }], sat: [] } };
    const set = json(await admin("agent", "update", agent.id, "--office-hours-file", await file("week.json", week), "--away-message", "Back on Monday.", "--reply-time", "minutes"));
    expect(set).toMatchObject({ office_hours: week, away_message: "Back on Monday.", reply_time: "minutes" });

    const badZone = errorOf(await admin("agent", "update", agent.id, "--office-hours-file", await file("zone.json", { ...week, time_zone: "New York" })));
    expect(badZone).toMatchObject({ code: "validation_failed", fields: { "officeHours.time_zone": ["an IANA time zone such as Europe/Paris or America/New_York"] } });
    const overlap = { time_zone: "UTC", days: { tue: [{ open: "09:00", close: "12:00" }, { open: "11:00", close: "14:00" }] } };
    expect(errorOf(await admin("agent", "update", agent.id, "--office-hours-file", await file("overlap.json", overlap))).fields).toEqual({ "officeHours.days.tue.1.open": ["overlaps the interval 09:00–12:00"] });
    expect(errorOf(await admin("agent", "update", agent.id, "--reply-time", "soon")).fields).toHaveProperty("replyTime");
    const notObject = await admin("agent", "update", agent.id, "--office-hours-file", await file("array.json", []));
    expect(notObject.code).toBe(2);

    const cleared = json(await admin("agent", "update", agent.id, "--no-office-hours", "--no-away-message", "--no-reply-time"));
    expect(cleared).toMatchObject({ office_hours: null, away_message: null, reply_time: null });
  }, 300_000);

  it("happy: through the running server, a change is seen by widget init at once, with the same validation", async () => {
    const agent = json(await admin("agent", "create", "--workspace", workspaceId, "--name", "Live", "--origin", "https://old.test"));
    const port = await freePort();
    const { child: server, log } = await startServer(env, port);
    const init = (origin: string) =>
      fetch(`http://127.0.0.1:${port}/api/v1/widget/init`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ agent_id: agent.id, page_url: `${origin}/` }),
      });
    try {
      expect((await init("https://old.test")).status).toBe(200); // the server now holds the agent in its cache
      // Sent straight to the socket (no process to start), so the init below runs well inside the cache's two seconds.
      const reply = await sendAdminCommand(env.FRONTDESK_DATA_DIR!, {
        command: "agent.update",
        agentId: agent.id,
        origins: ["https://new.test"],
        primaryColor: "#00aa00",
        starterPrompts: ["Hello?"],
      });
      expect(reply).toMatchObject({ ok: true, result: { allowed_origins: ["https://new.test"] } });
      const refused = await init("https://old.test");
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("origin_forbidden");
      const accepted = await init("https://new.test");
      expect(accepted.status).toBe(200);
      expect(((await accepted.json()) as { data: { agent: unknown } }).data.agent).toMatchObject({ theme: { primary: "#00aa00" }, starter_prompts: ["Hello?"] });

      // The CLI through the socket: the same command, the same validation.
      const viaCli = json(await admin("agent", "update", agent.id, "--origin", "https://cli.test", "--language", "es"));
      expect(viaCli).toMatchObject({ allowed_origins: ["https://cli.test"], language_default: "es", theme: { primary: "#00aa00" } });
      expect((await init("https://new.test")).status).toBe(403);
      expect((await init("https://cli.test")).status).toBe(200);

      // Through the socket too, every bad value names its field and changes nothing.
      const fieldsOf = async (...args: string[]) => {
        const error = errorOf(await admin("agent", "update", agent.id, ...args));
        expect(error.code).toBe("validation_failed");
        return error.fields;
      };
      expect(await fieldsOf("--primary-color", "green")).toEqual({ primaryColor: ["a hex colour such as #2563eb"] });
      expect(await fieldsOf("--language", "")).toHaveProperty("language");
      expect(await fieldsOf("--name", " ")).toHaveProperty("name");
      expect(await fieldsOf("--vertical", "retail")).toHaveProperty("vertical");
      expect(await fieldsOf("--persona-name", "x".repeat(101))).toHaveProperty("personaName");
      expect(await fieldsOf(...Array.from({ length: 11 }, (_, index) => ["--starter-prompt", `Prompt ${index}`]).flat())).toHaveProperty("starterPrompts");
      expect(await fieldsOf("--origin", "https://ok.test", "--origin", "not a url")).toEqual({ origin: ["'not a url' is not an origin"] });
      expect(await fieldsOf()).toEqual({ command: ["give at least one setting to change"] });
      expect(errorOf(await admin("agent", "update", "agt_missing", "--tone", "dry")).code).toBe("not_found");
      expect((await init("https://cli.test")).status).toBe(200);
    } finally {
      await stopServer(server);
    }
    expect(server.exitCode, log()).toBe(0);
  }, 300_000);
});
