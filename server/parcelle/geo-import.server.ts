// The server-only entry of ./geo-import for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./geo-import";
