import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { freePort } from "./cli-process.js";
import { createEmptyPostgresDatabase, errorLines, frontdesk, type WatchedProcess } from "./frontdesk-process.js";
import { describeNeeding } from "../support/test-legs.js";

const ROUNDS = 5;

describeNeeding("postgres")("processes started together on a brand-new Postgres database", () => {
  it(`happy: two serve and two worker processes started at once all come up and stop cleanly (${ROUNDS} rounds)`, async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const database = await createEmptyPostgresDatabase();
      const env = {
        FRONTDESK_DATABASE_URL: database.url,
        FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-concurrent-")),
        FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
        FRONTDESK_LOG_LEVEL: "info",
        FRONTDESK_ADMIN_SOCKET: "false",
      };
      const ports = [await freePort(), await freePort()];
      const processes: WatchedProcess[] = [
        ...ports.map((port) => frontdesk(env, "serve", "--port", String(port))),
        frontdesk(env, "worker"),
        frontdesk(env, "worker"),
      ];
      try {
        await Promise.all(processes.map((started, index) => started.waitFor(index < 2 ? /Frontdesk is listening/ : /workers started/, 120_000)));
        for (const port of ports) expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        for (const started of processes) started.child.kill("SIGTERM");
        const codes = await Promise.all(processes.map((started) => started.exit(30_000)));
        const outputs = processes.map((started) => started.output());
        expect(codes, `round ${round}:\n${outputs.join("\n---\n")}`).toEqual([0, 0, 0, 0]);
        for (const output of outputs) {
          expect(errorLines(output), `round ${round}`).toEqual([]);
          expect(output).toMatch(/"msg":"stopped"/);
        }
        // The schema was applied once: every migration and every queue exactly once.
        const migrate = frontdesk(env, "migrate");
        expect(await migrate.exit()).toBe(0);
        expect(JSON.parse(migrate.output())).toEqual({ applied: [] });
      } finally {
        for (const started of processes) if (started.child.exitCode === null) started.child.kill("SIGKILL");
        await database.drop();
      }
    }
  }, 900_000);
});
