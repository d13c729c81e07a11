import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { Link } from "wouter";
import { api, dataOf, describeError, type Schemas } from "../api/client.js";
import { StatusBadge } from "./status-badge.js";
import "./visitor-profile.css";

type Profile = Schemas["ConsoleVisitorProfile"];

export const visitorProfileQueryKey = (conversationId: string) => ["conversation", conversationId, "visitor"] as const;

const DEVICE_NAMES: Record<NonNullable<NonNullable<Profile["browser"]>["device"]>, string> = {
  desktop: "computer",
  mobile: "phone",
  tablet: "tablet",
  tv: "TV",
  bot: "automated client",
};

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });

/** "Firefox 133 on Windows 10, computer": what the user agent says, in words. */
export function describeBrowser(browser: NonNullable<Profile["browser"]>): string {
  const name = [browser.name, browser.version].filter(Boolean).join(" ") || "Unknown browser";
  return [`${name}${browser.os ? ` on ${browser.os}` : ""}`, browser.device ? DEVICE_NAMES[browser.device] : null].filter(Boolean).join(", ");
}

/** The visitor's local time now, in their time zone (refreshed every half minute), e.g. "14:05 (Europe/Zurich)". */
function LocalTime({ zone }: { zone: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  let shown: string;
  try {
    shown = new Intl.DateTimeFormat(undefined, { timeStyle: "short", timeZone: zone }).format(now);
  } catch {
    return <>{zone}</>;
  }
  return (
    <>
      {shown} <span className="muted">({zone.replace(/_/g, " ")})</span>
    </>
  );
}

/** "French (Switzerland) · fr-CH", or the tag alone where the browser cannot name it. */
function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(undefined, { type: "language" }).of(tag);
    return name && name !== tag ? `${name} · ${tag}` : tag;
  } catch {
    return tag;
  }
}

/** A page's path and query, for a list where the site is the same throughout. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}` || url;
  } catch {
    return url;
  }
}

function ProfileDetails({ profile }: { profile: Profile }) {
  const rows: [string, ReactNode][] = [];
  if (profile.time_zone) rows.push(["Local time", <LocalTime zone={profile.time_zone} />]);
  if (profile.language) rows.push(["Language", languageName(profile.language)]);
  if (profile.browser) rows.push(["Browser", <span title={profile.browser.user_agent}>{describeBrowser(profile.browser)}</span>]);
  rows.push(["First seen", dateTime.format(new Date(profile.first_seen_at))]);
  const earlier = profile.conversations.filter((conversation) => !conversation.current);
  const { satisfaction, answers } = profile.ratings;
  return (
    <>
      <dl>
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h4>Pages in this conversation</h4>
      {profile.pages.length === 0 ? (
        <p className="muted">None known.</p>
      ) : (
        <ol className="profile-list">
          {profile.pages.map((page, index) => (
            <li key={`${page.url}-${index}`}>
              <a href={page.url} target="_blank" rel="noopener noreferrer">
                {page.title ?? pathOf(page.url)}
              </a>{" "}
              <time className="muted" dateTime={page.at}>
                {time.format(new Date(page.at))}
              </time>
            </li>
          ))}
        </ol>
      )}
      <h4>Earlier conversations</h4>
      {earlier.length === 0 ? (
        <p className="muted">This is their first.</p>
      ) : (
        <ul className="profile-list">
          {earlier.map((conversation) => (
            <li key={conversation.id}>
              <Link href={`/inbox/${conversation.id}`}>{conversation.first_message ?? "No message"}</Link>
              <span className="profile-meta">
                <StatusBadge status={conversation.status} />{" "}
                <time className="muted" dateTime={conversation.created_at}>
                  {dateTime.format(new Date(conversation.created_at))}
                </time>
              </span>
            </li>
          ))}
        </ul>
      )}
      <h4>Leads</h4>
      {profile.leads.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="profile-list">
          {profile.leads.map((lead) => (
            <li key={lead.id}>{[lead.name, lead.email, lead.phone].filter(Boolean).join(" · ")}</li>
          ))}
        </ul>
      )}
      <h4>Ratings</h4>
      {satisfaction.length === 0 && answers.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="profile-list">
          {satisfaction.map((rating) => (
            <li key={`s-${rating.conversation_id}`}>
              Conversation rated <strong>{rating.rating === "good" ? "good" : "bad"}</strong>
              {rating.comment ? ` — “${rating.comment}”` : ""}
            </li>
          ))}
          {answers.map((rating) => (
            <li key={`a-${rating.message_id}`}>
              Answer rated <strong>{rating.rating === "up" ? "helpful" : "not helpful"}</strong>: <q>{rating.excerpt}</q>
              {rating.comment ? ` — “${rating.comment}”` : ""}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The visitor's history and profile beside the conversation (GET …/conversations/{id}/visitor). */
export function VisitorProfilePanel({ conversationId }: { conversationId: string }) {
  const profile = useQuery({
    queryKey: visitorProfileQueryKey(conversationId),
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/conversations/{id}/visitor", { params: { path: { id: conversationId } } }))).data,
  });
  return (
    <section className="visitor-profile" aria-labelledby={`profile-${conversationId}`}>
      <h3 id={`profile-${conversationId}`} className="visually-hidden">
        Profile and history
      </h3>
      {profile.isPending && <p className="muted">Loading the visitor's history…</p>}
      {profile.isError && (
        <p className="error" role="alert">
          {describeError(profile.error)}
        </p>
      )}
      {profile.data && <ProfileDetails profile={profile.data} />}
    </section>
  );
}
