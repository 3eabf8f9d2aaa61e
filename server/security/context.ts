import { createContext } from "react-router";

/**
 * What the HTTP edge (server/start.js) hands to React Router for each request, through getLoadContext:
 * the Content-Security-Policy nonce of the page's inline scripts, and the client's address (req.ip,
 * which follows X-Forwarded-For only when TRUST_PROXY=1).
 */
export const cspNonceContext = createContext<string | undefined>(undefined);
export const clientIpContext = createContext<string>("");

/** The request's log line's fields filled by React Router's middleware (server/ops/request-log.js): the user's id. */
export const requestLogContext = createContext<{ userId: number | null } | null>(null);
