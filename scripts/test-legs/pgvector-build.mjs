// Builds pgvector from Debian's source package (trixie's, which builds against Postgres 15's
// headers on bookworm) and installs it, or stages it under `destDir` (the benchmark's dry run).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";

const TRIXIE_SOURCES = "frontdesk-trixie-src.sources";
const TRIXIE_DEB_SRC = `Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;

/**
 * True when some apt source already offers trixie's source packages.
 * @param {{ list: string, dir: string }} sources
 */
function hasTrixieDebSrc(sources) {
  const files = [sources.list];
  if (existsSync(sources.dir)) files.push(...readdirSync(sources.dir).map((name) => join(sources.dir, name)));
  return files.some((file) => {
    try {
      const text = readFileSync(file, "utf8");
      return text.includes("deb-src") && text.includes("trixie");
    } catch {
      return false; // absent, or not a file
    }
  });
}

/**
 * @param {import("./legs.mjs").ProvisionContext["machine"]} machine
 * @param {number} major Postgres major version to build against
 * @param {{ install: true } | { install: false, destDir: string }} where
 * @returns {Promise<Record<string, number>>} milliseconds per step
 */
export async function buildPgvector(machine, major, where) {
  /** @type {Record<string, number>} */
  const steps = {};
  const step = async (/** @type {string} */ name, /** @type {() => Promise<unknown>} */ work) => {
    const started = Date.now();
    await work();
    steps[name] = Date.now() - started;
  };
  const pgConfig = `PG_CONFIG=/usr/lib/postgresql/${major}/bin/pg_config`;
  const apt = { env: { DEBIAN_FRONTEND: "noninteractive" } };

  if (!hasTrixieDebSrc(machine.aptSources)) writeFileSync(join(machine.aptSources.dir, TRIXIE_SOURCES), TRIXIE_DEB_SRC);
  await step("apt-get update", () => machine.runOrThrow("apt-get", ["update", "-q"], apt));
  await step("apt-get install", () =>
    machine.runOrThrow(
      "apt-get",
      ["install", "-y", "-q", "--no-install-recommends", `postgresql-server-dev-${major}`, "build-essential", "dpkg-dev"],
      apt,
    ),
  );
  const build = await mkdtemp(join(tmpdir(), "frontdesk-pgvector-"));
  try {
    await step("apt-get source", () => machine.runOrThrow("apt-get", ["source", "-q", "pgvector"], { ...apt, cwd: build }));
    const unpacked = readdirSync(build, { withFileTypes: true }).find((entry) => entry.isDirectory() && entry.name.startsWith("pgvector-"));
    if (!unpacked) throw new Error("`apt-get source pgvector` unpacked no pgvector-* directory");
    const dir = join(build, unpacked.name);
    await step("make", () => machine.runOrThrow("make", [`-j${availableParallelism()}`, pgConfig], { cwd: dir }));
    const destination = where.install ? [] : [`DESTDIR=${where.destDir}`];
    await step("make install", () => machine.runOrThrow("make", ["install", pgConfig, ...destination], { cwd: dir }));
  } finally {
    await rm(build, { recursive: true, force: true });
  }
  return steps;
}
