/**
 * The query parameter that tells a screen why its reader was sent there: written by the adapter's sendAway
 * (server/http/route.server.ts), read by the notice (app/components/shell/sent-away-notice.tsx).
 */
export const SENT_AWAY_PARAM = "refus";
