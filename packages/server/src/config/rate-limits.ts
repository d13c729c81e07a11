import type { Env } from "./env-schema.js";

export interface WindowLimit {
  points: number;
  windowSeconds: number;
}

/** Every limiter of the service, by name; a `null` limit is switched off. */
export interface RateLimits {
  initPerIpAndAgent: WindowLimit;
  initPerIp: WindowLimit | null;
  /** POST /rules, per IP and agent: a budget of its own (the widget asks on every page, init only when a conversation starts). */
  rulesPerIpAndAgent: WindowLimit;
  session: WindowLimit;
  leads: WindowLimit;
  typing: WindowLimit;
  satisfaction: WindowLimit;
  coupon: WindowLimit;
  sources: WindowLimit;
  /** GET /api/v1/files/{id}/{filename}, per client IP: each answer may be a file of up to FRONTDESK_UPLOAD_MAX_BYTES. */
  files: WindowLimit;
  /** The WordPress bulk sync (/api/v1/wp/*), per API token: 60 a minute in both sets of the spec. */
  wordpress: WindowLimit;
  /** POST /console/webhooks/{id}/test, per workspace: a test is a real request to a receiver that may hang. */
  webhookTests: WindowLimit;
  /** POST /widget/conversation/transcript, per conversation: each one is an e-mail sent. */
  transcripts: WindowLimit;
  /** The same per client IP, so that new conversations do not make new budgets for mail to any address. */
  transcriptsPerIp: WindowLimit;
  /** POST /widget/attachments, per conversation: each upload is up to FRONTDESK_ATTACHMENT_MAX_BYTES kept in the store. */
  attachments: WindowLimit;
  /** Console sign-in and set-password attempts per client IP (wrong passwords also make attempts wait: console/sign-in-throttle.ts). */
  loginPerIp: WindowLimit;
  /** POST /inbound-mail/{provider}, per client IP (a provider's sending servers): counted before the post is read or its signature checked. */
  inboundMail: WindowLimit;
}

const minute = (points: number): WindowLimit => ({ points, windowSeconds: 60 });
/** Guessing passwords stays slow whatever the profile: 20 attempts per IP per 5 minutes (and the back-off of console/sign-in-throttle.ts). */
const LOGIN_LIMITS = { loginPerIp: { points: 20, windowSeconds: 300 } } as const;

/** Set A of the spec (section 8) is `standard`, set B is `high`. */
const profiles: Record<Env["RATE_LIMIT_PROFILE"], RateLimits> = {
  standard: {
    initPerIpAndAgent: minute(60),
    initPerIp: null,
    rulesPerIpAndAgent: minute(60),
    session: minute(30),
    leads: minute(5),
    typing: minute(600),
    satisfaction: minute(60),
    coupon: minute(120),
    sources: minute(120),
    files: minute(60),
    wordpress: minute(60),
    webhookTests: minute(10),
    transcripts: { points: 3, windowSeconds: 3600 },
    transcriptsPerIp: { points: 20, windowSeconds: 3600 },
    attachments: { points: 20, windowSeconds: 3600 },
    inboundMail: minute(600),
    ...LOGIN_LIMITS,
  },
  high: {
    initPerIpAndAgent: minute(1000),
    initPerIp: { points: 30000, windowSeconds: 3600 },
    rulesPerIpAndAgent: minute(1000),
    session: minute(300),
    leads: minute(30),
    typing: minute(600),
    satisfaction: minute(60),
    coupon: minute(120),
    sources: minute(120),
    files: minute(300),
    wordpress: minute(60),
    webhookTests: minute(10),
    transcripts: { points: 3, windowSeconds: 3600 },
    transcriptsPerIp: { points: 20, windowSeconds: 3600 },
    attachments: { points: 60, windowSeconds: 3600 },
    inboundMail: minute(600),
    ...LOGIN_LIMITS,
  },
};

export function rateLimitsFor(env: Env): RateLimits {
  const base = profiles[env.RATE_LIMIT_PROFILE];
  const override = (limit: WindowLimit, points: number | undefined): WindowLimit =>
    points === undefined ? limit : { ...limit, points };
  let initPerIp = base.initPerIp;
  if (env.RATE_LIMIT_INIT_PER_HOUR_PER_IP !== undefined) {
    initPerIp = env.RATE_LIMIT_INIT_PER_HOUR_PER_IP === 0 ? null : { points: env.RATE_LIMIT_INIT_PER_HOUR_PER_IP, windowSeconds: 3600 };
  }
  return {
    initPerIpAndAgent: override(base.initPerIpAndAgent, env.RATE_LIMIT_INIT_PER_MINUTE),
    initPerIp,
    rulesPerIpAndAgent: override(base.rulesPerIpAndAgent, env.RATE_LIMIT_RULES_PER_MINUTE),
    session: override(base.session, env.RATE_LIMIT_SESSION_PER_MINUTE),
    leads: override(base.leads, env.RATE_LIMIT_LEADS_PER_MINUTE),
    typing: override(base.typing, env.RATE_LIMIT_TYPING_PER_MINUTE),
    satisfaction: override(base.satisfaction, env.RATE_LIMIT_SATISFACTION_PER_MINUTE),
    coupon: override(base.coupon, env.RATE_LIMIT_COUPON_PER_MINUTE),
    sources: override(base.sources, env.RATE_LIMIT_SOURCES_PER_MINUTE),
    files: override(base.files, env.RATE_LIMIT_FILES_PER_MINUTE),
    wordpress: override(base.wordpress, env.RATE_LIMIT_WP_PER_MINUTE),
    webhookTests: override(base.webhookTests, env.RATE_LIMIT_WEBHOOK_TESTS_PER_MINUTE),
    transcripts: env.RATE_LIMIT_TRANSCRIPTS_PER_HOUR === undefined ? base.transcripts : { points: env.RATE_LIMIT_TRANSCRIPTS_PER_HOUR, windowSeconds: 3600 },
    transcriptsPerIp: base.transcriptsPerIp,
    attachments: env.RATE_LIMIT_ATTACHMENTS_PER_HOUR === undefined ? base.attachments : { points: env.RATE_LIMIT_ATTACHMENTS_PER_HOUR, windowSeconds: 3600 },
    loginPerIp: base.loginPerIp,
    inboundMail: override(base.inboundMail, env.RATE_LIMIT_INBOUND_MAIL_PER_MINUTE),
  };
}
