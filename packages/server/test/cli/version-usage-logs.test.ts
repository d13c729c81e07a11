import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, run } from "./cli-process.js";
import { dataDirWithMigratedStore } from "../support/test-database.js";
import { frontdesk } from "./frontdesk-process.js";

const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** A port where nothing listens: a Postgres URL to it fails the start at once. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

describe("bin/frontdesk version and usage", () => {
  it("happy: --version prints the version alone", async () => {
    for (const flag of ["--version", "-v", "version"]) {
      const result = await run({}, flag);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${VERSION}\n`);
    }
  });

  it("happy: no arguments, help, --help print the version and the usage, exit 0", async () => {
    for (const args of [[], ["help"], ["--help"]]) {
      const result = await run({}, ...args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.startsWith(`Frontdesk ${VERSION}\n`)).toBe(true);
      expect(result.stdout).toContain("Usage: frontdesk <command>");
      expect(result.stdout).toMatch(/help \| --version/);
    }
  });

  it("error: an unknown command prints the usage on stderr and exits 2", async () => {
    const result = await run({}, "nonsense");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: frontdesk <command>");
  });
});

describe("logs", () => {
  it("happy: not on a terminal, every line is JSON, and a mistyped variable is named in a warning at start", async () => {
    const env = {
      FRONTDESK_DATA_DIR: await dataDirWithMigratedStore("pglite", "frontdesk-logs-"),
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
      FRONTDESK_PROT: "8080",
      FRONTDESK_TEST_ANYTHING: "1",
    };
    const started = frontdesk(env, "serve", "--port", "0");
    await started.waitFor(/Frontdesk is listening/, 90_000);
    started.child.kill("SIGTERM");
    expect(await started.exit(30_000)).toBe(0);
    const lines = started.output().split("\n").filter((line) => line !== "");
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.every((entry) => typeof entry.level === "number" && typeof entry.msg === "string")).toBe(true);
    const warnings = entries.filter((entry) => entry.level === 40 && entry.msg.includes("is not a Frontdesk setting"));
    expect(warnings.map((entry) => entry.msg)).toEqual(["FRONTDESK_PROT is not a Frontdesk setting and is ignored; did you mean FRONTDESK_PORT?"]);
  }, 120_000);

  it("happy: on a terminal, lines are pretty-printed (level names, no JSON)", async () => {
    const env = {
      PATH: process.env.PATH ?? "",
      FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-logs-")),
      FRONTDESK_DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/frontdesk`,
      FRONTDESK_PROT: "8080",
    };
    // `script` runs the command on a pseudo-terminal, as a person's shell would.
    const output = await new Promise<string>((resolve) => {
      execFile("script", ["-qec", `"${process.execPath}" "${BIN}" serve --port 0`, "/dev/null"], { env, timeout: 60_000 }, (_error, stdout) => resolve(stdout));
    });
    expect(output).toMatch(/WARN.*FRONTDESK_PROT is not a Frontdesk setting/);
    expect(output).toMatch(/FATAL.*start failed: connect ECONNREFUSED/);
    expect(output).not.toMatch(/^\{"level"/m);
  }, 90_000);
});
