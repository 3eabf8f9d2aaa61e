// Types of edge.js (plain JavaScript: server/start.js runs it without a build step).
type Middleware = (req: unknown, res: unknown, next: () => void) => void;

export const BODY_LIMITS: { default: number; upload: number };
export function requestHost(req: { headers: Record<string, string | string[] | undefined> }, trustProxy: boolean): string;
export function csrfCheck(options: { trustProxy: boolean }): Middleware;
export function bodyCheck(): Middleware;
export function securityHeaders(options: { tileOrigins?: string[]; formTargets?: string[] }): Middleware;
