import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChromiumLeg, chromiumHeadlessShellLeg, chromiumLeg, DEBIAN_CHROMIUM, DEBIAN_CHROMIUM_HEADLESS_SHELL } from "../../../../scripts/test-legs/chromium-leg.mjs";
import { machine as realMachine } from "../../../../scripts/test-legs/machine.mjs";
import { missingLegs } from "../support/test-legs.js";

/**
 * The chromium leg's decisions, against a stand-in machine whose apt-get is recorded and, when it
 * "installs", writes a stand-in Chromium (a script answering --version as Debian's does) at the
 * package path of the leg under test; the probe runs that file for real.
 */
type Machine = typeof realMachine;
interface Ran {
  command: string;
  args: string[];
  env: Record<string, string> | undefined;
}

const DEBIAN_VERSION_LINE = "Chromium 142.0.7444.175 built on Debian GNU/Linux 13 (trixie)";

async function writeChromium(path: string, script: string): Promise<void> {
  await writeFile(path, `#!/bin/sh\n${script}\n`);
  await chmod(path, 0o755);
}

async function standIn(options: { root?: boolean; apt?: boolean; installs?: "at-once" | "after-update" | "never"; installedScript?: string } = {}) {
  const directory = await mkdtemp(join(tmpdir(), "frontdesk-chromium-leg-"));
  const packagePath = join(directory, "chromium");
  const ran: Ran[] = [];
  let updated = false;
  const run = async (command: string, args: string[], runOptions: { env?: Record<string, string> } = {}) => {
    ran.push({ command, args, env: runOptions.env });
    if (command !== "apt-get") return { code: 1, output: "unexpected command" };
    if (args[0] === "update") {
      updated = true;
      return { code: 0, output: "Reading package lists... Done" };
    }
    const succeeds = options.installs === "at-once" || (options.installs === "after-update" && updated);
    if (!succeeds) return { code: 100, output: "Reading package lists...\nE: Unable to locate package chromium" };
    await writeChromium(packagePath, options.installedScript ?? `echo "${DEBIAN_VERSION_LINE}"`);
    return { code: 0, output: "Setting up chromium (142.0.7444.175-1~deb13u1) ..." };
  };
  const machine: Machine = {
    ...realMachine,
    isRoot: () => options.root ?? true,
    uid: () => (options.root ?? true ? 0 : 1000),
    hasCommand: (command: string) => command === "apt-get" && (options.apt ?? true),
    run,
    runOrThrow: async () => {
      throw new Error("the chromium leg runs commands with run()");
    },
  };
  const leg = createChromiumLeg({ packagePath });
  const provision = async (target = packagePath) => {
    const actions: string[] = [];
    const first = await leg.probe(target);
    const outcome = await leg.provision(target, first, { machine, did: (action: string) => actions.push(action) });
    return { first, outcome, actions };
  };
  return { leg, packagePath, ran, provision, directory };
}

const INSTALL = "apt-get install -y --no-install-recommends chromium";
const commandsOf = (ran: Ran[]) => ran.map(({ command, args }) => [command, ...args].join(" "));

describe("the chromium leg's provisioning", () => {
  it("happy: missing, as root with apt: installs Debian's package non-interactively, and the probe then finds it", async () => {
    const { provision, ran, packagePath } = await standIn({ installs: "at-once" });
    const { first, outcome, actions } = await provision();
    expect(first).toEqual({ ready: false, problem: `no Chromium at ${packagePath}` });
    expect(commandsOf(ran)).toEqual([INSTALL]);
    expect(ran[0]!.env).toEqual({ DEBIAN_FRONTEND: "noninteractive" });
    expect(outcome).toEqual({ ready: true, problem: "" });
    expect(actions).toEqual(["installed Debian's chromium package with apt-get"]);
  });

  it("happy: a machine with stale package lists: apt-get update, then the install again", async () => {
    const { provision, ran } = await standIn({ installs: "after-update" });
    const { outcome } = await provision();
    expect(commandsOf(ran)).toEqual([INSTALL, "apt-get update", INSTALL]);
    expect(outcome.ready).toBe(true);
  });

  it("error: the install fails even after an update: the reason carries apt's last lines", async () => {
    const { provision, packagePath } = await standIn({ installs: "never" });
    const { outcome, actions } = await provision();
    expect(outcome).toEqual({
      ready: false,
      problem: `no Chromium at ${packagePath}; \`apt-get install chromium\` failed: Reading package lists... | E: Unable to locate package chromium`,
    });
    expect(actions).toEqual([]);
  });

  it("error: installed, but the binary does not answer --version with a Chromium version", async () => {
    const { provision, packagePath } = await standIn({ installs: "at-once", installedScript: "echo 'error while loading shared libraries' >&2; exit 127" });
    const { outcome } = await provision();
    expect(outcome).toEqual({ ready: false, problem: `${packagePath} --version exited 127 without naming a Chromium version` });
  });

  it("error: not root, or no apt-get: nothing is run and the reason says why", async () => {
    const notRoot = await standIn({ root: false, installs: "at-once" });
    expect((await notRoot.provision()).outcome.problem).toBe(`no Chromium at ${notRoot.packagePath}; installing it needs root (running as uid 1000)`);
    expect(notRoot.ran).toEqual([]);
    const noApt = await standIn({ apt: false, installs: "at-once" });
    expect((await noApt.provision()).outcome.problem).toBe(`no Chromium at ${noApt.packagePath}; installing it needs apt-get, which this machine lacks`);
    expect(noApt.ran).toEqual([]);
  });

  it("error: a FRONTDESK_TEST_CHROMIUM_PATH elsewhere than the package's path is left alone", async () => {
    const { leg, provision, ran, directory } = await standIn({ installs: "at-once" });
    const elsewhere = join(directory, "opt", "chrome");
    expect(leg.target({ FRONTDESK_TEST_CHROMIUM_PATH: elsewhere })).toBe(elsewhere);
    const { outcome } = await provision(elsewhere);
    expect(outcome.problem).toBe(`no Chromium at ${elsewhere}; this script installs Chromium only at ${join(directory, "chromium")} (Debian's package)`);
    expect(ran).toEqual([]);
  });

  it("happy: the leg used by npm test targets Debian's /usr/bin/chromium unless FRONTDESK_TEST_CHROMIUM_PATH says otherwise", () => {
    expect(chromiumLeg.name).toBe("chromium");
    expect(chromiumLeg.target({})).toBe(DEBIAN_CHROMIUM);
    expect(DEBIAN_CHROMIUM).toBe("/usr/bin/chromium");
  });

  it("happy: the headless shell's leg installs Debian's chromium-headless-shell at its binary, unless FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH says otherwise", async () => {
    expect(chromiumHeadlessShellLeg.name).toBe("chromium-headless-shell");
    expect(chromiumHeadlessShellLeg.target({ FRONTDESK_TEST_CHROMIUM_PATH: "/opt/chrome" })).toBe(DEBIAN_CHROMIUM_HEADLESS_SHELL);
    expect(chromiumHeadlessShellLeg.target({ FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH: "/opt/shell" })).toBe("/opt/shell");
    expect(DEBIAN_CHROMIUM_HEADLESS_SHELL).toBe("/usr/lib/chromium/chromium-headless-shell");
    const directory = await mkdtemp(join(tmpdir(), "frontdesk-headless-shell-leg-"));
    const packagePath = join(directory, "chromium-headless-shell");
    const ran: string[] = [];
    const machine: Machine = {
      ...realMachine,
      isRoot: () => true,
      hasCommand: (command: string) => command === "apt-get",
      run: async (command: string, args: string[]) => {
        ran.push([command, ...args].join(" "));
        if (args.includes("chromium-headless-shell")) await writeChromium(packagePath, 'echo "Chromium 156.0.8078.108"');
        return { code: 0, output: "" };
      },
    };
    const leg = createChromiumLeg({ name: "chromium-headless-shell", debianPackage: "chromium-headless-shell", packagePath, variable: "FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH" });
    const actions: string[] = [];
    const outcome = await leg.provision(packagePath, await leg.probe(packagePath), { machine, did: (action: string) => actions.push(action) });
    expect(ran).toEqual(["apt-get install -y --no-install-recommends chromium-headless-shell"]);
    expect(outcome).toEqual({ ready: true, problem: "" });
    expect(actions).toEqual(["installed Debian's chromium-headless-shell package with apt-get"]);
  });

  it.skipIf(missingLegs(["chromium"]).length > 0)("happy: this machine's Chromium answers the probe", async () => {
    expect(await chromiumLeg.probe(chromiumLeg.target(process.env))).toEqual({ ready: true, problem: "" });
  });

  it.skipIf(missingLegs(["chromium-headless-shell"]).length > 0)("happy: this machine's headless shell answers the probe", async () => {
    expect(await chromiumHeadlessShellLeg.probe(chromiumHeadlessShellLeg.target(process.env))).toEqual({ ready: true, problem: "" });
  });
});
