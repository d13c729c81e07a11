import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { BIN, freePort, json, run, startServer, stopServer, type Run } from "./cli-process.js";

const PASSWORD = "a passphrase for the cli";

/** Runs `bin/frontdesk …` with `input` on its standard input. */
function runWithInput(env: Record<string, string>, input: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}

const errorOf = (result: Run) => {
  expect(result.code, result.stdout).not.toBe(0);
  return (JSON.parse(result.stderr.split("\n")[0]!) as { error: { code: string; message: string; fields?: Record<string, string[]> } }).error;
};

describeEachStore("admin operator commands on %s", (kind) => {
  let env: Record<string, string>;
  let database: TestDatabase | null = null;

  beforeAll(async () => {
    env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore(kind, "frontdesk-operators-"), FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("happy: create (roles, a set-password link), set-password from stdin, sign-in, remove: on the store and through a running server", async () => {
    const port = await freePort();
    const serverEnv = { ...env, FRONTDESK_PUBLIC_URL: `http://127.0.0.1:${port}` };
    const workspace = json(await run(serverEnv, "admin", "workspace", "create", "--name", "Acme"));
    const admin = json(await run(serverEnv, "admin", "operator", "create", "--workspace", workspace.id, "--email", "ana@acme.test", "--name", "Ana"));
    expect(admin).toMatchObject({ role: "admin", password_set: false, set_password_url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:${port}/console/set-password#token=[A-Za-z0-9_-]{43}$`)) });
    const agent = json(await run(serverEnv, "admin", "operator", "create", "--workspace", workspace.id, "--email", "bob@acme.test", "--name", "Bob", "--role", "agent"));
    expect(agent.role).toBe("agent");
    // On the store directly, with the trailing newline echo adds.
    expect(json(await runWithInput(serverEnv, `${PASSWORD}\n`, "admin", "operator", "set-password", admin.id, "--password-stdin"))).toMatchObject({ id: admin.id, password_set: true });

    const { child: server, log } = await startServer(serverEnv, port);
    try {
      const signIn = (email: string, password: string) =>
        fetch(`http://127.0.0.1:${port}/api/v1/console/session`, {
          method: "POST",
          headers: { origin: `http://127.0.0.1:${port}`, "content-type": "application/json" },
          body: JSON.stringify({ email, password }),
        });
      const signedIn = await signIn("ana@acme.test", PASSWORD);
      expect(signedIn.status).toBe(200);
      const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
      const me = () => fetch(`http://127.0.0.1:${port}/api/v1/console/me`, { headers: { cookie } });
      expect(((await (await me()).json()) as { data: { role: string } }).data.role).toBe("admin");

      // Through the running server: the agent's password, and the admin's removal ending her session.
      expect(json(await runWithInput(serverEnv, PASSWORD, "admin", "operator", "set-password", agent.id, "--password-stdin")).password_set).toBe(true);
      expect((await signIn("bob@acme.test", PASSWORD)).status).toBe(200);
      expect(json(await run(serverEnv, "admin", "operator", "remove", admin.id))).toMatchObject({ id: admin.id, removed: true });
      expect((await me()).status).toBe(401);
    } finally {
      await stopServer(server);
    }
    expect(server.exitCode, log()).toBe(0);
  }, 300_000);

  // Its refusals come from the CLI's parsing and the use cases the in-process tests run on both
  // stores: through the binary they are checked once, on the embedded store.
  if (kind === "pglite")
    it("error: a weak password, an unknown role or operator, a missing --password-stdin", async () => {
      const workspace = json(await run(env, "admin", "workspace", "create", "--name", "Errors"));
      const operator = json(await run(env, "admin", "operator", "create", "--workspace", workspace.id, "--email", "weak@acme.test", "--name", "Weak"));
      const weak = errorOf(await runWithInput(env, "qwertyuiop\n", "admin", "operator", "set-password", operator.id, "--password-stdin"));
      expect(weak).toMatchObject({ code: "validation_failed", fields: { password: [expect.stringMatching(/most common/)] } });
      expect(errorOf(await runWithInput(env, "short", "admin", "operator", "set-password", operator.id, "--password-stdin")).fields?.password?.[0]).toMatch(/10 characters/);
      expect(errorOf(await runWithInput(env, PASSWORD, "admin", "operator", "set-password", "op_missing", "--password-stdin"))).toMatchObject({ code: "not_found" });
      expect(errorOf(await run(env, "admin", "operator", "remove", "op_missing"))).toMatchObject({ code: "not_found" });
      expect(errorOf(await run(env, "admin", "operator", "create", "--workspace", workspace.id, "--email", "x@acme.test", "--name", "X", "--role", "owner"))).toMatchObject({ code: "validation_failed" });
      expect(errorOf(await run(env, "admin", "operator", "create", "--workspace", workspace.id, "--email", "WEAK@acme.test", "--name", "Again"))).toMatchObject({ code: "validation_failed", fields: { email: ["already taken"] } });
      const usage = await run(env, "admin", "operator", "set-password", operator.id);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/--password-stdin/);
      expect(json(await run(env, "admin", "operator", "password-link", operator.id)).set_password_url).toMatch(/\/console\/set-password#token=/);
    }, 300_000);
});
