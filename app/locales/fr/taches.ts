/** French texts of the jobs (server/tache) and their progress bar, spread into ./translation.ts. */
const texts = {
  taches: {
    progression: "Progression de la tâche",
    "en-attente": "En attente…",
    "en-cours": "En cours : {{pourcent}} %",
    terminee: "Terminé",
    echec: "Échec",
    interrompue: "La tâche a été interrompue par un arrêt du serveur : relancez-la.",
  },
};
export default texts;
