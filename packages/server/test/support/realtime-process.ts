import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PusherServer from "pusher";
import { frontdesk, type WatchedProcess } from "../cli/frontdesk-process.js";
import { freePort, type ReverbDescriptor } from "./realtime-clients.js";

/** A secret the realtime processes of the tests share with the services that publish to them. */
export const SHARED_REALTIME_SECRET = "shared-realtime-secret-shared-realtime-secret-01";

export interface RealtimeProcess {
  process: WatchedProcess;
  port: number;
  /** Where pusher-js reaches it (init's `reverb` of a service pointed at it). */
  reverb: ReverbDescriptor;
  /** The `pusher` library aimed at its HTTP API, with its secret. */
  pusherServer: PusherServer;
  /** SIGTERM, and waits for the exit code. */
  stop(): Promise<number | string>;
}

/** `bin/frontdesk realtime` on a loopback port, with its own data dir, once /healthz answers. */
export async function startRealtimeProcess(environment: Record<string, string> = {}): Promise<RealtimeProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-realtime-process-"));
  const watched = frontdesk(
    { FRONTDESK_DATA_DIR: dataDir, FRONTDESK_LOG_LEVEL: "info", FRONTDESK_REALTIME_APP_SECRET: SHARED_REALTIME_SECRET, ...environment },
    "realtime",
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
  );
  // frontdesk() kills it if this test process ends first.
  watched.child.once("exit", () => void rm(dataDir, { recursive: true, force: true }));
  await watched.waitFor(/Frontdesk realtime is listening/);
  const secret = environment.FRONTDESK_REALTIME_APP_SECRET ?? SHARED_REALTIME_SECRET;
  return {
    process: watched,
    port,
    reverb: { app_key: environment.FRONTDESK_REALTIME_APP_KEY ?? "frontdesk", host: "127.0.0.1", port, scheme: "ws" },
    pusherServer: new PusherServer({ appId: environment.FRONTDESK_REALTIME_APP_ID ?? "frontdesk", key: environment.FRONTDESK_REALTIME_APP_KEY ?? "frontdesk", secret, host: "127.0.0.1", port: String(port), useTLS: false }),
    async stop() {
      if (watched.child.exitCode === null && watched.child.signalCode === null) watched.child.kill("SIGTERM");
      return watched.exit();
    },
  };
}
