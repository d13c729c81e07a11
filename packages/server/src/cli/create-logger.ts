import { pino, type Logger } from "pino";

/**
 * The process's logger: JSON lines (what log collectors read) unless stdout is a terminal, where a
 * person reads them; then pino-pretty, loaded only in that case, writes them coloured and aligned.
 */
export async function createLogger(options: { level: string; name: string }): Promise<Logger> {
  if (!process.stdout.isTTY) return pino(options);
  const { default: pretty } = await import("pino-pretty");
  // One line per entry: a request's line says it all in its message, so its fields are not printed again.
  return pino(
    options,
    pretty({ colorize: true, sync: true, singleLine: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,reqId,method,path,status,ms,component" }),
  );
}
