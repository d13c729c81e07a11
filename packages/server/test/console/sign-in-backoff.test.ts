import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { CONSOLE } from "../support/console-session.js";
import { giveOperatorPassword } from "../support/operator-password.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeNeeding } from "../support/test-legs.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";

const PUBLIC_ORIGIN = "http://console.frontdesk.test";
const PASSWORD = "correct horse battery";
const WRONG = "not the password at all";
const SECOND = 1000;

/** The back-off of sign-in-throttle.ts through the real route, on the service's clock (never wall time). */
function backoffTests(environment: () => Record<string, string>) {
  return (kind: Parameters<typeof createTestApp>[0]) => {
    let t: TestApp;
    let tenant: Tenant;
    let addressCount = 0;

    beforeAll(async () => {
      t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_ORIGIN, ...environment() });
      tenant = await seedTenant(t.services);
    });
    afterEach(() => {
      t.clock.offsetMs = 0;
    });
    afterAll(() => t.close());

    const newAddress = () => `203.0.113.${(addressCount += 1)}`;

    async function operatorWithPassword(): Promise<string> {
      const email = `op${randomUUID().slice(0, 8)}@acme.test`;
      const operator = (await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: tenant.workspaceId, email, name: "Ana" })) as { id: string };
      await giveOperatorPassword(t.services, operator.id, PASSWORD);
      return email;
    }

    const signIn = (email: string, password: string, address: string) =>
      t.app.inject({ method: "POST", url: `${CONSOLE}/session`, remoteAddress: address, headers: { origin: PUBLIC_ORIGIN }, payload: { email, password } });

    /** Moves the service's clock on by `ms`. */
    const wait = (ms: number) => {
      t.clock.offsetMs += ms;
    };

    it("security: 20 wrong passwords slow sign-in down (429 with Retry-After) and the operator still signs in, at once from their own address and after the wait from the guesser's", async () => {
      const email = await operatorWithPassword();
      const home = newAddress();
      const guesser = newAddress();
      expect((await signIn(email, PASSWORD, home)).statusCode).toBe(200);

      const answers = [];
      for (let attempt = 0; attempt < 20; attempt += 1) answers.push(await signIn(email, `${WRONG} ${attempt}`, guesser));
      expect(answers.slice(0, 5).map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401, 401]);
      for (const answer of answers.slice(5)) {
        expect(answer.statusCode).toBe(429);
        expect(answer.json().error.code).toBe("rate_limited");
        expect(answer.headers["retry-after"]).toBe("1");
      }
      // During the wait even the right password is refused there: waiting is no oracle.
      expect((await signIn(email, PASSWORD, guesser)).statusCode).toBe(429);
      // The operator at their own address is not held back by a guesser elsewhere.
      expect((await signIn(email, PASSWORD, home)).statusCode).toBe(200);

      // Each failure past the free ones doubles the wait.
      const retryAfters: string[] = [];
      for (const waited of [1, 2, 4]) {
        wait(waited * SECOND);
        expect((await signIn(email, WRONG, guesser)).statusCode).toBe(401);
        const refused = await signIn(email, WRONG, guesser);
        expect(refused.statusCode).toBe(429);
        retryAfters.push(String(refused.headers["retry-after"]));
      }
      expect(retryAfters).toEqual(["2", "4", "8"]);
      // After the wait, the right password works at the guesser's address too, and starts the count again.
      wait(8 * SECOND);
      expect((await signIn(email, PASSWORD, guesser)).statusCode).toBe(200);
      for (let attempt = 0; attempt < 5; attempt += 1) expect((await signIn(email, WRONG, guesser)).statusCode).toBe(401);
    });

    it("security: the wait is capped at 15 minutes, however many failures: never a lock-out for good", async () => {
      const email = await operatorWithPassword();
      const guesser = newAddress();
      // Guess, and when told to wait, wait exactly that long (on the service's clock) and guess again.
      const seen: number[] = [];
      while (seen.length < 12) {
        const answer = await signIn(email, WRONG, guesser);
        if (answer.statusCode === 429) {
          seen.push(Number(answer.headers["retry-after"]));
          wait(seen.at(-1)! * SECOND);
        } else expect(answer.statusCode).toBe(401);
      }
      expect(seen).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
      // One more failure: still 900 seconds, not more.
      expect((await signIn(email, WRONG, guesser)).statusCode).toBe(401);
      const capped = await signIn(email, PASSWORD, guesser);
      expect(capped.statusCode).toBe(429);
      expect(capped.headers["retry-after"]).toBe("900");
      // (The service's clock is the wall clock moved on: the milliseconds the test itself takes count too.)
      wait(890 * SECOND);
      expect((await signIn(email, PASSWORD, guesser)).statusCode).toBe(429);
      wait(10 * SECOND);
      expect((await signIn(email, PASSWORD, guesser)).statusCode).toBe(200);
    });

    it("security: an unknown e-mail gets the same answers as an operator's (401, then the same 429 and Retry-After)", async () => {
      const known = await operatorWithPassword();
      const unknown = `nobody${randomUUID().slice(0, 8)}@acme.test`;
      const answersOf = async (email: string) => {
        const address = newAddress();
        const answers = [];
        for (let attempt = 0; attempt < 7; attempt += 1) {
          const answer = await signIn(email, WRONG, address);
          answers.push({ status: answer.statusCode, body: answer.json(), retryAfter: answer.headers["retry-after"] });
        }
        return answers;
      };
      const knownAnswers = await answersOf(known);
      expect(knownAnswers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
      expect(await answersOf(unknown)).toEqual(knownAnswers);
    });

    it("security: a guesser spread over many addresses makes the account wait, except at an address it signed in from", async () => {
      const email = await operatorWithPassword();
      const home = newAddress();
      expect((await signIn(email, PASSWORD, home)).statusCode).toBe(200);
      for (let attempt = 0; attempt < 30; attempt += 1) expect((await signIn(email, WRONG, newAddress())).statusCode).toBe(401);
      const elsewhere = await signIn(email, PASSWORD, newAddress());
      expect(elsewhere.statusCode).toBe(429);
      expect(elsewhere.headers["retry-after"]).toBe("1");
      expect((await signIn(email, PASSWORD, home)).statusCode).toBe(200);
    });

    it("error: the per-IP window still answers 429 past 20 attempts in 5 minutes, whatever the e-mail", async () => {
      const address = newAddress();
      // Operators' e-mails and unknown ones alike. One in five is unknown: each of those is checked
      // against a hash at production's scrypt cost, an operator's fixture password in a millisecond.
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const email = attempt % 5 === 0 ? `guess${attempt}-${randomUUID().slice(0, 6)}@acme.test` : await operatorWithPassword();
        expect((await signIn(email, WRONG, address)).statusCode).toBe(401);
      }
      const refused = await signIn(await operatorWithPassword(), PASSWORD, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["x-ratelimit-limit"]).toBe("20");
    });
  };
}

// The back-off's counts live in the process or in Redis, never in the store (which holds only the
// operator, and sign-in.test.ts signs in on both stores): each counter runs once, on one store.
describe("sign-in back-off (in memory) on pglite", () => {
  backoffTests(() => ({}))("pglite");
});

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redisPrefix = `frontdesk-test-${randomUUID()}:`;
describeNeeding("redis", "postgres")("sign-in back-off counted in Redis, on postgres", () => {
  backoffTests(() => ({ FRONTDESK_REDIS_URL: redisUrl, FRONTDESK_REDIS_PREFIX: redisPrefix }))("postgres");
});
