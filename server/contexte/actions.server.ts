// The server-only entry of ./actions for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./actions";
