import { mkdir, mkdtemp, readFile, readdir } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { machine as realMachine } from "../../../../scripts/test-legs/machine.mjs";
import { postgresLeg } from "../../../../scripts/test-legs/postgres-leg.mjs";
import { freePort } from "../cli/cli-process.js";
import { startPostgresWithoutPgvector, type PostgresWithoutPgvector } from "./postgres-without-pgvector.js";

/**
 * The provisioning steps of the postgres leg, decided against a real Postgres protocol server on
 * loopback that lacks pgvector, with a stand-in machine: root, a cluster on that port, and commands
 * that are recorded (and that start the server, or fail) instead of touching this shared machine.
 */
interface Command {
  command: string;
  args: string[];
}
type Machine = typeof realMachine;

async function standInMachine(options: {
  port: number;
  online: boolean;
  commands?: string[];
  onCommand?: (command: Command, cwd: string | undefined) => Promise<{ code: number; output: string }>;
}) {
  const ran: Command[] = [];
  const sources = await mkdtemp(join(tmpdir(), "frontdesk-apt-sources-"));
  await mkdir(join(sources, "sources.list.d"));
  const available = options.commands ?? ["pg_lsclusters", "pg_ctlcluster", "apt-get", "make"];
  const run = async (command: string, args: string[], runOptions: { cwd?: string } = {}) => {
    ran.push({ command, args });
    if (command === "pg_lsclusters") {
      const status = options.online ? "online" : "down";
      return { code: 0, output: `15  main    ${options.port} ${status} postgres /var/lib/postgresql/15/main /var/log/postgresql/postgresql-15-main.log\n` };
    }
    if (command === "apt-get" && args[0] === "source") await mkdir(join(runOptions.cwd ?? "", "pgvector-0.8.0"));
    return options.onCommand ? options.onCommand({ command, args }, runOptions.cwd) : { code: 0, output: "" };
  };
  const machine: Machine = {
    ...realMachine,
    aptSources: { list: join(sources, "sources.list"), dir: join(sources, "sources.list.d") },
    isRoot: () => true,
    uid: () => 0,
    hasCommand: (command: string) => available.includes(command),
    run,
    runOrThrow: async (command: string, args: string[], runOptions?: { cwd?: string }) => {
      const result = await run(command, args, runOptions);
      if (result.code !== 0) throw new Error(`\`${[command, ...args].join(" ")}\` exited ${result.code}: ${result.output.trim()}`);
      return result.output;
    },
  };
  return { machine, ran, sourcesDir: join(sources, "sources.list.d") };
}

describe("the postgres leg's provisioning", () => {
  const servers: PostgresWithoutPgvector[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const serverWithoutPgvector = async (port = 0) => {
    const server = await startPostgresWithoutPgvector(port);
    servers.push(server);
    return server;
  };
  const provision = async (url: string, machine: Machine) => {
    const actions: string[] = [];
    const first = await postgresLeg.probe(url);
    const outcome = await postgresLeg.provision(url, first, { machine, did: (action: string) => actions.push(action) });
    return { first, outcome, actions };
  };
  const pgConfig = "PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config";

  it("happy: pgvector missing, as root with apt: adds trixie's deb-src, installs the build packages, builds and installs from the source package", async () => {
    const server = await serverWithoutPgvector();
    const { machine, ran, sourcesDir } = await standInMachine({ port: server.port, online: true });
    const { first, actions } = await provision(server.url, machine);
    expect(first).toMatchObject({ ready: false, reachable: true, major: 15 });
    expect(ran.map(({ command, args }) => [command, ...args].join(" "))).toEqual([
      "pg_lsclusters --no-header",
      "apt-get update -q",
      "apt-get install -y -q --no-install-recommends postgresql-server-dev-15 build-essential dpkg-dev",
      "apt-get source -q pgvector",
      `make -j${availableParallelism()} ${pgConfig}`,
      `make install ${pgConfig}`,
    ]);
    expect(actions).toEqual(["built and installed pgvector for Postgres 15 from Debian's source package"]);
    const written = await readdir(sourcesDir);
    expect(written).toEqual(["frontdesk-trixie-src.sources"]);
    const debSrc = await readFile(join(sourcesDir, "frontdesk-trixie-src.sources"), "utf8");
    expect(debSrc).toContain("Types: deb-src");
    expect(debSrc).toContain("Suites: trixie");
  });

  it("error: a failed build is the leg's reason, with the command and its last output", async () => {
    const server = await serverWithoutPgvector();
    const { machine } = await standInMachine({
      port: server.port,
      online: true,
      onCommand: async ({ command, args }) =>
        command === "make" && args[0] !== "install" ? { code: 2, output: "vector.c:1:10: fatal error: postgres.h: No such file or directory" } : { code: 0, output: "" },
    });
    const { outcome, actions } = await provision(server.url, machine);
    expect(outcome.ready).toBe(false);
    expect(outcome.problem).toContain(`pgvector is not installed on Postgres 15 at ${server.url}; building pgvector failed:`);
    expect(outcome.problem).toContain("exited 2: vector.c:1:10: fatal error: postgres.h: No such file or directory");
    expect(actions).toEqual([]);
  });

  it("error: no apt-get, nothing is attempted and the reason says so", async () => {
    const server = await serverWithoutPgvector();
    const { machine, ran } = await standInMachine({ port: server.port, online: true, commands: ["pg_lsclusters", "pg_ctlcluster", "make"] });
    const { outcome } = await provision(server.url, machine);
    expect(outcome.problem).toBe(`pgvector is not installed on Postgres 15 at ${server.url}; building it needs apt-get, which this machine lacks`);
    expect(ran.map(({ command }) => command)).toEqual(["pg_lsclusters"]);
  });

  it("happy: a cluster that is down is started with pg_ctlcluster, then probed again", async () => {
    const port = await freePort();
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const { machine, ran } = await standInMachine({
      port,
      online: false,
      commands: ["pg_lsclusters", "pg_ctlcluster"],
      onCommand: async ({ command }) => {
        if (command === "pg_ctlcluster") await serverWithoutPgvector(port);
        return { code: 0, output: "" };
      },
    });
    const { first, outcome, actions } = await provision(url, machine);
    expect(first).toMatchObject({ ready: false, reachable: false });
    expect(ran[1]).toEqual({ command: "pg_ctlcluster", args: ["--skip-systemctl-redirect", "15", "main", "start"] });
    expect(actions).toEqual(["started Postgres cluster 15/main"]);
    // Started, reachable, and then the next step's reason: pgvector (no apt-get on this stand-in).
    expect(outcome.problem).toBe(`pgvector is not installed on Postgres 15 at ${url}; building it needs apt-get, which this machine lacks`);
  });
});
