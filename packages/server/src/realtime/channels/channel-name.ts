export type ChannelKind = "public" | "private" | "presence";

/** The characters the Pusher protocol allows in a channel name. */
const CHANNEL_NAME = /^[-a-zA-Z0-9_=@,.;]+$/;

/** Private and presence channels need a signature; every other name is a public channel. */
export function kindOfChannel(name: string): ChannelKind {
  if (name.startsWith("presence-")) return "presence";
  if (name.startsWith("private-")) return "private";
  return "public";
}

/** Why `name` cannot be a channel, or null when it can. End-to-end encrypted channels are not served. */
export function channelNameProblem(name: string, maxLength: number): string | null {
  if (name.length === 0 || name.length > maxLength) return `A channel name has 1 to ${maxLength} characters.`;
  if (!CHANNEL_NAME.test(name)) return "A channel name has only letters, digits and - _ = @ , . ;";
  if (name.startsWith("private-encrypted-")) return "Encrypted channels are not served.";
  return null;
}
