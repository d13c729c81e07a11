import type { Schemas } from "../api/client.js";
import { visitorLabel } from "./status-badge.js";

type VisitorIdentity = NonNullable<Schemas["ConsoleConversationSummary"]["visitor"]["identity"]>;
type Visitor = { anon_id: string; identity?: VisitorIdentity | null };

const VERIFIED_TITLE = "The site signed this user id (identity verification); the name and e-mail came with it.";

/** The badge of a visitor the site vouched for (init's user_hash verified). Never shown for what a visitor typed. */
export function VerifiedBadge() {
  return (
    <span className="badge badge-verified" title={VERIFIED_TITLE}>
      Verified
    </span>
  );
}

/** What to call a visitor: the verified name (or e-mail, or user id), else the short anonymous label. */
export function visitorName(visitor: Visitor): string {
  const identity = visitor.identity;
  return identity ? identity.name ?? identity.email ?? identity.user_id : visitorLabel(visitor.anon_id);
}

/** A verified visitor's name, e-mail and user id, with the badge; nothing for an anonymous visitor. */
export function VerifiedVisitor({ identity }: { identity: VisitorIdentity | null | undefined }) {
  if (!identity) return null;
  return (
    <section className="verified-visitor" aria-label="Verified user">
      <p className="verified-visitor-name">
        <span>{identity.name ?? identity.email ?? identity.user_id}</span> <VerifiedBadge />
      </p>
      <dl>
        {identity.email && (
          <div>
            <dt>E-mail</dt>
            <dd>{identity.email}</dd>
          </div>
        )}
        <div>
          <dt>User id</dt>
          <dd>{identity.user_id}</dd>
        </div>
      </dl>
    </section>
  );
}
