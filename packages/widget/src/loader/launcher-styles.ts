/**
 * The launcher's CSS. `:host` declarations are !important: inside the shadow root they win over the
 * page's own !important rules (such as `* { all: unset !important }`), so no page stylesheet can
 * hide, move or restyle the widget's element. Nothing here reaches the page outside that element.
 */
export const LAUNCHER_CSS = `
:host{all:initial!important;display:block!important;position:fixed!important;right:0!important;bottom:0!important;width:0!important;height:0!important;overflow:visible!important;z-index:2147483000!important;visibility:visible!important;opacity:1!important;pointer-events:auto!important}
.fd{--fd-primary:#1f2937;--fd-on-primary:#fff;font:400 15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#111827;text-align:start}
.fd *,.fd *::before,.fd *::after{box-sizing:border-box}
.launcher{position:fixed;right:20px;bottom:20px;width:56px;height:56px;margin:0;padding:0;border:0;border-radius:50%;background:var(--fd-primary);color:var(--fd-on-primary);box-shadow:0 4px 14px rgba(0,0,0,.25);cursor:pointer;display:flex;align-items:center;justify-content:center}
.left .launcher{left:20px;right:auto}
.launcher:focus-visible{outline:3px solid var(--fd-primary);outline-offset:3px}
.launcher svg{width:28px;height:28px;fill:currentColor}
.launcher .fd-close,.launcher[aria-expanded=true] .fd-chat{display:none}
.launcher[aria-expanded=true] .fd-close{display:block}
@media (prefers-color-scheme:dark){.launcher{box-shadow:0 4px 14px rgba(0,0,0,.5),0 0 0 1px rgba(255,255,255,.3)}}
@media (prefers-reduced-motion:no-preference){.launcher{transition:transform .15s ease}.launcher:hover{transform:scale(1.06)}}
`;
