/**
 * The panel's CSS for the visitor's setting and screen, adopted after PANEL_CSS: the dark scheme
 * (prefers-color-scheme; the agent's primary colour and its contrasting text stay), right-to-left
 * details, full screen below 640 px, and no motion at all under prefers-reduced-motion. The handoff's
 * and the engagement features' elements are covered too (their sheets come later, hence `.fd` in
 * front: the higher specificity wins whatever the order).
 */
export const PANEL_ADAPTIVE_CSS = `
.head button:focus-visible{outline-color:currentColor}
[dir=rtl] .send svg{transform:scaleX(-1)}
[dir=rtl] .menu button{text-align:right}
@media (max-width:639.98px){.panel,.left .panel{inset:0;width:auto;height:auto;max-width:none;max-height:none;border-radius:0;box-shadow:none}.launcher[aria-expanded=true]{display:none}}
@media (prefers-reduced-motion:reduce){.fd *{animation:none!important;transition:none!important}}
@media (prefers-color-scheme:dark){
.panel{background:#111827;color:#f3f4f6;color-scheme:dark;box-shadow:0 12px 40px rgba(0,0,0,.6),0 0 0 1px rgba(255,255,255,.12)}
.log{background:#0b1120}
.from-agent .bubble{background:#1f2937;box-shadow:0 0 0 1px #374151}
.from-visitor .bubble,.send{box-shadow:0 0 0 1px rgba(255,255,255,.2)}
.chip{background:#1f2937;box-shadow:0 0 0 1px #4b5563;color:#e5e7eb}
.starter{background:#1f2937;color:#f3f4f6;border-color:#9ca3af}
.starter:hover{background:#374151}
.status,.brand{color:#9ca3af}
.notice{background:#451a03;color:#fde68a}
.composer,.brand,.pending{background:#111827}
.composer{border-top-color:#374151}
.composer textarea{background:#1f2937;border-color:#4b5563}
.fd .menu,.fd .lead,.fd .fd-bubble{background:#1f2937;color:#f3f4f6}
.fd .menu{box-shadow:0 8px 24px rgba(0,0,0,.5),0 0 0 1px #374151}
.fd .lead{box-shadow:0 0 0 1px #374151}
.fd .menu button:hover:not(:disabled),.fd .fd-bubble-dismiss:hover,.fd .fd-rate[aria-pressed=true]{background:#374151}
.fd .from-system .bubble,.fd .author,.fd .typing{color:#9ca3af}
.fd .lead input,.fd .fd-csat-comment textarea,.fd .fd-rate{background:#111827;border-color:#4b5563}
.fd .fd-rate{color:#e5e7eb}
.fd .lead-error,.fd .unsent-note{color:#fca5a5}
.fd .lead-done{color:#6ee7b7}
.fd .fd-bubble-dismiss{color:#d1d5db}
.fd .fd-engagement{background:#111827;border-top-color:#374151}
.fd .fd-coupon{background:#064e3b;color:#d1fae5}
.fd .fd-coupon.refused{background:#450a0a;color:#fecaca}
.composer textarea:focus,.log button:focus-visible,.log a:focus-visible,.composer button:focus-visible,.brand:focus-visible{outline-color:#e5e7eb}
}
`;
