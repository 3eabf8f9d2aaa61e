import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { rowId } from "~/domain/validation";
import { AddFolderToFarmSchema, DossierSchema, FarmDuplicationSchema, NewCampagneSchema, NewExploitationSchema } from "~/domain/partage";
import { createCampagne, unlockCampagne } from "../campagne/service";
import { findContexte, saveContexte } from "./repo";
import { createDossier } from "../dossier/service";
import { addFolderToFarm, createExploitation, duplicateExploitation } from "../exploitation/service";
import { ServiceError } from "../errors";
import { invalid } from "../http/answers";
import type { Scope } from "../access/scope";

/** The intent of a context-bar dialog and the farm it names (a row id: no hex, no exponent), through zod. */
const ContextIntentEnvelope = z.object({
  intent: z.enum(["createDossier", "createExploitation", "createCampagne", "unlockCampagne", "addFolderToFarm", "duplicateExploitation"]),
  idExploitation: rowId().optional(),
});

/** The context bar's dialogs: new folder, new farm, new campaign, unlock, farm duplication (one intent each). */
export async function runContextIntent(scope: Scope, formData: FormData) {
  const { db, user } = scope;
  const envelope = ContextIntentEnvelope.safeParse({ intent: formData.get("intent"), idExploitation: formData.get("idExploitation") ?? undefined });
  if (!envelope.success) throw new ServiceError("warning.invalid-form", 400);
  const { intent } = envelope.data;
  const view = await scope.view();
  const ctxFarm = () => {
    const idDossier = view.selected.idDossier;
    const idExploitation = envelope.data.idExploitation ?? view.campagne?.idExploitation ?? view.selected.exploitations[0];
    if (!idDossier || !idExploitation || !view.selected.exploitations.includes(idExploitation)) throw new ServiceError("errors.forbidden", 403);
    return { idDossier, idExploitation };
  };
  const reply = <T>(schema: z.ZodType<T>) => parseWithZod(formData, { schema });

  switch (intent) {
    case "createDossier": {
      const s = reply(DossierSchema);
      if (s.status !== "success") return invalid(s.reply());
      const id = await createDossier(db, user, s.value);
      const c = await findContexte(db, user.id);
      await saveContexte(db, { ...c, idOad: s.value.idOad, idDossier: id, exploitations: [], idCampagne: null, idCampagneDeverrouillee: null });
      return { ok: true as const, notice: "ui.create-confirmation" };
    }
    case "createExploitation": {
      const s = reply(NewExploitationSchema);
      if (s.status !== "success") return invalid(s.reply());
      if (!view.selected.idDossier) throw new ServiceError("errors.forbidden", 403);
      const id = await createExploitation(scope, view.selected.idDossier, s.value);
      const c = await findContexte(db, user.id);
      await saveContexte(db, { ...c, exploitations: [id], idCampagne: null, idCampagneDeverrouillee: null });
      return { ok: true as const, notice: "ui.create-confirmation" };
    }
    case "createCampagne": {
      const s = reply(NewCampagneSchema);
      if (s.status !== "success") return invalid(s.reply());
      const id = await createCampagne(scope, ctxFarm(), s.value);
      // What was just created is what the user works on next (issue 10), as for a new folder or farm.
      await saveContexte(db, { ...(await findContexte(db, user.id)), idCampagne: id, idCampagneDeverrouillee: null });
      return { ok: true as const, notice: "ui.create-confirmation" };
    }
    case "unlockCampagne": {
      if (!view.campagne) throw new ServiceError("errors.forbidden", 403);
      await unlockCampagne(scope, { idDossier: view.selected.idDossier!, idExploitation: view.campagne.idExploitation }, view.campagne.id);
      return { ok: true as const, notice: "ui.update-confirmation" };
    }
    case "addFolderToFarm": {
      const s = reply(AddFolderToFarmSchema);
      if (s.status !== "success") return invalid(s.reply());
      await addFolderToFarm(scope, ctxFarm(), s.value);
      return { ok: true as const, notice: "ui.create-confirmation" };
    }
    case "duplicateExploitation": {
      const s = reply(FarmDuplicationSchema);
      if (s.status !== "success") return invalid(s.reply());
      await duplicateExploitation(scope, ctxFarm(), s.value);
      return { ok: true as const, notice: "exploitation.duplicate-confirmation" };
    }
    default:
      throw new ServiceError("warning.invalid-form", 400);
  }
}
