import { parseArgs } from "node:util";
import { sendAdminCommand } from "../admin/admin-socket.js";
import type { AdminCommandInput } from "../admin/admin-command.js";
import { runAdminCommand } from "../admin/run-admin-command.js";
import { ConfigError, loadConfig, type Config } from "../config/config.js";
import { AppError } from "../http/app-error.js";
import { unknownVariableWarnings } from "../config/unknown-variables.js";
import { AnswerConfigError } from "../answering/generate/answer-config-error.js";
import { EmbeddingError } from "../embeddings/embedding-error.js";
import { openDatabase } from "../db/open-database.js";
import type { Database } from "../db/database.js";
import { DataDirInUseError } from "../db/pglite-data-dir-lock.js";
import { ADMIN_USAGE, parseAdminArguments, UsageError } from "./admin-arguments.js";
import type { Logger } from "pino";
import type { JobQueue } from "../jobs/job-queue.js";
import { checkServeConfig, checkWorkerConfig } from "./command-rules.js";
import { createLogger } from "./create-logger.js";
import { frontdeskVersion } from "./version.js";
import { identitySecretBoxOf } from "../tenants/identity-secret-box.js";

const USAGE = `Usage: frontdesk <command>
  serve [--host H] [--port P]   run the HTTP API and the background workers
  worker                        background workers only (needs FRONTDESK_DATABASE_URL)
  realtime [--host H] [--port P]
                                the realtime server alone (WebSockets and the Pusher HTTP API, no database)
  migrate                       apply pending database migrations
  reindex [--agent A]           re-embed stored chunks made by another embedder (runs on the workers)
  admin …                       manage workspaces, agents, operators, tokens (prints JSON)
  help | --version              this text | the version

${ADMIN_USAGE}

Configuration comes from FRONTDESK_* environment variables (see docs/configuration.md).`;

/** Where a command prints: the process's stdout and stderr, or (in tests, in-process) strings. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_OUTPUT: CliOutput = { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };

function printError(output: CliOutput, error: { code: string; message: string; fields?: Record<string, string[]> }): void {
  output.err(`${JSON.stringify({ error })}\n`);
}

/** Runs an admin command through the running server if there is one, else on the store directly. */
async function admin(config: Config, command: AdminCommandInput, output: CliOutput): Promise<number> {
  const reply = await sendAdminCommand(config.dataDir, command);
  if (reply) {
    if (!reply.ok) {
      printError(output, reply.error);
      return 1;
    }
    output.out(`${JSON.stringify(reply.result, null, 2)}\n`);
    return 0;
  }
  // `migrate` opens the store as it is, so that it can report what it applies.
  // The service's modules load only when a command needs them: --version, help and refusals stay quick.
  let db: Database;
  try {
    db = command.command === "migrate" ? await openDatabase(config.store) : await (await import("../runtime.js")).openMigratedDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    printError(output, { code: "service_unavailable", message: error.message });
    return 1;
  }
  const { startJobQueue } = await import("../jobs/job-queue.js");
  let jobs: JobQueue | null = null;
  let embedders: { close(): Promise<void> } | null = null;
  try {
    const { createWebhookServices } = await import("../webhooks/webhook-services.js");
    const { openModelProviderAccess } = await import("../answering/generate/create-answer-models.js");
    const { subscribeDomainEvents } = await import("../subscribe-domain-events.js");
    const { openAnswerTestServices } = await import("./answer-test-services.js");
    const startedJobs = async () => (jobs ??= await startJobQueue(db, { retry: config.jobs }));
    const openEmbedders = async () => {
      const { openWorkspaceEmbedders } = await import("../runtime.js");
      const opened = await openWorkspaceEmbedders(config, db, await createLogger({ level: "warn", name: "frontdesk-admin" }));
      embedders = opened;
      return opened.embedders;
    };
    const result = await runAdminCommand(
      {
        db,
        jobs: startedJobs,
        publicUrl: config.publicUrl,
        webhooks: () => createWebhookServices(config),
        modelProviders: () => openModelProviderAccess(config),
        identitySecrets: () => identitySecretBoxOf(config),
        events: async () => subscribeDomainEvents(await startedJobs(), config),
        answerTests: () => openAnswerTestServices(config, db, startedJobs),
        embedders: openEmbedders,
      },
      command,
    );
    output.out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    printError(output, { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) });
    return 1;
  } finally {
    await (jobs as JobQueue | null)?.stop();
    await (embedders as { close(): Promise<void> } | null)?.close();
    await db.close();
  }
}

/** A long-running command's start: a failure is logged (with its cause) and exits 1 at once. */
async function start(logger: Logger, run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return -1;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // Checked again where the provider is built; the configuration rules normally catch these first.
    if (error instanceof AnswerConfigError || (error instanceof EmbeddingError && error.failure === "invalid_config")) {
      throw new ConfigError([error.message]);
    }
    logger.fatal({ err: error }, `start failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** The environment with `--host` and `--port` (of `serve` and `realtime`) as FRONTDESK_HOST and FRONTDESK_PORT. */
function withListenArguments(environment: NodeJS.ProcessEnv, args: string[]): NodeJS.ProcessEnv {
  const { values } = parseArgs({ args, options: { host: { type: "string" }, port: { type: "string" } }, strict: true });
  return {
    ...environment,
    ...(values.host ? { FRONTDESK_HOST: values.host } : {}),
    ...(values.port ? { FRONTDESK_PORT: values.port } : {}),
  };
}

export async function main(argv: string[], environment: NodeJS.ProcessEnv, output: CliOutput = PROCESS_OUTPUT): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "--version" || command === "-v" || command === "version") {
      output.out(`${frontdeskVersion()}\n`);
      return 0;
    }
    if (!command || command === "help" || command === "--help" || command === "-h") {
      output.out(`Frontdesk ${frontdeskVersion()}\n\n${USAGE}\n`);
      return 0;
    }
    const warnings = unknownVariableWarnings(environment);
    if (command !== "serve" && command !== "worker" && command !== "realtime") for (const warning of warnings) output.err(`warning: ${warning}\n`);
    switch (command) {
      case "serve": {
        const config = loadConfig(withListenArguments(environment, rest));
        checkServeConfig(config);
        const logger = await createLogger({ level: config.logLevel, name: "frontdesk" });
        for (const warning of warnings) logger.warn(warning);
        const { serve } = await import("./serve.js");
        return start(logger, () => serve(config, logger));
      }
      case "worker": {
        const config = loadConfig(environment);
        checkWorkerConfig(config);
        const logger = await createLogger({ level: config.logLevel, name: "frontdesk-worker" });
        for (const warning of warnings) logger.warn(warning);
        const { work } = await import("./serve.js");
        return start(logger, () => work(config, logger));
      }
      case "realtime": {
        const config = loadConfig(withListenArguments(environment, rest));
        const logger = await createLogger({ level: config.logLevel, name: "frontdesk-realtime" });
        for (const warning of warnings) logger.warn(warning);
        const { serveRealtime } = await import("./realtime.js");
        return start(logger, () => serveRealtime(config, logger));
      }
      case "reindex": {
        const { values } = parseArgs({ args: rest, options: { agent: { type: "string" } }, strict: true });
        return admin(loadConfig(environment), { command: "reindex", ...(values.agent ? { agentId: values.agent } : {}) }, output);
      }
      case "migrate":
        return admin(loadConfig(environment), { command: "migrate" }, output);
      case "admin":
        return admin(loadConfig(environment), parseAdminArguments(rest), output);
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      output.err(`${error.message}\n`);
      return 78;
    }
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
      printError(output, { code: "usage", message: error.message });
      output.err(`\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

/**
 * `frontdesk …` as bin/frontdesk runs it: main's exit code, and an error nothing else caught printed
 * as one JSON line with code 1 (-1: a long-running command is up).
 */
export async function runCommandLine(argv: string[], environment: NodeJS.ProcessEnv, output: CliOutput = PROCESS_OUTPUT): Promise<number> {
  try {
    return await main(argv, environment, output);
  } catch (error) {
    output.err(`${JSON.stringify({ error: { code: "internal_error", message: error instanceof Error ? error.message : String(error) } })}\n`);
    return 1;
  }
}
