import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of this page (server/security/edge.js), given by entry.server.tsx
 * to the inline scripts React Router writes. In the browser it is empty: the scripts already ran.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
