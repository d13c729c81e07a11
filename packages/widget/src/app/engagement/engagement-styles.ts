/** The rule bubble next to the launcher, the coupon line, the satisfaction prompt and the 👍/👎 under each answer (rating-buttons.tsx). */
export const ENGAGEMENT_CSS = `
.fd-bubble{position:fixed;right:20px;bottom:88px;width:280px;max-width:calc(100vw - 40px);display:flex;flex-direction:column;gap:10px;padding:14px 14px 14px 16px;background:#fff;color:#111827;border-radius:14px;box-shadow:0 10px 30px rgba(0,0,0,.2),0 0 0 1px rgba(0,0,0,.06)}
.left .fd-bubble{left:20px;right:auto}
.fd-bubble-text{all:unset;cursor:pointer;padding-inline-end:22px;line-height:1.45;overflow-wrap:anywhere}
.fd-bubble-text:focus-visible,.fd-bubble-dismiss:focus-visible,.fd-cta:focus-visible,.fd-rate:focus-visible{outline:3px solid var(--fd-primary);outline-offset:2px}
.fd-bubble-dismiss{position:absolute;top:6px;inset-inline-end:6px;width:28px;height:28px;border:0;border-radius:8px;background:transparent;cursor:pointer;display:flex;align-items:center;justify-content:center;padding:0;color:#4b5563}
.fd-bubble-dismiss:hover{background:#f3f4f6}
.fd-bubble-dismiss svg{width:16px;height:16px;fill:currentColor}
.fd-cta{align-self:flex-start;border:0;border-radius:999px;padding:8px 16px;background:var(--fd-primary);color:var(--fd-on-primary);font-weight:600;cursor:pointer}
.fd-engagement{display:flex;flex-direction:column;gap:8px;padding:10px 16px;border-top:1px solid #e5e7eb;background:#fff}
.fd-coupon{margin:0;padding:8px 12px;border-radius:10px;background:#ecfdf5;color:#065f46;font-size:14px}
.fd-coupon.refused{background:#fef2f2;color:#991b1b}
.fd-csat{display:flex;flex-direction:column;gap:8px;margin:0}
.fd-csat-question,.fd-csat-thanks{margin:0;font-size:14px;font-weight:600}
.fd-csat-ratings{display:flex;gap:8px}
.fd-rate{width:44px;height:36px;border:1px solid #d1d5db;border-radius:10px;background:#fff;color:#374151;cursor:pointer;display:flex;align-items:center;justify-content:center;padding:0}
.fd-rate svg{width:18px;height:18px;fill:currentColor}
.msg .fd-csat-ratings{gap:4px;margin-top:4px}
.msg .fd-rate{width:34px;height:28px}
.fd-rate[aria-pressed=true]{border-color:var(--fd-primary);box-shadow:inset 0 0 0 1px var(--fd-primary);background:#f3f4f6}
.fd-csat-comment{display:flex;gap:8px;align-items:flex-end}
.fd-csat-comment textarea{flex:1;resize:none;font:inherit;font-size:14px;padding:6px 8px;border:1px solid #d1d5db;border-radius:8px;color:inherit;background:#fff}
.fd-csat-send{border:0;border-radius:8px;padding:8px 14px;font-size:14px;background:var(--fd-primary);color:var(--fd-on-primary);font-weight:600;cursor:pointer}
`;
