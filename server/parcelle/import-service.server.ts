// The server-only entry of ./import-service for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./import-service";
