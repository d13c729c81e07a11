import { access, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialisePgliteDataDir } from "../../src/db/initialise-pglite-data-dir.js";
import { loadConfig } from "../../src/config/config.js";
import { pgliteDirectory } from "../../src/db/open-database.js";
import { openPgliteDatabase } from "../../src/db/pglite-database.js";
import { compiledWorkerUrl } from "../support/compiled-worker.js";

const workerUrl = compiledWorkerUrl("db/pglite-worker.js");

describe("PGlite's memory settings (embedded store)", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "frontdesk-pglite-memory-"));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("happy: a new data directory and a reopened one both run with 16 MB of shared buffers, not the stock 160 MB", async () => {
    for (const round of ["created", "reopened"]) {
      const db = await openPgliteDatabase(path.join(dataDir, "pglite"), { workerUrl });
      try {
        const { rows } = await db.query<{ shared_buffers: string }>("SHOW shared_buffers");
        expect({ round, rows }).toEqual({ round, rows: [{ shared_buffers: "16MB" }] });
      } finally {
        await db.close();
      }
    }
  }, 120_000);

  it("happy: FRONTDESK_PGLITE_SHARED_BUFFERS_MB sets the pool of a data directory opened through the configuration", async () => {
    // The data directory of the test above (made here when that test did not run): a new one would
    // cost another initdb, and the setting is given at every open, new or not.
    const config = loadConfig({ FRONTDESK_DATA_DIR: dataDir, FRONTDESK_PGLITE_SHARED_BUFFERS_MB: "48" });
    if (config.store.kind !== "pglite") throw new Error("expected the embedded store");
    const db = await openPgliteDatabase(pgliteDirectory(config.store.dataDir), { workerUrl, sharedBuffersMb: config.store.sharedBuffersMb });
    try {
      expect((await db.query("SHOW shared_buffers")).rows).toEqual([{ shared_buffers: "48MB" }]);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("happy: the in-memory store (tests) runs with the same settings", async () => {
    const db = await openPgliteDatabase(null, { workerUrl });
    try {
      expect((await db.query("SHOW shared_buffers")).rows).toEqual([{ shared_buffers: "16MB" }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it("happy: a new data directory is created (initdb) by a child process that then exits; an existing one is left alone", async () => {
    const fresh = path.join(dataDir, "fresh");
    await mkdir(fresh);
    await initialisePgliteDataDir(fresh, compiledWorkerUrl("db/pglite-initdb.js"));
    await expect(access(path.join(fresh, "PG_VERSION"))).resolves.toBeUndefined();
    const missingScript = new URL("file:///nonexistent/pglite-initdb.js");
    await expect(initialisePgliteDataDir(fresh, missingScript)).resolves.toBeUndefined();
  }, 120_000);

  it("error: a data directory that cannot be created fails the open with the child's exit code and message", async () => {
    const blocked = path.join(dataDir, "blocked");
    await writeFile(blocked, "not a directory");
    await expect(initialisePgliteDataDir(path.join(blocked, "pglite"), compiledWorkerUrl("db/pglite-initdb.js"))).rejects.toThrow(
      /Creating the PGlite data directory .*blocked\/pglite failed \(exit code 1\): .+/,
    );
  }, 60_000);
});
