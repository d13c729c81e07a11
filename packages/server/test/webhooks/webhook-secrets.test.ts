import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, webhookSecretBox } from "../../src/webhooks/webhook-secret-box.js";
import { signWebhook, verifyWebhookSignature } from "../../src/webhooks/webhook-signature.js";

const SERVICE_SECRET = "service-secret-service-secret-service-secret-0123";

describe("webhook signing secrets and signatures", () => {
  it("happy: a sealed secret opens for its endpoint under the same service secret, and is not readable in its sealed form", () => {
    const box = webhookSecretBox(SERVICE_SECRET);
    const secret = generateWebhookSecret();
    const sealed = box.seal(secret, "whk_1");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.seal(secret, "whk_1")).not.toBe(sealed);
    expect(box.open(sealed, "whk_1")).toBe(secret);
  });

  it("security: it does not open for another endpoint, under another service secret, or altered", () => {
    const box = webhookSecretBox(SERVICE_SECRET);
    const sealed = box.seal(generateWebhookSecret(), "whk_1");
    expect(box.open(sealed, "whk_2")).toBeNull();
    expect(webhookSecretBox(`${SERVICE_SECRET}x`).open(sealed, "whk_1")).toBeNull();
    const [version, iv, body] = sealed.split(".");
    const flipped = `${body!.slice(0, 5)}${body![5] === "A" ? "B" : "A"}${body!.slice(6)}`;
    expect(box.open(`${version}.${iv}.${flipped}`, "whk_1")).toBeNull();
    expect(box.open("v2.x.y", "whk_1")).toBeNull();
    expect(box.open("garbage", "whk_1")).toBeNull();
  });

  it("happy: the header is t=…,v1=HMAC-SHA256(secret, `${t}.${body}`) in hex, verified within the tolerance", () => {
    const body = JSON.stringify({ id: "evt_1", type: "lead.created", created_at: "2026-01-01T00:00:00.000Z", data: {} });
    const header = signWebhook("whsec_abc", 1_700_000_000, body);
    expect(header).toBe(`t=1700000000,v1=${createHmac("sha256", "whsec_abc").update(`1700000000.${body}`).digest("hex")}`);
    expect(verifyWebhookSignature("whsec_abc", header, body, { nowSeconds: 1_700_000_100 })).toBe(true);
    // Several v1 (a receiver during a rotation): any match is enough.
    expect(verifyWebhookSignature("whsec_abc", `t=1700000000,v1=${"0".repeat(64)},${header.split(",")[1]}`, body, { nowSeconds: 1_700_000_000 })).toBe(true);
  });

  it("security: a changed body, another secret, an old timestamp or a malformed header fail", () => {
    const body = "{}";
    const header = signWebhook("whsec_abc", 1_700_000_000, body);
    expect(verifyWebhookSignature("whsec_abc", header, "{ }", { nowSeconds: 1_700_000_000 })).toBe(false);
    expect(verifyWebhookSignature("whsec_abd", header, body, { nowSeconds: 1_700_000_000 })).toBe(false);
    expect(verifyWebhookSignature("whsec_abc", header, body, { nowSeconds: 1_700_000_301 })).toBe(false);
    expect(verifyWebhookSignature("whsec_abc", header.replace("t=1700000000", "t=1700000001"), body, { nowSeconds: 1_700_000_000 })).toBe(false);
    expect(verifyWebhookSignature("whsec_abc", "v1=abc", body)).toBe(false);
    expect(verifyWebhookSignature("whsec_abc", "t=1700000000,v1=zz", body, { nowSeconds: 1_700_000_000 })).toBe(false);
  });
});
