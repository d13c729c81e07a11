/**
 * A subscription the service signed, as the process holding its socket remembers it: to whom it
 * was granted, so that it can be ended when those rights end. `principals` are opaque here (the
 * service names them: bus-channels.ts); revoking any one of them ends the grant.
 */
export interface ChannelGrant {
  socketId: string;
  channel: string;
  /** Presence channels: the `channel_data` signed with it. */
  channelData?: string | undefined;
  principals: string[];
}

/** Ends, on every process, the grants of any of `principals`; `reason` is what their sockets are told. */
export interface Revocation {
  principals: string[];
  reason: string;
}

interface GrantState {
  principals: string[];
  channelData: string | undefined;
  revoked: boolean;
}

/**
 * The grants of this process's sockets, by socket and by principal. A revoked grant is kept (as
 * revoked) while its socket lives: the signature it came with never expires, and a second
 * `pusher:subscribe` with it must be refused too. A new grant of the same channel to the same
 * socket (signed again, e.g. with the operator's new role) replaces it.
 */
export class ChannelGrants {
  private readonly sockets = new Map<string, Map<string, GrantState>>();
  /** principal → socket id → channels */
  private readonly principals = new Map<string, Map<string, Set<string>>>();

  constructor(private readonly maxPerSocket: number) {}

  /** Records a grant; false (nothing recorded) when its socket already holds `maxPerSocket` grants of other channels. */
  record(grant: ChannelGrant): boolean {
    let channels = this.sockets.get(grant.socketId);
    const previous = channels?.get(grant.channel);
    if (!previous && (channels?.size ?? 0) >= this.maxPerSocket) return false;
    if (!channels) this.sockets.set(grant.socketId, (channels = new Map()));
    if (previous && !previous.revoked) this.unindex(grant.socketId, grant.channel, previous.principals);
    channels.set(grant.channel, { principals: [...new Set(grant.principals)], channelData: grant.channelData, revoked: false });
    for (const principal of new Set(grant.principals)) {
      let sockets = this.principals.get(principal);
      if (!sockets) this.principals.set(principal, (sockets = new Map()));
      let granted = sockets.get(grant.socketId);
      if (!granted) sockets.set(grant.socketId, (granted = new Set()));
      granted.add(grant.channel);
    }
    return true;
  }

  /** Marks every grant of any of `principals` revoked and returns them (each once). */
  revoke(principals: string[]): { socketId: string; channel: string }[] {
    const revoked: { socketId: string; channel: string }[] = [];
    for (const principal of principals) {
      for (const [socketId, channels] of this.principals.get(principal) ?? []) {
        for (const channel of [...channels]) {
          const state = this.sockets.get(socketId)?.get(channel);
          if (!state || state.revoked) continue;
          state.revoked = true;
          this.unindex(socketId, channel, state.principals);
          revoked.push({ socketId, channel });
        }
      }
    }
    return revoked;
  }

  /**
   * Why a signed subscription of the socket must still be refused, or null: its grant was revoked
   * (a presence channel's: that same `channel_data`), or it names other `channel_data` than the
   * live grant. A subscription with no grant here (signed elsewhere, or its grant still on its way
   * from another process) is not refused.
   */
  refusal(socketId: string, channel: string, channelData: string | undefined): string | null {
    const state = this.sockets.get(socketId)?.get(channel);
    if (!state) return null;
    if (state.revoked) return state.channelData === channelData ? "This subscription's rights were revoked." : null;
    if (state.channelData !== undefined && state.channelData !== channelData) return "This subscription's channel_data is not the one this socket was granted.";
    return null;
  }

  /** The socket closed: its grants go with it. */
  forgetSocket(socketId: string): void {
    const channels = this.sockets.get(socketId);
    if (!channels) return;
    this.sockets.delete(socketId);
    for (const [channel, state] of channels) if (!state.revoked) this.unindex(socketId, channel, state.principals);
  }

  /** Grants (revoked ones included) held for this process's sockets. */
  get size(): number {
    let size = 0;
    for (const channels of this.sockets.values()) size += channels.size;
    return size;
  }

  private unindex(socketId: string, channel: string, principals: string[]): void {
    for (const principal of principals) {
      const sockets = this.principals.get(principal);
      const channels = sockets?.get(socketId);
      if (!sockets || !channels) continue;
      channels.delete(channel);
      if (channels.size === 0) sockets.delete(socketId);
      if (sockets.size === 0) this.principals.delete(principal);
    }
  }
}
