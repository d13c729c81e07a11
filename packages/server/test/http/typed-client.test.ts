import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { SITE_ORIGIN, adminOf, seedTenant, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const run = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const programSource = fileURLToPath(new URL("./typed-client/client-program.ts", import.meta.url));
const tsc = join(repositoryRoot, "node_modules/typescript/bin/tsc");

const clientTsconfig = {
  compilerOptions: {
    target: "ES2023",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    types: ["node"],
    rootDir: ".",
    outDir: "out",
  },
  include: ["*.ts"],
};

interface ClientReport {
  source: { id: string; status: string; kind: string; createdStatus: number };
  session: { conversationId: string; agentName: string; reverbPort: number; jwt: boolean };
  answer: { conversationId: string; content: string; citations: string[]; lowConfidence: boolean };
  listed: string[];
  refused: { status: number; code: string | undefined };
  wrongOrigin: { status: number; code: string | undefined };
}

/**
 * Generates TypeScript types from a running service's /openapi.json (openapi-typescript), puts
 * the client program next to them, and compiles it with the project's TypeScript: a type error
 * (or an expected one that no longer happens) fails here. Done once; the program then runs
 * against a service on each store.
 */
let compiled: Promise<{ directory: string; program: string }> | null = null;
const directories: string[] = [];
async function compileClient(baseUrl: string): Promise<{ directory: string; program: string }> {
  const directory = await mkdtemp(join(tmpdir(), "frontdesk-typed-client-"));
  directories.push(directory);
  await symlink(join(repositoryRoot, "node_modules"), join(directory, "node_modules"), "dir");
  await writeFile(join(directory, "package.json"), JSON.stringify({ type: "module", private: true }));
  await writeFile(join(directory, "tsconfig.json"), JSON.stringify(clientTsconfig));
  const types = astToString(await openapiTS(new URL(`${baseUrl}/openapi.json`), { silent: true }));
  await writeFile(join(directory, "frontdesk-api.ts"), types);
  await copyFile(programSource, join(directory, "client-program.ts"));
  try {
    await run(process.execPath, [tsc, "-p", directory], { cwd: directory });
  } catch (error) {
    const output = error instanceof Error && "stdout" in error ? String(error.stdout) : String(error);
    throw new Error(`the client program does not typecheck against the generated types:\n${output}`);
  }
  return { directory, program: join(directory, "out", "client-program.js") };
}

afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

describeEachStore("a client generated from /openapi.json, against a listening service on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let baseUrl: string;
  let apiToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: {} });
    tenant = await seedTenant(t.services);
    ({ token: apiToken } = (await runAdminCommand(adminOf(t.services), {
      command: "token.create",
      workspaceId: tenant.workspaceId,
      name: "typed client",
    })) as { token: string });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    compiled ??= compileClient(baseUrl);
  });
  afterAll(() => t.close());

  it("happy: the typed program adds a source, starts a session, gets a cited answer and lists sources", async () => {
    const { program } = await compiled!;
    const { stdout } = await run(process.execPath, [program, baseUrl, tenant.agentId, SITE_ORIGIN, apiToken], { timeout: 60_000 });
    const report = JSON.parse(stdout) as ClientReport;

    expect(report.source).toEqual({ id: expect.stringMatching(/^src_/), status: "indexed", kind: "text", createdStatus: 201 });
    expect(report.session).toEqual({ conversationId: expect.stringMatching(/^cnv_/), agentName: "Acme Assistant", reverbPort: expect.any(Number), jwt: true });
    expect(report.answer.conversationId).toBe(report.session.conversationId);
    expect(report.answer.content).toMatch(/three to five working days/);
    expect(report.answer.citations).toEqual([`${SITE_ORIGIN}/help/delivery`]);
    expect(report.answer.lowConfidence).toBe(false);
    expect(report.listed).toEqual([report.source.id]);
    expect(report.refused).toEqual({ status: 401, code: "invalid_token" });
    expect(report.wrongOrigin).toEqual({ status: 403, code: "origin_forbidden" });

    const { rows } = await t.services.db.query<{ role: string }>(`SELECT role FROM messages WHERE conversation_id = $1 ORDER BY created_at, role DESC`, [
      report.session.conversationId,
    ]);
    expect(rows.map((row) => row.role)).toEqual(["visitor", "bot"]);
  });
});
