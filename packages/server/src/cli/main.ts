import { parseArgs } from "node:util";
import { sendAdminCommand } from "../admin/admin-socket.js";
import type { AdminCommandInput } from "../admin/admin-command.js";
import { runAdminCommand } from "../admin/run-admin-command.js";
import { ConfigError, loadConfig, type Config } from "../config/config.js";
import { AppError } from "../http/app-error.js";
import { openMigratedDatabase } from "../runtime.js";
import { ADMIN_USAGE, parseAdminArguments, UsageError } from "./admin-arguments.js";
import { pino } from "pino";
import { startJobQueue, type JobQueue } from "../jobs/job-queue.js";
import { serve, work } from "./serve.js";

const USAGE = `Usage: frontdesk <command>
  serve [--host H] [--port P]   run the HTTP API and the background workers
  worker                        background workers only (needs FRONTDESK_DATABASE_URL)
  migrate                       apply pending database migrations
  reindex [--agent A]           re-embed stored chunks made by another embedder (runs on the workers)
  admin …                       manage workspaces, agents, operators, tokens (prints JSON)

${ADMIN_USAGE}

Configuration comes from FRONTDESK_* environment variables (see README).`;

function printError(error: { code: string; message: string; fields?: Record<string, string[]> }): void {
  process.stderr.write(`${JSON.stringify({ error })}\n`);
}

/** Runs an admin command through the running server if there is one, else on the store directly. */
async function admin(config: Config, command: AdminCommandInput): Promise<number> {
  const reply = await sendAdminCommand(config.dataDir, command);
  if (reply) {
    if (!reply.ok) {
      printError(reply.error);
      return 1;
    }
    process.stdout.write(`${JSON.stringify(reply.result, null, 2)}\n`);
    return 0;
  }
  const db = await openMigratedDatabase(config);
  let jobs: JobQueue | null = null;
  try {
    const result = await runAdminCommand({ db, jobs: async () => (jobs ??= await startJobQueue(db, { retry: config.jobs })) }, command);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    printError({ code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) });
    return 1;
  } finally {
    await (jobs as JobQueue | null)?.stop();
    await db.close();
  }
}

export async function main(argv: string[], environment: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === "help" || command === "--help" || command === "-h") {
      process.stdout.write(`${USAGE}\n`);
      return command ? 0 : 2;
    }
    switch (command) {
      case "serve": {
        const { values } = parseArgs({ args: rest, options: { host: { type: "string" }, port: { type: "string" } }, strict: true });
        const config = loadConfig({
          ...environment,
          ...(values.host ? { FRONTDESK_HOST: values.host } : {}),
          ...(values.port ? { FRONTDESK_PORT: values.port } : {}),
        });
        await serve(config, pino({ level: config.logLevel, name: "frontdesk" }));
        return -1;
      }
      case "worker": {
        const config = loadConfig(environment);
        await work(config, pino({ level: config.logLevel, name: "frontdesk-worker" }));
        return -1;
      }
      case "reindex": {
        const { values } = parseArgs({ args: rest, options: { agent: { type: "string" } }, strict: true });
        return admin(loadConfig(environment), { command: "reindex", ...(values.agent ? { agentId: values.agent } : {}) });
      }
      case "migrate":
        return admin(loadConfig(environment), { command: "migrate" });
      case "admin":
        return admin(loadConfig(environment), parseAdminArguments(rest));
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 78;
    }
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
      printError({ code: "usage", message: error.message });
      process.stderr.write(`\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}
