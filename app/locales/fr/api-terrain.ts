/** French texts of the field-work calls of the JSON API (issue 27, decisions 0112, 0113), spread into ./translation.ts. */
const texts = {
  "api-terrain": {
    idempotence: {
      invalide: "L'en-tête Idempotency-Key doit compter de 1 à 255 caractères ASCII visibles",
      reutilisee: "Cette clé Idempotency-Key a déjà servi à une autre requête",
    },
  },
};
export default texts;
