import { SMTP_DOCS_URL, useMailOutbox } from "./use-mail-outbox.js";

/** Across the console, for admins: e-mail is not set up and mails are waiting for it (nothing for agents: the query does not run). */
export function MailBanner() {
  const outbox = useMailOutbox();
  const data = outbox.data;
  if (!data || data.smtp_configured || data.counts.waiting === 0) return null;
  const waiting = data.counts.waiting;
  return (
    <aside className="mail-banner" aria-label="E-mail set-up">
      <p>
        <strong>
          E-mail is not set up: {waiting} {waiting === 1 ? "message" : "messages"} waiting.
        </strong>{" "}
        They go out once <code>FRONTDESK_SMTP_URL</code> is set.{" "}
        <a href={SMTP_DOCS_URL} target="_blank" rel="noreferrer">
          How to set up e-mail<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
    </aside>
  );
}
