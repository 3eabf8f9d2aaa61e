import { ImportDaplosSchema } from "~/domain/import-daplos";
import { ServiceError } from "#server/errors";
import { limitedFormData } from "#server/http/limited-form-data.server";
import { resourceAction, resourceLoader } from "#server/http/route.server";
import { apercuImportDaplos, lancerImportDaplos, TAILLE_MAX_DAPLOS } from "#server/interop/daplos/service.server";

/**
 * The Daplos import's upload (decision 0107): POST multipart with `idOad`, `idDossier` (optional), the file
 * (`fichier`) and `intent` = "apercu" (the report of what the import would do, nothing written) or "lancer" (the
 * import started as a job: its history row and job ids). The body is read within the size limit before anything else.
 */
export const action = resourceAction(async ({ scope, request }) => {
  const tropGros = () => new ServiceError("daplos.trop-gros", 413, { fichier: ["daplos.trop-gros"] }, { max: TAILLE_MAX_DAPLOS });
  const limite = TAILLE_MAX_DAPLOS + 64 * 1024;
  if (Number(request.headers.get("content-length") ?? 0) > limite) throw tropGros();
  const formData = await limitedFormData(request, limite, tropGros).catch((e: unknown) => {
    if (e instanceof ServiceError) throw e;
    throw new ServiceError("warning.invalid-form", 400);
  });
  const fichier = formData.get("fichier");
  const champs = ImportDaplosSchema.safeParse({
    idOad: formData.get("idOad") ?? "",
    idDossier: formData.get("idDossier") ?? "",
    fichier: fichier instanceof File ? fichier : undefined,
  });
  if (!champs.success || !(fichier instanceof File)) {
    const issue = champs.error?.issues[0];
    const champ = String(issue?.path[0] ?? "fichier");
    const cle = issue?.message && /^[\w-]+\.[\w.-]+$/.test(issue.message) ? issue.message : "warning.required";
    throw new ServiceError(champ === "fichier" ? cle : "warning.invalid-form", 400, { [champ]: [cle] });
  }
  const demande = {
    idOad: champs.data.idOad,
    idDossier: champs.data.idDossier ?? null,
    nomFichier: fichier.name,
    octets: new Uint8Array(await fichier.arrayBuffer()),
  };
  const intent = formData.get("intent");
  if (intent === "apercu") return { ok: true as const, rapport: await apercuImportDaplos(scope, demande) };
  if (intent === "lancer") return { ok: true as const, notice: "daplos.ecran.lance", ...(await lancerImportDaplos(scope, demande)) };
  throw new ServiceError("warning.invalid-form", 400);
});

/** The address typed in the browser (GET): the import screen. */
export const loader = resourceLoader("/home/interoperabilite/importdaplos");
