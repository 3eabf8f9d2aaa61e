// The server-only entry of ./env for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./env";
