// The server-only entry of ./catalogue for route modules.
export * from "./catalogue";
