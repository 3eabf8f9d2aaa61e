// The server-only entry of ./service for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./service";
