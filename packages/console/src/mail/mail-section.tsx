import { useId, useState } from "react";
import type { Schemas } from "../api/client.js";
import { describeError } from "../api/client.js";
import { useOperator } from "../session.js";
import { formatTime } from "../settings/format-time.js";
import { SMTP_DOCS_URL, useMailOutbox, type MailStatus } from "./use-mail-outbox.js";

type MailMessage = Schemas["MailMessage"];

const KINDS: Record<MailMessage["kind"], string> = {
  operator_alert: "Alert: a visitor asks for a person",
  operator_unseen: "Alert: an unread visitor message",
  operator_digest: "Hourly digest of alerts",
  answer_tests_regressed: "Answer tests that fail now",
  operator_mention: "A mention in an internal note",
  visitor_reply: "Reply to a visitor",
  transcript: "Transcript to a visitor",
};

const STATUSES: Record<MailStatus, string> = {
  waiting: "Waiting for e-mail set-up",
  queued: "Queued",
  sending: "Sending",
  retrying: "Retrying",
  sent: "Sent",
  failed: "Failed",
};

/** The log's first page and each "Show more": the API lists the latest mails, at most 200. */
const PAGE = 50;
const MOST = 200;

/** The server's answer on the mail's last failed attempt, else its error. */
function serverAnswer(mail: MailMessage): string {
  const failed = [...mail.attempts].reverse().find((attempt) => attempt.outcome !== "sent");
  if (mail.status === "sent" || (!failed && !mail.last_error)) return "";
  // The detail usually quotes the code already ("550 mailbox unavailable").
  const answer = failed ? (failed.detail ?? (failed.smtp_code === null ? "" : String(failed.smtp_code))) : "";
  return answer || mail.last_error || "";
}

/** Settings → E-mail, for admins: whether SMTP is set up, the mails by status and the delivery log. */
export function MailSection() {
  const admin = useOperator().role === "admin";
  if (!admin) return null;
  return <MailOutboxCard />;
}

function MailOutboxCard() {
  const filterId = useId();
  const [status, setStatus] = useState<MailStatus | "">("");
  const [limit, setLimit] = useState(PAGE);
  const outbox = useMailOutbox({ status: status || undefined, limit });
  const data = outbox.data;
  const listed = data?.messages.length ?? 0;
  const total = data ? (status ? data.counts[status] : Object.values(data.counts).reduce((sum, count) => sum + count, 0)) : 0;
  return (
    <section className="settings-card mail-outbox" aria-labelledby="mail-title">
      <h2 id="mail-title">E-mail</h2>
      {outbox.isPending && <p className="muted">Loading…</p>}
      {outbox.isError && (
        <p className="error" role="alert">
          {describeError(outbox.error)}
        </p>
      )}
      {data && (
        <>
          {data.smtp_configured ? (
            <p className="small">
              <strong>E-mail is set up:</strong> mails go out through the SMTP server of <code>FRONTDESK_SMTP_URL</code>.
            </p>
          ) : (
            <p className="small mail-not-set-up">
              <strong>E-mail is not set up:</strong> mails wait here and go out once <code>FRONTDESK_SMTP_URL</code> and <code>FRONTDESK_MAIL_FROM</code> are set.{" "}
              <a href={SMTP_DOCS_URL} target="_blank" rel="noreferrer">
                How to set up e-mail<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </p>
          )}
          {data.notice && data.smtp_configured && <p className="error small">{data.notice}</p>}
          <dl className="usage-figures">
            <div>
              <dt>Waiting</dt>
              <dd>{data.counts.waiting}</dd>
            </div>
            <div>
              <dt>Queued or retrying</dt>
              <dd>{data.counts.queued + data.counts.sending + data.counts.retrying}</dd>
            </div>
            <div>
              <dt>Sent</dt>
              <dd>{data.counts.sent}</dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd>{data.counts.failed}</dd>
            </div>
          </dl>
          <p className="mail-filter">
            <label htmlFor={filterId}>Show</label>
            <select
              id={filterId}
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as MailStatus | "");
                setLimit(PAGE);
              }}>
              <option value="">Every mail</option>
              {(Object.keys(STATUSES) as MailStatus[]).map((value) => (
                <option key={value} value={value}>
                  {STATUSES[value]} ({data.counts[value]})
                </option>
              ))}
            </select>
          </p>
          {listed === 0 ? (
            <p className="muted small">No mail{status ? " in this status" : " yet"}.</p>
          ) : (
            <div className="table-scroller">
              <table className="settings-table mail-log">
                <caption>Delivery log, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Mail</th>
                    <th scope="col">Recipient</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="numeric">
                      Attempts
                    </th>
                    <th scope="col">The server's answer</th>
                    <th scope="col">Queued</th>
                  </tr>
                </thead>
                <tbody>
                  {data.messages.map((mail) => (
                    <tr key={mail.id}>
                      <th scope="row">
                        {KINDS[mail.kind]}
                        <span className="muted mail-subject">{mail.subject}</span>
                      </th>
                      <td className="mail-recipient">{mail.to}</td>
                      <td>
                        <span className={`badge mail-status-${mail.status}`}>{STATUSES[mail.status]}</span>
                        {mail.status === "retrying" && mail.next_attempt_at && <span className="muted mail-subject">next {formatTime(mail.next_attempt_at)}</span>}
                      </td>
                      <td className="numeric">{mail.attempts.length}</td>
                      <td className="mail-answer">{serverAnswer(mail)}</td>
                      <td className="nowrap">{formatTime(mail.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <p className="muted small" role="status">
            {listed > 0 && `Showing the latest ${listed} of ${total}.`}
          </p>
          {listed === limit && limit < MOST && total > listed && (
            <button type="button" className="show-more" disabled={outbox.isFetching} onClick={() => setLimit(Math.min(MOST, limit + PAGE))}>
              Show more
            </button>
          )}
        </>
      )}
    </section>
  );
}
