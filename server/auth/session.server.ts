// The server-only entry of ./session for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./session";
