import type { ChannelGrant, Revocation } from "./channels/channel-grants.js";
import type { ChannelCredentials } from "./channels/channel-signature.js";
import type { PresenceMember } from "./presence/presence-store.js";
import type { PublishInput, RealtimeServer, RealtimeSharing } from "./realtime-server.js";

/**
 * What the service asks of the realtime layer, whichever server clients connect to: the embedded
 * one (realtime-server.ts) or an external Pusher-compatible one (pusher-driver.ts). The driver is
 * FRONTDESK_REALTIME_DRIVER's choice; nothing outside this folder knows which it is.
 */
export interface Realtime {
  readonly driver: "embedded" | "pusher";
  /** The app of the server clients connect to: its key and secret sign their subscriptions. */
  readonly credentials: ChannelCredentials & { appId: string };
  /** Sends an event to a channel's subscribers. Never rejects because a server is unreachable. */
  publish(input: PublishInput): Promise<void>;
  /**
   * Records that the subscription about to be signed is held by `principals` (the service's names
   * for the session, operator or conversation it depends on), so that revoking one ends it; resolves
   * once the grant is recorded or on its way to the process holding the socket. Nothing with an
   * external server: the Pusher HTTP API cannot end a subscription.
   */
  grant(grant: ChannelGrant): Promise<void>;
  /** Ends, within moments and on every process, the subscriptions granted to any of the principals (nothing with an external server). */
  revoke(revocation: Revocation): Promise<void>;
  /** Who is on a presence channel, one member per user (nobody, logged, while an external server does not answer). */
  presenceMembers(channel: string): Promise<PresenceMember[]>;
  /** How many users are on a presence channel, counted without listing them (0, logged, while an external server does not answer). */
  presenceUserCount(channel: string): Promise<number>;
  /** Whether events and presence reach every process (Redis, or the external server), and if not, why (for /healthz). */
  sharing(): RealtimeSharing;
  /** Sockets this process serves (always 0 when an external server serves them). */
  readonly connectionCount: number;
  /** The embedded server, which this process's HTTP server attaches (WebSocket upgrades, /apps); null with an external one. */
  readonly embedded: RealtimeServer | null;
  /** Closes the sockets this process serves (4200), or sends what is still queued for the external server. */
  close(): Promise<void>;
}

/** The embedded server, as the service sees it. */
export function embeddedRealtime(server: RealtimeServer): Realtime {
  return {
    driver: "embedded",
    credentials: server.credentials,
    publish: (input) => server.publish(input),
    grant: (grant) => server.grant(grant),
    revoke: (revocation) => server.revoke(revocation),
    presenceMembers: (channel) => server.presenceMembers(channel),
    presenceUserCount: async (channel) => (await server.userCounts([channel])).get(channel) ?? 0,
    sharing: () => server.sharing(),
    get connectionCount() {
      return server.connectionCount;
    },
    embedded: server,
    close: () => server.close(),
  };
}
