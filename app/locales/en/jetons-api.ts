/** English texts of the personal access tokens of the API (profile page; issue 26, decision 0098), spread into ./translation.ts. */
const texts = {
  "jetons-api": {
    title: "API access tokens",
    intro: "A token lets a program or a script use the API on your behalf, with your rights. Revoke it as soon as it is no longer needed.",
    nom: "Token name",
    acces: "Access",
    lecture: "Read only",
    ecriture: "Read and write",
    jours: "Valid for (days)",
    creer: "Create the token",
    "nouveau-jeton": "Copy this token now: it will not be shown again.",
    aucun: "No token.",
    expire: "Expires on",
    "derniere-utilisation": "Last used",
    jamais: "never",
    revoquer: "Revoke",
    "revoque-confirmation": "Token revoked",
    "cree-confirmation": "Token created",
    errors: {
      "not-found": "This token no longer exists",
      "too-many": "You already have {{max}} tokens: revoke one first",
    },
  },
};
export default texts;
