import { z } from "zod";

// In the browser zod must not compile its parsers with new Function(): the Content-Security-Policy
// (server/security/edge.js) allows no eval. This module is root.tsx's first import, so it runs before
// any schema is built. The server keeps the faster compiled parsers.
if (typeof document !== "undefined") z.config({ jitless: true });
