import { readFile } from "node:fs/promises";
import Fastify from "fastify";
import semver from "semver";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const lockfileSchema = z.object({
  packages: z.record(
    z.string(),
    z.object({ version: z.string().optional(), engines: z.unknown().optional(), optional: z.boolean().optional(), hasInstallScript: z.boolean().optional() }),
  ),
});
const engineSchema = z.object({ node: z.string() });

async function readLockfile(): Promise<z.infer<typeof lockfileSchema>> {
  const text = await readFile(new URL("../../../../package-lock.json", import.meta.url), "utf8");
  return lockfileSchema.parse(JSON.parse(text));
}

describe("installed packages (happy)", () => {
  test("every package in the lockfile runs on the oldest Node we declare, so npm install prints no EBADENGINE", async () => {
    const lockfile = await readLockfile();
    const declared = engineSchema.parse(lockfile.packages[""]?.engines).node;
    const oldest = semver.minVersion(declared)?.version;
    expect(oldest).toBe("20.19.0");
    const refusing = Object.entries(lockfile.packages)
      .map(([location, entry]) => ({ location, version: entry.version, node: engineSchema.safeParse(entry.engines).data?.node }))
      .filter((entry) => entry.node !== undefined && !semver.satisfies(oldest ?? "", entry.node))
      .map((entry) => `${entry.location}@${entry.version} needs node ${entry.node}`);
    expect(refusing).toEqual([]);
  });

  test("Fastify's inject sends cookies through the cookie version pinned for light-my-request", async () => {
    const app = Fastify();
    app.get("/echo", (request) => ({ cookie: request.headers.cookie ?? null }));
    try {
      const response = await app.inject({ method: "GET", url: "/echo", cookies: { session: "a b", theme: "dark" } });
      expect(response.json()).toEqual({ cookie: "session=a%20b; theme=dark" });
    } finally {
      await app.close();
    }
  });

  test("the local embedder installs only what a server runs: no browser ONNX runtime, and its runtime is optional", async () => {
    const lockfile = await readLockfile();
    const installed = Object.keys(lockfile.packages);
    const unwanted = ["onnxruntime-web", "@huggingface/transformers"];
    expect(installed.filter((location) => unwanted.some((name) => location.endsWith(`node_modules/${name}`)))).toEqual([]);
    for (const name of ["onnxruntime-node", "@huggingface/tokenizers"]) {
      expect({ name, optional: lockfile.packages[`node_modules/${name}`]?.optional }).toEqual({ name, optional: true });
    }
  });

  test("sharp (attachments' image re-encoding) installs its prebuilt libvips from the registry, with no install script", async () => {
    const lockfile = await readLockfile();
    const sharpEntries = Object.entries(lockfile.packages).filter(([location]) => /node_modules\/(sharp|@img\/sharp-[^/]+)$/.test(location));
    expect(sharpEntries.map(([location]) => location)).toEqual(expect.arrayContaining(["node_modules/sharp", "node_modules/@img/sharp-linux-x64", "node_modules/@img/sharp-libvips-linux-x64"]));
    expect(sharpEntries.filter(([, entry]) => entry.hasInstallScript === true).map(([location]) => location)).toEqual([]);
  });
});
