/** The handoff's CSS (header menu, system and operator messages, typing, e-mail form), adopted beside the panel's. */
export const HANDOFF_CSS = `
.menu-wrap{position:relative;flex:none}
.menu{position:absolute;right:0;top:40px;z-index:2;min-width:190px;padding:6px;background:#fff;color:#111827;border-radius:10px;box-shadow:0 8px 24px rgba(0,0,0,.18),0 0 0 1px rgba(0,0,0,.06);display:flex;flex-direction:column}
.left .menu,[dir=rtl] .menu{right:auto;left:0}
.menu button{border:0;background:none;text-align:left;padding:8px 10px;border-radius:6px;cursor:pointer;font-size:14px}
.menu button:hover:not(:disabled){background:#f3f4f6}
.menu button:disabled{opacity:.5;cursor:default}
.msg.from-system{align-self:center;max-width:100%;text-align:center}
.from-system .bubble{background:none;box-shadow:none;padding:2px 8px;color:#6b7280;font-size:13px}
.author{font-size:12px;color:#6b7280;margin:0 0 2px;margin-inline-start:4px}
.handoff-offer{display:flex;justify-content:flex-start}
.typing{display:flex;align-items:center;gap:6px;margin:0;color:#6b7280;font-size:13px}
.dots{display:inline-flex;gap:3px}
.dots i{width:5px;height:5px;border-radius:50%;background:currentColor;opacity:.6}
@media (prefers-reduced-motion:no-preference){.dots i{animation:fd-dot 1s infinite}.dots i:nth-child(2){animation-delay:.15s}.dots i:nth-child(3){animation-delay:.3s}@keyframes fd-dot{50%{opacity:.15}}}
.lead{background:#fff;border-radius:12px;box-shadow:0 0 0 1px #e5e7eb;padding:10px 12px;font-size:14px}
.lead p{margin:0 0 8px}
.lead-row{display:flex;gap:6px}
.lead input{flex:1;min-width:0;border:1px solid #d1d5db;border-radius:8px;padding:6px 8px;font:inherit;color:inherit;background:#fff;margin:0}
.lead input:focus{outline:2px solid var(--fd-primary);border-color:transparent}
.lead-send{flex:none;border:0;border-radius:8px;padding:6px 12px;background:var(--fd-primary);color:var(--fd-on-primary);cursor:pointer}
.lead-send:disabled{opacity:.45;cursor:default}
.lead-error{color:#b91c1c;font-size:13px;margin:6px 0 0!important}
.lead-done{margin:0;color:#065f46;font-size:14px;text-align:center}
`;
