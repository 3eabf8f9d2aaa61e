import { z } from "zod";
import { BulkEvaluationSchema, EvaluationSchema } from "~/domain/rdd";
import {
  editOf,
  formIntent,
  idField,
  intent,
  jsonField,
  optionalIdField,
  queryId,
  resourceLoader,
  rowIntent,
  screenAction,
  stampField,
} from "#server/http/route.server";
import { ServiceError } from "#server/errors";
import { copyEvaluation, getEvaluations, removeEvaluation, saveEvaluation } from "#server/rdd/service.server";

/**
 * The evaluation panels of the intervention form (spec 3 §2.9): `?action=` reads the intervention's and its plot's evaluations,
 * the rules not yet evaluated and the targets of bulk add; posts save an evaluation, delete one, or copy one to interventions
 * or plots. A reader typing the address gets the interventions screen.
 */
export const loader = resourceLoader("/home/description/au_champs/interventions", async ({ scope, query }) => {
  const action = queryId(query, "action");
  if (!action) throw new ServiceError("warning.invalid", 400, { action: ["warning.invalid"] });
  return getEvaluations(scope, action);
});

const portee = z.enum(["action", "parcelle"]);

export const action = screenAction(
  {
    save: formIntent(
      EvaluationSchema,
      async ({ scope }, value, env) => {
        const ids = await saveEvaluation(scope, env.portee === "action" ? { idAction: env.idAction } : { idParcelle: env.idParcelle }, value, editOf(env));
        return { ids };
      },
      { fields: { portee, idAction: idField, idParcelle: idField, id: optionalIdField, updatedAt: stampField }, notice: "ui.save-confirmation" },
    ),
    delete: rowIntent(({ scope }, id) => removeEvaluation(scope, id), "ui.delete-confirmation"),
    copy: intent({ id: idField, vers: portee, cibles: jsonField(BulkEvaluationSchema.shape.cibles) }, async ({ scope }, { id, vers, cibles }) => {
      await copyEvaluation(scope, id, vers, cibles);
      return { ok: true as const, notice: "ui.save-confirmation" };
    }),
  },
  { gate: "campaign" },
);
