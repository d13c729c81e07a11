import { execFile } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import { openModelProviderAccess } from "../../src/answering/generate/create-answer-models.js";
import { parseAdminArguments } from "../../src/cli/admin-arguments.js";
import type { FrontdeskEvent } from "../../src/events/frontdesk-events.js";
import { AppError } from "../../src/http/app-error.js";
import { OPENAI_DONE, openAiChunkEvents } from "../answering/generate/fixtures/openai-chat-stream.js";
import { startLoopbackChatServer, type LoopbackChatServer } from "../answering/generate/loopback-chat-server.js";
import { killedWithTestProcess } from "../support/child-processes.js";
import { adminOf, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { dataDirWithMigratedStore, describeEachStore } from "../support/test-database.js";
import { BIN, json, run, type Run } from "./cli-process.js";

const KEY = "sk-cli-workspace-key-9876";

describeEachStore("admin workspace set-model and agent update --model on %s", (kind) => {
  let t: TestApp;
  let model: LoopbackChatServer;
  let tenant: Tenant;
  let context: AdminContext;
  const raised: FrontdeskEvent[] = [];
  const admin = (argv: string[], stdin = "") => runAdminCommand(context, parseAdminArguments(argv, () => stdin)) as Promise<Record<string, unknown>>;

  beforeAll(async () => {
    model = await startLoopbackChatServer();
    t = await createTestApp(kind, { FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: "true", FRONTDESK_LLM_TIMEOUT_S: "5" });
    tenant = await seedTenant(t.services);
    context = {
      ...adminOf(t.services),
      modelProviders: () => openModelProviderAccess(t.services.config),
      events: async () => ({
        async raise(tx, event) {
          raised.push(event);
          await t.services.events.raise(tx, event);
        },
      }),
    };
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });
  beforeEach(() => {
    raised.length = 0;
  });

  it("happy: set-model stores the key sealed (read from standard input), and the workspace's agents answer with it", async () => {
    const set = await admin(["workspace", "set-model", "--workspace", tenant.workspaceId, "--provider", "openai-compatible", "--base-url", `${model.origin}/v1`, "--model", "llama3.1", "--api-key-stdin"], KEY);
    expect(set).toEqual({ workspace_id: tenant.workspaceId, provider: "openai-compatible", base_url: `${model.origin}/v1`, model: "llama3.1", api_key_set: true, api_key_last4: "9876", updated_at: expect.any(String) });
    expect(raised).toEqual([{ type: "agent.answering.changed", workspaceId: tenant.workspaceId, agentIds: [tenant.agentId], changedAt: expect.any(String) }]);

    model.respondWith({ status: 200, headers: { "content-type": "text/event-stream" }, steps: [...openAiChunkEvents(["From ", "the workspace."]), OPENAI_DONE].map((write) => ({ write })) });
    const session = await startSession(t.app, tenant.agentId);
    const answered = await t.app.inject({ method: "POST", url: "/api/v1/widget/messages", headers: bearer(session.jwt), payload: { message: "Where is my parcel?" } });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(model.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(model.requests.at(-1)!.body.model).toBe("llama3.1");

    const updated = await admin(["agent", "update", tenant.agentId, "--model", "extractive", "--instructions", "Never promise delivery dates.", "--answer-length", "long"]);
    expect(updated).toMatchObject({ answer_model: "extractive", instructions: { rules: "Never promise delivery dates.", length: "long", when_unsure: "offer_person" } });
    expect(raised.at(-1)).toMatchObject({ type: "agent.answering.changed", agentIds: [tenant.agentId] });
  });

  it("error: an unknown provider, a bad URL, a missing model and too-long instructions are refused with their fields", async () => {
    const refusal = async (argv: string[]): Promise<AppError> => {
      try {
        await admin(argv);
      } catch (error) {
        if (error instanceof AppError) return error;
        throw error;
      }
      throw new Error(`${argv.join(" ")} was accepted`);
    };
    const unknown = await refusal(["workspace", "set-model", "--workspace", tenant.workspaceId, "--provider", "mistral", "--model", "x"]);
    expect([unknown.code, Object.keys(unknown.fields ?? {})]).toEqual(["validation_failed", ["provider"]]);
    const badUrl = await refusal(["workspace", "set-model", "--workspace", tenant.workspaceId, "--provider", "openai-compatible", "--base-url", "not a url", "--model", "x"]);
    expect(Object.keys(badUrl.fields ?? {})).toEqual(["baseUrl"]);
    expect(() => parseAdminArguments(["workspace", "set-model", "--workspace", tenant.workspaceId, "--provider", "openai"])).toThrow("--model is required");
    const long = await refusal(["agent", "update", tenant.agentId, "--instructions", "x".repeat(2001)]);
    expect(Object.keys(long.fields ?? {})).toEqual(["instructions.rules"]);
    const noProvider = await seedTenant(t.services);
    const named = await refusal(["agent", "update", noProvider.agentId, "--model", "gpt-4o"]);
    expect(Object.keys(named.fields ?? {})).toEqual(["answerModel"]);
  });
});

/** `bin/frontdesk …` with `stdin` written to its standard input. */
function runWithInput(env: Record<string, string>, stdin: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = killedWithTestProcess(
      execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env } }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      }),
    );
    child.stdin?.end(stdin);
  });
}

// One process is enough (spawns are slow): each store's part is tested in process above.
describe("bin/frontdesk admin workspace set-model", () => {
  it("happy and security: the real CLI reads the key from standard input, refuses a loopback URL unless the deployment allows it", { timeout: 180_000 }, async () => {
    const env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore("pglite", "frontdesk-models-"), FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" };
    const workspaceId = json(await run(env, "admin", "workspace", "create", "--name", "Acme")).id;
    const args = ["admin", "workspace", "set-model", "--workspace", workspaceId, "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:11434/v1", "--model", "llama3.1", "--api-key-stdin"];
    const refused = await runWithInput(env, `${KEY}\n`, ...args);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ code: "model_address_refused", fields: { base_url: [expect.stringContaining("loopback")] } });
    const allowed = json(await runWithInput({ ...env, FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: "true" }, `${KEY}\n`, ...args));
    expect(allowed).toMatchObject({ provider: "openai-compatible", model: "llama3.1", api_key_set: true, api_key_last4: "9876" });
    expect(JSON.stringify(allowed)).not.toContain(KEY);
  });
});
