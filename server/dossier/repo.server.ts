// The server-only entry of ./repo for route modules (a `.server` name keeps it out of the browser bundle).
export * from "./repo";
