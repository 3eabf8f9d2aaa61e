// The server-only entry of ./service for route modules.
export * from "./service";
