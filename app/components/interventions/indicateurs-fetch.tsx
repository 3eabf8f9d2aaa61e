import { useEffect } from "react";
import { useFetcher } from "react-router";
import { IndicateursParcellePanel } from "~/components/indicateurs/indicateurs-parcelle";
import type { IndicateursParcelle } from "~/domain/contracts/indicateurs";

const INDICATEURS = "/home/description/au_champs/interventions/indicateurs";

/**
 * The first chosen plot's indicator panel (issue 14), asked in its own request once the screen is shown
 * (decision 0076: it was a third of the screen's loader). A fetcher: React Router asks it again after every save
 * of the screen (a post revalidates the fetchers), so the figures follow the saved interventions at once.
 */
export function IndicateursParcelleFetch({ idParcelle }: { idParcelle: number }) {
  const fetcher = useFetcher<{ indicateurs: IndicateursParcelle | null }>();
  const { load } = fetcher;
  useEffect(() => {
    void load(`${INDICATEURS}?parcelle=${idParcelle}`);
  }, [load, idParcelle]);
  const data = fetcher.data?.indicateurs;
  // The panel of another plot (the previous choice) is not shown while the new one comes.
  return data && data.idParcelle === idParcelle ? <IndicateursParcellePanel data={data} /> : null;
}
