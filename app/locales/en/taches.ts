/** English texts of the jobs (server/tache) and their progress bar, spread into ./translation.ts. */
const texts = {
  taches: {
    progression: "Job progress",
    "en-attente": "Waiting…",
    "en-cours": "In progress: {{pourcent}} %",
    terminee: "Done",
    echec: "Failed",
    interrompue: "The job was interrupted by a server stop: start it again.",
  },
};
export default texts;
