import type { PresenceChannel } from "pusher-js";
import { useCallback, useEffect, useRef, useState } from "react";
import { useRealtime } from "../realtime/realtime-context.js";
import { useOperator } from "../session.js";

/** Another operator with this conversation open. */
export interface PresentOperator {
  id: string;
  name: string;
  role: "admin" | "agent";
  typing: boolean;
}

/** The collision channel: the operators who have conversation `id` open (signed by the console's auth route, never a visitor's). */
export const conversationOperatorsChannel = (id: string) => `presence-conversation-operators.${id}`;

/** A colleague's typing nobody switched off (a closed tab, a lost whisper) fades after this long. */
const TYPING_FADE_MS = 8000;
/** Our own typing is whispered at most this often while we keep typing… */
const WHISPER_EVERY_MS = 2000;
/** …and no keystroke for this long means we stopped. */
const TYPING_IDLE_MS = 4000;

interface MemberInfo {
  name?: unknown;
  role?: unknown;
}

const present = (id: string, info: MemberInfo | null | undefined): PresentOperator => ({
  id,
  name: typeof info?.name === "string" ? info.name : "An operator",
  role: info?.role === "admin" ? "admin" : "agent",
  typing: false,
});

/**
 * Who else has this conversation open, live (collision): joins its operators' presence channel
 * while the view is mounted; the others (never ourselves, however many of our tabs are there)
 * with whether they are typing, which members whisper to each other (`client-typing`, relayed by
 * the realtime server with the sender's id). `keystroke` and `stopTyping` whisper ours.
 */
export function useConversationPresence(conversationId: string) {
  const { pusher } = useRealtime();
  const me = useOperator();
  const [others, setOthers] = useState<PresentOperator[]>([]);
  const channelRef = useRef<PresenceChannel | null>(null);
  const fades = useRef(new Map<string, number>());
  const whisper = useRef<{ sentAt: number; idle?: number }>({ sentAt: 0 });
  // Bumped to join again after the server ended our membership (our role changed: the signature named the old one).
  const [joins, setJoins] = useState(0);

  useEffect(() => {
    setOthers([]);
    if (!pusher) return;
    const name = conversationOperatorsChannel(conversationId);
    const channel = pusher.subscribe(name) as PresenceChannel;
    channelRef.current = channel;
    const timers = fades.current;
    const stopFade = (id: string) => {
      window.clearTimeout(timers.get(id));
      timers.delete(id);
    };
    const setTyping = (id: string, typing: boolean) => setOthers((current) => current.map((other) => (other.id === id ? { ...other, typing } : other)));

    const readMembers = () => {
      const list: PresentOperator[] = [];
      channel.members.each((member: { id: string; info: MemberInfo | null }) => {
        if (member.id !== me.id) list.push(present(member.id, member.info));
      });
      setOthers(list);
    };
    const added = (member: { id: string; info: MemberInfo | null }) => {
      if (member.id === me.id) return;
      setOthers((current) => (current.some((other) => other.id === member.id) ? current : [...current, present(member.id, member.info)]));
      // Someone arrives while we type: they hear it now, not at our next whisper.
      if (whisper.current.sentAt !== 0) channel.trigger("client-typing", { typing: true });
    };
    const removed = (member: { id: string }) => {
      stopFade(member.id);
      setOthers((current) => current.filter((other) => other.id !== member.id));
    };
    const typing = (data: { typing?: unknown }, metadata?: { user_id?: string }) => {
      const id = metadata?.user_id;
      if (!id || id === me.id) return;
      const on = data?.typing === true;
      stopFade(id);
      setTyping(id, on);
      if (on) timers.set(id, window.setTimeout(() => setTyping(id, false), TYPING_FADE_MS));
    };
    // The server ends a subscription whose right changed (`pusher:subscription_error` on a joined
    // channel): join again, signed as we are now. A refusal before joining is final (no loop).
    let joined = channel.subscribed;
    const subscribed = () => {
      joined = true;
      readMembers();
    };
    let rejoin: number | undefined;
    const ended = () => {
      if (!joined) return;
      joined = false;
      setOthers([]);
      rejoin = window.setTimeout(() => setJoins((count) => count + 1), 250);
    };
    channel.bind("pusher:subscription_succeeded", subscribed);
    channel.bind("pusher:subscription_error", ended);
    channel.bind("pusher:member_added", added);
    channel.bind("pusher:member_removed", removed);
    channel.bind("client-typing", typing);
    if (channel.subscribed) readMembers();
    return () => {
      channel.unbind("pusher:subscription_succeeded", subscribed);
      channel.unbind("pusher:subscription_error", ended);
      window.clearTimeout(rejoin);
      channel.unbind("pusher:member_added", added);
      channel.unbind("pusher:member_removed", removed);
      channel.unbind("client-typing", typing);
      for (const timer of timers.values()) window.clearTimeout(timer);
      timers.clear();
      window.clearTimeout(whisper.current.idle);
      whisper.current.sentAt = 0;
      channelRef.current = null;
      pusher.unsubscribe(name);
    };
  }, [pusher, conversationId, me.id, joins]);

  const send = (typing: boolean) => {
    const channel = channelRef.current;
    if (channel?.subscribed) channel.trigger("client-typing", { typing });
  };
  const stopTyping = useCallback(() => {
    window.clearTimeout(whisper.current.idle);
    if (whisper.current.sentAt === 0) return;
    whisper.current.sentAt = 0;
    send(false);
  }, []);
  const keystroke = useCallback(() => {
    const now = Date.now();
    if (now - whisper.current.sentAt >= WHISPER_EVERY_MS) {
      whisper.current.sentAt = now;
      send(true);
    }
    window.clearTimeout(whisper.current.idle);
    whisper.current.idle = window.setTimeout(stopTyping, TYPING_IDLE_MS);
  }, [stopTyping]);

  return { others, keystroke, stopTyping };
}
