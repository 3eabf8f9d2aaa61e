import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { data } from "react-router";
import { type DataTableColumn } from "~/components/data-table";
import { DuplicationDialog } from "~/components/duplication-dialog";
import { formatNumber, refLabel } from "~/components/farm-form";
import { formatEuro } from "~/components/format";
import { ListScreen } from "~/components/list-screen";
import { MachineForm } from "~/components/parc-materiel/machine-form";
import type { Data, Row } from "~/components/parc-materiel/types";
import { suffixedLibelle } from "~/domain/calc/materiel";
import { DuplicationParcMaterielSchema, ParcMaterielSchema } from "~/domain/parc-materiel";
import { isServiceError } from "#server/errors";
import { deleteIntent, formIntent, queryId, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import {
  duplicateParcMateriels,
  getDuplicationOptions,
  getParcMateriels,
  getReferenceMateriel,
  removeParcMateriels,
  saveParcMateriel,
} from "#server/parc-materiel/service.server";
import type { Route } from "./+types/parc-materiel";

/**
 * Machinery fleet (spec 2 §2 "Machinery fleet", §3 Machine, §4, §5, §6, §7; B-MACH, B-RIGHTS-10 to 12).
 * The loader also answers the cascade (?categorie= gives that category's characteristics) and the
 * duplication dialog (?dupli&dossier=&exploitation= gives the folders, farms and campaigns offered).
 * The form is app/components/parc-materiel/machine-form.tsx.
 */
export const loader = screenLoader(async ({ scope, query }) => {
  if (query.has("reference")) {
    // The machine reference by id (B-MACH-16). Its failure is answered without an error dialog (B-ERR-19).
    try {
      return data({ referenceMateriel: await getReferenceMateriel(scope, queryId(query, "reference") ?? 0) });
    } catch (e) {
      if (isServiceError(e)) return data({ referenceMateriel: null, error: e.key }, { status: e.status });
      throw e;
    }
  }
  const fleet = await getParcMateriels(scope, { idCategorie: queryId(query, "categorie") });
  const duplication = query.has("dupli")
    ? await getDuplicationOptions(scope, { idDossier: queryId(query, "dossier"), idExploitation: queryId(query, "exploitation") })
    : null;
  return { ...fleet, duplication };
});

export const action = screenAction(
  {
    save: saveIntent(ParcMaterielSchema, ({ scope }, value, edit) => saveParcMateriel(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeParcMateriels(scope, ids)),
    duplicate: formIntent(DuplicationParcMaterielSchema, async ({ scope }, value) => ({ copies: (await duplicateParcMateriels(scope, value)).copies }), {
      notice: "parcMateriel.duplicated",
    }),
  },
  // A duplication writes other campaigns, whose rights its service checks.
  { gate: "campaign", gateExcept: ["duplicate"] },
);

export default function ParcMaterielScreen({ loaderData }: Route.ComponentProps) {
  // The page's own load is never the reference answer (that one goes to a fetcher only).
  const data = loaderData as Data;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [dupli, setDupli] = useState<number[] | null>(null);
  const classes = new Map(data.classes.map((c) => [c.id, c]));
  const categories = new Map(data.categories.map((c) => [c.id, c]));
  const references = new Map(data.references.map((r) => [r.id, r]));
  const num = (v: number | null, digits = 2) => formatNumber(v, lang, digits);
  const label = (o: { libelle: string; libelleEn?: string | null } | undefined) => (o ? refLabel(o, lang) : "");

  const columns: DataTableColumn<Row>[] = [
    {
      id: "libelle",
      header: t("parcMateriel.libelle"),
      cell: (r) => suffixedLibelle(r.libelle, r.typePropriete),
      sortValue: (r) => r.libelle,
      alwaysVisible: true,
    },
    { id: "classe", header: t("parcMateriel.noClasse"), cell: (r) => label(classes.get(r.noClasse)), sortValue: (r) => label(classes.get(r.noClasse)) },
    {
      id: "categorie",
      header: t("parcMateriel.idCategorieMateriel"),
      cell: (r) => label(categories.get(r.idCategorieMateriel)),
      sortValue: (r) => label(categories.get(r.idCategorieMateriel)),
    },
    {
      id: "propriete",
      header: t("parcMateriel.typePropriete"),
      cell: (r) => t(`parcMateriel.proprietes-court.${r.typePropriete}`),
      sortValue: (r) => r.typePropriete,
    },
    { id: "puissance", header: t("parcMateriel.col.puissance"), cell: (r) => num(r.puissance), sortValue: (r) => r.puissance, align: "right" },
    { id: "debit", header: t("parcMateriel.col.debit"), cell: (r) => num(r.debit, 3), sortValue: (r) => r.debit, align: "right" },
    {
      id: "utilisation",
      header: t("parcMateriel.col.utilisation"),
      cell: (r) => num(r.utilisationAnnuelle, 0),
      sortValue: (r) => r.utilisationAnnuelle,
      align: "right",
    },
    { id: "caracteristique", header: t("parcMateriel.idBasemeq"), cell: (r) => label(references.get(r.idBasemeq)) || (r.idenBasemeq ?? ""), optional: true },
    {
      id: "copropriete",
      header: t("parcMateriel.col.copropriete"),
      cell: (r) => num(r.copropriete, 0),
      sortValue: (r) => r.copropriete,
      align: "right",
      optional: true,
    },
    {
      id: "prixAchat",
      header: t("parcMateriel.col.prixAchat"),
      cell: (r) => formatEuro(r.prixAchat, lang),
      sortValue: (r) => r.prixAchat,
      align: "right",
      optional: true,
    },
    {
      id: "usage",
      header: t("parcMateriel.col.usage"),
      cell: (r) => num(r.calcul.utilisationRetenue, 0),
      sortValue: (r) => r.calcul.utilisationRetenue,
      align: "right",
      optional: true,
    },
    {
      id: "financement",
      header: t("parcMateriel.col.financement"),
      cell: (r) => formatEuro(r.calcul.financement, lang),
      sortValue: (r) => r.calcul.financement,
      align: "right",
      optional: true,
    },
    {
      id: "amortissement",
      header: t("parcMateriel.col.amortissement"),
      cell: (r) => formatEuro(r.calcul.amortissement, lang),
      sortValue: (r) => r.calcul.amortissement,
      align: "right",
      optional: true,
    },
    {
      id: "dureeAmortissement",
      header: t("parcMateriel.col.duree"),
      cell: (r) => num(r.calcul.dureeAmortissement, 1),
      sortValue: (r) => r.calcul.dureeAmortissement,
      align: "right",
      optional: true,
    },
    {
      id: "entretienLocation",
      header: t("parcMateriel.col.entretien-location"),
      cell: (r) => formatEuro(r.calcul.entretienLocation, lang),
      sortValue: (r) => r.calcul.entretienLocation,
      align: "right",
      optional: true,
    },
    {
      id: "chargesMecaHa",
      header: t("parcMateriel.col.charges-meca-ha"),
      cell: (r) => formatEuro(r.calcul.chargesMecaHa, lang),
      sortValue: (r) => r.calcul.chargesMecaHa,
      align: "right",
      optional: true,
    },
    { id: "remarque", header: t("parcMateriel.remarque"), cell: (r) => r.remarque ?? "", optional: true },
  ];

  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-parc_materiel">
      <ListScreen
        tableId="parc_materiel"
        title={t("screen.parc_materiel")}
        label={t("screen.parc_materiel")}
        rows={data.rows}
        columns={columns}
        getRowId={(r) => r.id}
        readOnly={!data.canWrite}
        renderForm={(row, controls) => <MachineForm row={row} data={data} controls={controls} />}
        extraToolbar={(checked) => (
          <button
            type="button"
            className="btn-secondary"
            disabled={!data.canWrite || checked.length === 0}
            onClick={() => setDupli(checked.map(Number))}
            data-testid="parc-materiel-duplicate"
          >
            {t("parcMateriel.duplicate")}
          </button>
        )}
      />
      <DuplicationDialog
        ids={dupli}
        idDossier={data.idDossier ?? null}
        idExploitation={data.idExploitation}
        onClose={() => setDupli(null)}
        schema={DuplicationParcMaterielSchema}
        keyPrefix="parcMateriel"
        idPrefix="pm"
      />
    </div>
  );
}
