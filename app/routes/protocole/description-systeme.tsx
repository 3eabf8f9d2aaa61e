import { useTranslation } from "~/use-translation";
import { ReadOnlyNote } from "~/components/read-only-note";
import { ChapterPanel } from "~/components/protocole/chapter-panel";
import { ScreenFrame } from "~/components/screen-frame";
import { CHAPITRE_OBJECTIFS, IndicateurObjectifSchema, ProtocoleSchema } from "~/domain/protocole";
import { rowIntent, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import { getDescriptionSysteme, PROTOCOLE_LOAD_ERROR, removeObjectif, removeProtocole, saveObjectif, saveProtocole } from "#server/protocole/service.server";
import type { Route } from "./+types/description-systeme";

/** The system description (spec 3 §2.6): one expandable panel per protocol chapter but the last; chapter 2246 with the objective indicators. */
export const loader = screenLoader(({ scope }) => getDescriptionSysteme(scope), { loadError: PROTOCOLE_LOAD_ERROR });

export const action = screenAction(
  {
    saveProtocole: saveIntent(ProtocoleSchema, ({ scope }, value, edit) => saveProtocole(scope, value, edit)),
    deleteProtocole: rowIntent(({ scope }, id) => removeProtocole(scope, id), "ui.delete-confirmation"),
    saveObjectif: saveIntent(IndicateurObjectifSchema, ({ scope }, value, edit) => saveObjectif(scope, value, edit)),
    deleteObjectif: rowIntent(({ scope }, id) => removeObjectif(scope, id), "ui.delete-confirmation"),
  },
  { gate: "campaign" },
);

type Data = Extract<Route.ComponentProps["loaderData"], { ok: true }>;

export default function DescriptionSysteme({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.description_systeme")} name="description-systeme">
      {(data) => <Chapitres data={data} />}
    </ScreenFrame>
  );
}

function Chapitres({ data }: { data: Data }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-5xl space-y-3" data-testid="screen-description-systeme">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold text-sillon-800">{t("screen.description_systeme")}</h1>
        {data.canWrite ? null : <ReadOnlyNote />}
      </div>
      {data.chapitres.map((c) => (
        <ChapterPanel
          key={c.id}
          chapitre={c}
          protocoles={data.protocoles}
          objectifs={data.objectifs}
          indicateurs={data.indicateurs}
          canWrite={data.canWrite}
          defaultOpen={c.id === CHAPITRE_OBJECTIFS}
        />
      ))}
    </div>
  );
}
