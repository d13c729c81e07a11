/** The chat panel's CSS, adopted into the widget's shadow root next to the launcher's. */
export const PANEL_CSS = `
.panel{position:fixed;right:20px;bottom:88px;width:380px;max-width:calc(100vw - 40px);height:600px;max-height:calc(100vh - 120px);display:flex;flex-direction:column;background:#fff;color:#111827;border-radius:16px;box-shadow:0 12px 40px rgba(0,0,0,.22),0 0 0 1px rgba(0,0,0,.06);overflow:hidden}
.left .panel{left:20px;right:auto}
.head{display:flex;align-items:center;gap:10px;padding:14px;padding-inline-start:16px;background:var(--fd-primary);color:var(--fd-on-primary)}
.avatar{flex:none;width:34px;height:34px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-weight:600;background:rgba(255,255,255,.2);box-shadow:inset 0 0 0 1px currentColor}
.titles{flex:1;min-width:0}
.head h2{margin:0;font-size:16px;font-weight:600;line-height:1.3;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.subtitle{margin:0;font-size:12px;opacity:.85}
button{font:inherit;color:inherit}
.close,.attach{flex:none;width:34px;height:34px;border:0;border-radius:8px;background:transparent;cursor:pointer;display:flex;align-items:center;justify-content:center;padding:0}
.close:hover{background:rgba(127,127,127,.2)}
.close svg,.send svg,.attach svg{width:20px;height:20px;fill:currentColor}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:10px;background:#f9fafb;overscroll-behavior:contain}
.msg{display:flex;flex-direction:column;max-width:85%}
.from-visitor{align-self:flex-end;align-items:flex-end}
.from-agent{align-self:flex-start}
.bubble{padding:9px 13px;border-radius:14px;overflow-wrap:anywhere}
.from-agent .bubble{background:#fff;box-shadow:0 0 0 1px #e5e7eb;border-end-start-radius:4px}
.from-visitor .bubble{background:var(--fd-primary);color:var(--fd-on-primary);border-end-end-radius:4px}
.bubble p,.bubble ul,.bubble ol{margin:0}
.bubble p+p,.bubble p+ul,.bubble p+ol,.bubble ul+p,.bubble ol+p{margin-top:8px}
.bubble ul,.bubble ol{padding-inline-start:20px}
.bubble a{color:inherit;text-decoration:underline}
.bubble code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:rgba(127,127,127,.15);padding:0 3px;border-radius:4px}
.msg[aria-busy=true] .bubble:empty::after,.msg[aria-busy=true] .bubble:not(:empty)>:last-child::after{content:"▍";opacity:.5}
.chips{list-style:none;margin:6px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:6px}
.chip{display:inline-block;max-width:220px;padding:3px 10px;border-radius:999px;background:#fff;box-shadow:0 0 0 1px #d1d5db;color:#374151;font-size:12px;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.chip:hover{box-shadow:0 0 0 1px var(--fd-primary)}
.file img{display:block;max-width:200px;max-height:150px;border-radius:10px}
.pending{margin:0;padding:8px 12px 0;background:#fff}
.pending .chip{display:flex;align-items:center;gap:6px;max-width:100%;white-space:normal}
.pending img{width:32px;height:32px;object-fit:cover;border-radius:4px}
.pending progress{width:40px}
.starters{display:flex;flex-wrap:wrap;gap:8px;justify-content:flex-end;margin-top:4px}
.starter{border:1px solid var(--fd-primary);background:#fff;color:#111827;border-radius:999px;padding:6px 12px;cursor:pointer;font-size:14px;text-align:start}
.starter:hover{background:#f3f4f6}
.unsent .bubble{opacity:.75}
.unsent-note{display:flex;gap:8px;margin:4px 0 0;font-size:12px;color:#b91c1c}
.status{margin:auto;color:#6b7280;font-size:14px}
.notice{display:flex;gap:8px;align-items:center;padding:8px 14px;background:#fef3c7;color:#78350f;font-size:13px}
.link{flex:none;white-space:nowrap;border:0;background:none;text-decoration:underline;cursor:pointer;padding:0;font-size:13px}
.composer{display:flex;align-items:flex-end;gap:8px;padding:10px 12px;border-top:1px solid #e5e7eb;background:#fff}
.composer textarea{flex:1;resize:none;border:1px solid #d1d5db;border-radius:10px;padding:8px 10px;font:inherit;color:inherit;background:#fff;max-height:120px;min-height:38px;margin:0}
.composer textarea:focus{outline:2px solid var(--fd-primary);outline-offset:0;border-color:transparent}
.send{flex:none;width:38px;height:38px;border:0;border-radius:10px;background:var(--fd-primary);color:var(--fd-on-primary);cursor:pointer;display:flex;align-items:center;justify-content:center;padding:0}
.send:disabled{opacity:.45;cursor:default}
button:focus-visible,a:focus-visible{outline:2px solid var(--fd-primary);outline-offset:2px}
.brand{display:flex;align-items:center;justify-content:center;gap:6px;padding:6px;font-size:11px;color:#6b7280;text-decoration:none;background:#fff}
.brand img{width:14px;height:14px}
@media (prefers-reduced-motion:no-preference){.panel{animation:fd-in .16s ease-out}@keyframes fd-in{from{opacity:0;transform:translateY(8px)}}}
`;
