/** English texts of the field-work calls of the JSON API (issue 27, decisions 0112, 0113), spread into ./translation.ts. */
const texts = {
  "api-terrain": {
    idempotence: {
      invalide: "The Idempotency-Key header must have 1 to 255 visible ASCII characters",
      reutilisee: "This Idempotency-Key was already used for another request",
    },
  },
};
export default texts;
