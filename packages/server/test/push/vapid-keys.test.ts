import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { resolveVapidKeys } from "../../src/config/vapid-keys.js";
import { TEST_VAPID_KEYS } from "../support/test-app.js";

describe("VAPID keys", () => {
  it("happy: generated once on first start, kept in the data dir (0600), the same on the next start", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-vapid-"));
    try {
      const config = loadConfig({ FRONTDESK_DATA_DIR: dataDir });
      const [first, concurrent] = await Promise.all([resolveVapidKeys(config.push, dataDir), resolveVapidKeys(config.push, dataDir)]);
      expect(concurrent).toEqual(first);
      expect(first.publicKey).toMatch(/^B[\w-]{86}$/);
      expect(first.privateKey).toMatch(/^[\w-]{43}$/);
      expect((await stat(join(dataDir, "vapid-private-key"))).mode & 0o777).toBe(0o600);
      expect(await resolveVapidKeys(config.push, dataDir)).toEqual(first);
      await writeFile(join(dataDir, "vapid-private-key"), `${"A".repeat(43)}\n`);
      await expect(resolveVapidKeys(config.push, dataDir)).rejects.toThrow(/vapid-private-key/);
      expect((await readFile(join(dataDir, "vapid-private-key"), "utf8")).trim()).toBe("A".repeat(43));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("happy: configured keys are used as given, and the subject defaults to an https public URL", async () => {
    const config = loadConfig({
      FRONTDESK_VAPID_PUBLIC_KEY: TEST_VAPID_KEYS.publicKey,
      FRONTDESK_VAPID_PRIVATE_KEY: TEST_VAPID_KEYS.privateKey,
      FRONTDESK_PUBLIC_URL: "https://desk.example.com",
    });
    expect(await resolveVapidKeys(config.push, "/nonexistent")).toEqual(TEST_VAPID_KEYS);
    expect(config.push.vapidSubject).toBe("https://desk.example.com");
  });

  it("error: a bad key, a half pair, a mismatched pair or a bad subject stops the start, naming the variable", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ FRONTDESK_VAPID_PUBLIC_KEY: TEST_VAPID_KEYS.publicKey }, /FRONTDESK_VAPID_PRIVATE_KEY: required/],
      [{ FRONTDESK_VAPID_PRIVATE_KEY: TEST_VAPID_KEYS.privateKey }, /FRONTDESK_VAPID_PUBLIC_KEY: required/],
      [{ FRONTDESK_VAPID_PUBLIC_KEY: "short", FRONTDESK_VAPID_PRIVATE_KEY: TEST_VAPID_KEYS.privateKey }, /FRONTDESK_VAPID_PUBLIC_KEY/],
      [{ FRONTDESK_VAPID_PUBLIC_KEY: TEST_VAPID_KEYS.publicKey, FRONTDESK_VAPID_PRIVATE_KEY: "not-a-key" }, /FRONTDESK_VAPID_PRIVATE_KEY: must be a P-256 private key/],
      [
        { FRONTDESK_VAPID_PUBLIC_KEY: TEST_VAPID_KEYS.publicKey, FRONTDESK_VAPID_PRIVATE_KEY: Buffer.alloc(32, 7).toString("base64url") },
        /FRONTDESK_VAPID_PUBLIC_KEY: is not the public key/,
      ],
      [{ FRONTDESK_VAPID_SUBJECT: "http://desk.example.com" }, /FRONTDESK_VAPID_SUBJECT/],
      [{ FRONTDESK_VAPID_SUBJECT: "ops@example.com" }, /FRONTDESK_VAPID_SUBJECT/],
      [{ FRONTDESK_PUSH_ALLOW_PRIVATE_NETWORKS: "maybe" }, /FRONTDESK_PUSH_ALLOW_PRIVATE_NETWORKS/],
    ];
    for (const [environment, message] of cases) {
      expect(() => loadConfig(environment)).toThrow(ConfigError);
      expect(() => loadConfig(environment)).toThrow(message);
    }
    expect(loadConfig({ FRONTDESK_VAPID_SUBJECT: "mailto:ops@example.com" }).push.vapidSubject).toBe("mailto:ops@example.com");
  });
});
