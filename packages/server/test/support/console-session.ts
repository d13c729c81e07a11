import { randomBytes } from "node:crypto";
import type { ChannelAuthorizationHandler } from "pusher-js";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import type { SignedInOperator } from "../../src/console/authenticate-operator.js";
import { publicOrigin } from "../../src/console/public-origin.js";
import { SESSION_COOKIE_NAME } from "../../src/console/session-cookie.js";
import { startOperatorSession } from "../../src/console/start-operator-session.js";
import type { TestApp } from "./test-app.js";
import { adminOf, seedTenant } from "./seed.js";

export const CONSOLE = "/api/v1/console";

/**
 * pusher-js's `channelAuthorization.customHandler` asking the console's auth route at `authUrl`
 * with `headers` (the session cookie and Origin). A browser on the console's page sends them by
 * itself; pusher-js's Node XHR drops a Cookie header, so the same form-encoded request is posted
 * with fetch.
 */
export function consoleChannelAuthorizer(authUrl: string, headers: Record<string, string>): ChannelAuthorizationHandler {
  return ({ socketId, channelName }, callback) => {
    fetch(authUrl, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ socket_id: socketId, channel_name: channelName }).toString(),
    }).then(
      async (response) => {
        if (response.ok) callback(null, (await response.json()) as { auth: string; channel_data?: string });
        else callback(Object.assign(new Error(`status ${response.status}`), { status: response.status }), null);
      },
      (error: Error) => callback(error, null),
    );
  };
}

export interface ConsoleSession {
  operator: SignedInOperator;
  /** The session cookie's value. */
  secret: string;
  /** What a browser on the console's page sends: the cookie, and Origin (FRONTDESK_PUBLIC_URL's origin). */
  headers: { cookie: string; origin: string };
}

/** The Cookie header of a console session. */
export const sessionCookie = (secret: string) => `${SESSION_COOKIE_NAME}=${secret}`;

/**
 * An operator of `workspaceId` (made by the admin command, with a unique e-mail unless given)
 * and a live console session of theirs, as a sign-in would start it.
 */
export async function createSignedInOperator(
  testApp: TestApp,
  options: { workspaceId: string; role: "admin" | "agent"; name?: string; email?: string },
): Promise<ConsoleSession> {
  const name = options.name ?? `Operator ${randomBytes(3).toString("hex")}`;
  const email = options.email ?? `${randomBytes(6).toString("hex")}@operators.test`;
  const created = (await runAdminCommand(adminOf(testApp.services), {
    command: "operator.create",
    workspaceId: options.workspaceId,
    email,
    name,
    role: options.role,
  })) as { id: string };
  const session = await startOperatorSession(testApp.services, created.id);
  return {
    operator: { id: created.id, workspaceId: options.workspaceId, role: options.role, name, email },
    secret: session.secret,
    headers: { cookie: sessionCookie(session.secret), origin: publicOrigin(testApp.services.config) },
  };
}

/**
 * The cast of most console tests: a workspace (`tenant`) with an admin and an `agent`-role
 * operator, signed in, and the admin of another workspace (`outsider`), for the scoping checks.
 */
export async function seedConsoleCast(t: TestApp, names: { admin?: string; agentOperator?: string; outsider?: string } = {}) {
  const tenant = await seedTenant(t.services);
  const other = await seedTenant(t.services);
  const named = (name: string | undefined) => (name === undefined ? {} : { name });
  return {
    tenant,
    other,
    admin: await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", ...named(names.admin) }),
    agentOperator: await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", ...named(names.agentOperator) }),
    outsider: await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin", ...named(names.outsider) }),
  };
}
