import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose";
import Provider from "oidc-provider";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface LoopbackOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real, certified OpenID provider (oidc-provider) on loopback, with one confidential client. Its
 * login interaction signs in the account named by `login_hint` (the account id is the e-mail, with
 * `email_verified` true) and grants `openid email profile` at once: no form to fill.
 */
export async function startOidcProvider(client: { redirectUri: string; postLogoutRedirectUri: string }): Promise<LoopbackOpenIdProvider> {
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server = createServer((request, response) => handle(request, response));
  const issuer = await listen(server);
  const clientId = "frontdesk-console";
  const clientSecret = "a-client-secret-of-the-loopback-provider";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [client.redirectUri],
        post_logout_redirect_uris: [client.postLogoutRedirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    cookies: { keys: ["loopback-provider-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    scopes: ["openid", "email", "profile"],
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    findAccount: async (_context, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: `Person ${id.split("@")[0]}` }),
    }),
  });
  const callback = provider.callback();
  handle = (request, response) => {
    if (request.url?.startsWith("/interaction/")) {
      void (async () => {
        const details = await provider.interactionDetails(request, response);
        const accountId = String(details.params.login_hint);
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope("openid email profile");
        const grantId = await grant.save();
        await provider.interactionFinished(request, response, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    callback(request, response);
  };
  return { issuer, clientId, clientSecret, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A hand-rolled provider that answers what a test tells it to: its discovery document, its keys,
 * and a token endpoint returning an ID token of the test's making (signed with its key, or with a
 * key it does not publish), to show each broken response refused.
 */
export interface HandRolledProvider {
  issuer: string;
  clientId: string;
  /** The claims of the next ID token, and whether to sign it with a key the JWKS does not hold. */
  nextToken: { claims: JWTPayload; foreignKey?: boolean } | null;
  close(): Promise<void>;
}

export async function startHandRolledProvider(): Promise<HandRolledProvider> {
  const own = await generateKeyPair("RS256");
  const foreign = await generateKeyPair("RS256");
  const publicJwk: JWK = { ...(await exportJWK(own.publicKey)), kid: "own", alg: "RS256", use: "sig" };
  const server = createServer();
  const issuer = await listen(server);
  const state: HandRolledProvider = { issuer, clientId: "hand-rolled-client", nextToken: null, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  const json = (response: ServerResponse, body: unknown) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(body));
  };
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const path = new URL(request.url ?? "/", issuer).pathname;
      if (path === "/.well-known/openid-configuration") {
        return json(response, {
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
        });
      }
      if (path === "/jwks") return json(response, { keys: [publicJwk] });
      if (path === "/token" && state.nextToken) {
        for await (const _chunk of request) void _chunk;
        const { claims, foreignKey } = state.nextToken;
        const idToken = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "own" }).sign(foreignKey ? foreign.privateKey : own.privateKey);
        return json(response, { access_token: "an-access-token", token_type: "Bearer", expires_in: 300, id_token: idToken });
      }
      response.statusCode = 404;
      response.end();
    })();
  });
  return state;
}
