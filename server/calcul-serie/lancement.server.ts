// The server-only entry of ./lancement for route modules.
export * from "./lancement";
