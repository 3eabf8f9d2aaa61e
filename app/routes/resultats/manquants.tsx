import { useLoaderData } from "react-router";
import { z } from "zod";
import { ManquantsEcran } from "~/components/objectifs/manquants-ecran";
import { idField, intent, queryNumber, screenAction, screenLoader } from "#server/http/route.server";
import { listerManquants, ouvrirCorrection } from "#server/manquants/service.server";

/**
 * The missing-data worklist of the selected folder (issue 24; decision 0087), for the harvest year in the address
 * (`?annee=`, the latest by default). A line of another campaign than the context's is opened through `ouvrir`,
 * which selects that campaign in the context and answers the address of the screen that fixes it.
 */
export const loader = screenLoader(({ scope, query }) => listerManquants(scope, { annee: queryNumber(query, "annee") }));

export const action = screenAction({
  ouvrir: intent({ idCampagne: idField, adresse: z.string().max(300) }, async ({ scope }, { idCampagne, adresse }) => ({
    ok: true as const,
    adresse: await ouvrirCorrection(scope, idCampagne, adresse),
  })),
});

export default function Manquants() {
  const data = useLoaderData<typeof loader>();
  return <ManquantsEcran data={data} />;
}
