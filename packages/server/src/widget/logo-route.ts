import type { FastifyPluginAsync } from "fastify";

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32"><rect width="32" height="32" rx="8" fill="#2563eb"/><path d="M9 10h14v3H12.5v2.5H21v3h-8.5V23H9z" fill="#fff"/></svg>`;

/** The default branding logo that init's `branding.logo_url` points at. */
export const logoRoute: FastifyPluginAsync = async (app) => {
  app.get("/widget/logo.svg", { schema: { hide: true } }, async (_request, reply) =>
    reply.type("image/svg+xml").header("Cache-Control", "public, max-age=86400").send(LOGO_SVG),
  );
};
