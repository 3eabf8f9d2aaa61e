import { afterAll, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "../../server/demo/seed-demo";
import { countRows, snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_FERMES } from "../../server/api/appels-fermes";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Farm = {
  id: number;
  libelle: string;
  apiLibelle: string;
  suffixe: string | null;
  idTypeExploitation: number | null;
  idDossier: number;
  updatedAt: string;
};
type Link = {
  idDossierExploitation: number;
  idDossier: number;
  idExploitation: number;
  dexEcriture: boolean;
  dexLecture: boolean;
  dexSynthese: boolean;
  dexAnimation: boolean;
  dexNominatif: boolean;
  dossier: { libelle: string; apiLibelle: string; idOad: number };
};
type Right = { idUser: number; idDossier: number; udoAnimation: boolean; udoEcriture: boolean; udoLecture: boolean; udoSynthese: boolean };

const farmTables = () => snapshot(t.db(), "exploitation", "dossier_exploitation", "campagne");
const rightsTable = () => snapshot(t.db(), "utilisateur_dossier");
const fieldsOf = (body: unknown) => Object.keys((body as { fieldErrors?: object }).fieldErrors ?? {});

describe(`users, farms and folder links over the API (${dialect})`, () => {
  test("[A-API-16][A-ENT-03][B-API-03] GET exploitations/{id}: the farm (as the description screens load it) with libelle as apiLibelle and its suffixe; another farm 403, none 404", async () => {
    const { exploitations, dossiers } = t.demo();
    const r = await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}`, { token: await tokenOf("lecteur") });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: exploitations.tilleuls,
      libelle: "EARL des Tilleuls",
      apiLibelle: "EARL des Tilleuls",
      suffixe: null,
      idTypeExploitation: 1,
    });
    expect((r.body as Farm).idDossier).toBe(dossiers.beauce);
    // The farm list of a folder sends apiLibelle too.
    const list = await api("GET", `/api/v1/exploitations?dossierExploitation.dossier=${dossiers.beauce}`, { token: await tokenOf("lecteur") });
    expect(list.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: exploitations.tilleuls, apiLibelle: "EARL des Tilleuls" })]));
    expect((await api("GET", `/api/v1/exploitations/${exploitations.vallee}`, { token: await tokenOf("lecteur") })).status).toBe(403);
    expect((await api("GET", "/api/v1/exploitations/999999", { token: await tokenOf("lecteur") })).status).toBe(404);
    // Through a folder that does not link it: 404.
    expect(
      (await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}?idDossier=${dossiers.bocage}`, { token: await tokenOf("redacteur") })).status,
    ).toBe(404);
  });

  test("[A-API-16] POST dossiers/{id}/exploitations, PATCH (replicationCampagnesIds, stale 409) and DELETE exploitations/{id}", async () => {
    const { dossiers, exploitations, campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const created = await api("POST", `/api/v1/dossiers/${dossiers.beauce}/exploitations`, {
      token,
      body: { libelle: "SCEA des Peupliers", idTypeExploitation: 2, idDossier: dossiers.beauce },
    });
    expect(created.status).toBe(201);
    const farm = created.body as Farm;
    expect(farm).toMatchObject({ libelle: "SCEA des Peupliers", apiLibelle: "SCEA des Peupliers", idTypeExploitation: 2, idDossier: dossiers.beauce });
    expect(await countRows(t.db(), "dossier_exploitation", { idExploitation: farm.id, idDossier: dossiers.beauce })).toBe(1);

    const patched = await api("PATCH", `/api/v1/exploitations/${farm.id}`, {
      token,
      body: { libelle: "SCEA des Peupliers bis", idTypeExploitation: 1, updatedAt: farm.updatedAt, replicationCampagnesIds: [] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      libelle: "SCEA des Peupliers bis",
      apiLibelle: "SCEA des Peupliers bis",
      idTypeExploitation: 1,
      replicationCampagnesIds: [],
    });
    expect((await t.db()("exploitation").where({ id: farm.id }).first("libelle")).libelle).toBe("SCEA des Peupliers bis");
    // The old token: stale.
    expect((await api("PATCH", `/api/v1/exploitations/${farm.id}`, { token, body: { libelle: "X", updatedAt: farm.updatedAt } })).status).toBe(409);
    // The campaigns named for the replication are the farm's own.
    const fresh = (await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}`, { token })).body as Farm;
    const own = await api("PATCH", `/api/v1/exploitations/${exploitations.tilleuls}`, {
      token,
      body: { libelle: "EARL des Tilleuls", idTypeExploitation: 1, updatedAt: fresh.updatedAt, replicationCampagnesIds: [campagnes.tilleuls2025] },
    });
    expect(own.status).toBe(200);
    expect((own.body as { replicationCampagnesIds: number[] }).replicationCampagnesIds).toEqual([campagnes.tilleuls2025]);
    const again = (await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}`, { token })).body as Farm;
    const foreign = await api("PATCH", `/api/v1/exploitations/${exploitations.tilleuls}`, {
      token,
      body: { libelle: "Renommée", updatedAt: again.updatedAt, replicationCampagnesIds: [campagnes.vallee2025] },
    });
    expect(foreign.status).toBe(400);
    expect(fieldsOf(foreign.body)).toEqual(["replicationCampagnesIds"]);
    expect((await t.db()("exploitation").where({ id: exploitations.tilleuls }).first("libelle")).libelle).toBe("EARL des Tilleuls");

    expect((await api("DELETE", `/api/v1/exploitations/${farm.id}`, { token })).status).toBe(204);
    expect(await countRows(t.db(), "exploitation", { id: farm.id })).toBe(0);
    expect((await api("DELETE", `/api/v1/exploitations/${farm.id}`, { token })).status).toBe(404);
  });

  test("[A-API-16] farm writes refused: reader, synthesis, another farm, read-only token 403; bad input 400 with fieldErrors; nothing changed", async () => {
    const { dossiers, exploitations } = t.demo();
    const writer = await tokenOf("redacteur");
    const farm = (await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}`, { token: writer })).body as Farm;
    const before = await farmTables();
    const body = { libelle: "Pirate", idTypeExploitation: 1, updatedAt: farm.updatedAt };
    for (const user of ["lecteur", "synthese"]) {
      const token = await tokenOf(user);
      expect(
        (await api("POST", `/api/v1/dossiers/${dossiers.beauce}/exploitations`, { token, body: { libelle: "Pirate", idTypeExploitation: 1 } })).status,
      ).toBe(403);
      expect((await api("PATCH", `/api/v1/exploitations/${exploitations.tilleuls}`, { token, body })).status).toBe(403);
      expect((await api("DELETE", `/api/v1/exploitations/${exploitations.tilleuls}`, { token })).status).toBe(403);
    }
    const lecteur = await tokenOf("lecteur");
    expect((await api("PATCH", `/api/v1/exploitations/${exploitations.vallee}`, { token: lecteur, body })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/exploitations/${exploitations.vallee}`, { token: lecteur })).status).toBe(403);
    expect(
      (await api("POST", `/api/v1/dossiers/${dossiers.bocage}/exploitations`, { token: lecteur, body: { libelle: "Pirate", idTypeExploitation: 1 } })).status,
    ).toBe(403);
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("PATCH", `/api/v1/exploitations/${exploitations.tilleuls}`, { token: readOnly, body })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/exploitations/${exploitations.tilleuls}`, { token: readOnly })).status).toBe(403);
    const empty = await api("POST", `/api/v1/dossiers/${dossiers.beauce}/exploitations`, { token: writer, body: { libelle: "", idTypeExploitation: "x" } });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body).sort()).toEqual(["idTypeExploitation", "libelle"]);
    const other = await api("POST", `/api/v1/dossiers/${dossiers.beauce}/exploitations`, {
      token: writer,
      body: { libelle: "Ailleurs", idTypeExploitation: 1, idDossier: dossiers.bocage },
    });
    expect(other.status).toBe(400);
    expect(fieldsOf(other.body)).toEqual(["idDossier"]);
    const unknown = await api("PATCH", `/api/v1/exploitations/${exploitations.tilleuls}`, { token: writer, body: { ...body, surface: 12 } });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toEqual(["surface"]);
    expect(await farmTables()).toEqual(before);
  });

  test("[A-API-17][A-ENT-01] GET exploitations/{id}/dossiers_exploitations: each link's rights and its folder (libelle as apiLibelle); folder answers carry apiLibelle and suffixe", async () => {
    const { exploitations, dossiers } = t.demo();
    const token = await tokenOf("redacteur");
    const r = await api("GET", `/api/v1/exploitations/${exploitations.moulin}/dossiers_exploitations`, { token });
    expect(r.status).toBe(200);
    const links = r.body as Link[];
    expect(links.map((l) => l.idDossier).sort()).toEqual([dossiers.beauce, dossiers.bocage].sort());
    const beauce = links.find((l) => l.idDossier === dossiers.beauce)!;
    expect(beauce).toMatchObject({ idExploitation: exploitations.moulin, dexEcriture: true, dexLecture: true, dexSynthese: true, dexAnimation: false });
    expect(beauce.idDossierExploitation).toEqual(expect.any(Number));
    expect(typeof beauce.dexNominatif).toBe("boolean");
    const bocage = links.find((l) => l.idDossier === dossiers.bocage)!;
    expect(bocage).toMatchObject({ dexEcriture: false, dexLecture: true });
    expect(bocage.dossier.libelle).toBe(bocage.dossier.apiLibelle);
    expect(bocage.dossier.libelle.length).toBeGreaterThan(0);
    // A farm the user cannot reach: 403; none: 404.
    expect((await api("GET", `/api/v1/exploitations/${exploitations.vallee}/dossiers_exploitations`, { token: await tokenOf("lecteur") })).status).toBe(403);
    expect((await api("GET", "/api/v1/exploitations/999999/dossiers_exploitations", { token })).status).toBe(404);
    // The folder calls send the libelle as apiLibelle, with the suffixe (A-ENT-01).
    const dossier = await api("GET", `/api/v1/dossiers/${dossiers.beauce}`, { token });
    expect(dossier.body).toMatchObject({ id: dossiers.beauce, apiLibelle: (dossier.body as { libelle: string }).libelle, suffixe: null });
    const idOad = (dossier.body as { idOad: number }).idOad;
    const list = await api("GET", `/api/v2/dossiers?oad=${idOad}`, { token });
    expect(list.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: dossiers.beauce, apiLibelle: expect.any(String), suffixe: null })]));
  });

  test("[A-API-18] POST, PATCH and DELETE dossiers_exploitations take one link or a list; the rights cascade; a farm keeps a folder", async () => {
    const { exploitations, dossiers } = t.demo();
    const token = await tokenOf("animateur");
    // One link: the Bocage folder added to EARL des Tilleuls, write ticked (read and synthesis follow).
    const one = await api("POST", "/api/v1/dossiers_exploitations", {
      token,
      body: { idExploitation: exploitations.tilleuls, idDossier: dossiers.bocage, dexEcriture: true },
    });
    expect(one.status).toBe(201);
    const added = (one.body as Link[]).find((l) => l.idDossier === dossiers.bocage && l.idExploitation === exploitations.tilleuls)!;
    expect(added).toMatchObject({ dexEcriture: true, dexLecture: true, dexSynthese: true, dexAnimation: false });
    // Linked twice: 409, nothing added.
    expect(
      (await api("POST", "/api/v1/dossiers_exploitations", { token, body: [{ idExploitation: exploitations.tilleuls, idDossier: dossiers.bocage }] })).status,
    ).toBe(409);
    expect(await countRows(t.db(), "dossier_exploitation", { idExploitation: exploitations.tilleuls })).toBe(2);

    // A list of two links changed at once; animation forces writing.
    const links = (await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}/dossiers_exploitations`, { token })).body as Link[];
    const patched = await api("PATCH", "/api/v1/dossiers_exploitations", {
      token,
      body: links.map((l) => ({
        idDossierExploitation: l.idDossierExploitation,
        dexEcriture: false,
        dexLecture: false,
        dexSynthese: true,
        dexAnimation: l.idDossier === dossiers.beauce,
        dexNominatif: false,
      })),
    });
    expect(patched.status).toBe(200);
    const after = patched.body as Link[];
    expect(after.find((l) => l.idDossier === dossiers.beauce)).toMatchObject({ dexAnimation: true, dexEcriture: true, dexLecture: true });
    expect(after.find((l) => l.idDossier === dossiers.bocage)).toMatchObject({ dexAnimation: false, dexEcriture: false, dexLecture: false, dexSynthese: true });
    // A single link patched.
    const single = await api("PATCH", "/api/v1/dossiers_exploitations", {
      token,
      body: {
        idDossierExploitation: added.idDossierExploitation,
        dexEcriture: false,
        dexLecture: true,
        dexSynthese: true,
        dexAnimation: false,
        dexNominatif: true,
      },
    });
    expect(single.status).toBe(200);
    expect((single.body as Link[]).find((l) => l.idDossierExploitation === added.idDossierExploitation)).toMatchObject({
      dexLecture: true,
      dexNominatif: true,
    });

    // Every link of the farm in one delete: refused, nothing removed.
    const all = links.map((l) => ({ idDossierExploitation: l.idDossierExploitation }));
    expect((await api("DELETE", "/api/v1/dossiers_exploitations", { token, body: all })).status).toBe(409);
    expect(await countRows(t.db(), "dossier_exploitation", { idExploitation: exploitations.tilleuls })).toBe(2);
    expect((await api("DELETE", "/api/v1/dossiers_exploitations", { token, body: { idDossierExploitation: added.idDossierExploitation } })).status).toBe(204);
    expect(await countRows(t.db(), "dossier_exploitation", { id: added.idDossierExploitation })).toBe(0);
    expect((await api("DELETE", "/api/v1/dossiers_exploitations", { token, body: [{ idDossierExploitation: added.idDossierExploitation }] })).status).toBe(404);
  });

  test("[A-API-18] link writes refused: writer without farm animation (Moulin), reader, read-only token 403; bad input 400; nothing changed", async () => {
    const { exploitations, dossiers } = t.demo();
    const links = (await api("GET", `/api/v1/exploitations/${exploitations.moulin}/dossiers_exploitations`, { token: await tokenOf("redacteur") }))
      .body as Link[];
    const change = {
      idDossierExploitation: links[0].idDossierExploitation,
      dexEcriture: true,
      dexLecture: true,
      dexSynthese: true,
      dexAnimation: true,
      dexNominatif: true,
    };
    const before = await farmTables();
    const readOnly = await tokenOf("animateur", { nature: "personnel", acces: "lecture" });
    for (const token of [await tokenOf("redacteur"), await tokenOf("lecteur"), readOnly]) {
      // The Moulin farm's links give writing, no animation: its links are the animators' of the farm.
      expect(
        (await api("POST", "/api/v1/dossiers_exploitations", { token, body: { idExploitation: exploitations.moulin, idDossier: dossiers.bocage } })).status,
      ).toBe(403);
      expect((await api("PATCH", "/api/v1/dossiers_exploitations", { token, body: [change] })).status).toBe(403);
      expect((await api("DELETE", "/api/v1/dossiers_exploitations", { token, body: { idDossierExploitation: links[1].idDossierExploitation } })).status).toBe(
        403,
      );
    }
    // The reader reaches no folder of the Vallée farm: 403.
    expect(
      (
        await api("POST", "/api/v1/dossiers_exploitations", {
          token: await tokenOf("lecteur"),
          body: { idExploitation: exploitations.vallee, idDossier: dossiers.beauce },
        })
      ).status,
    ).toBe(403);
    const animateur = await tokenOf("animateur");
    const bad = await api("POST", "/api/v1/dossiers_exploitations", {
      token: animateur,
      body: [{ idExploitation: exploitations.tilleuls, idDossier: dossiers.bocage }, { idExploitation: "x" }],
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(["[1].idDossier", "[1].idExploitation"]);
    const unknown = await api("PATCH", "/api/v1/dossiers_exploitations", { token: animateur, body: { ...change, removed: true } });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toEqual(["0.removed"]);
    expect((await api("DELETE", "/api/v1/dossiers_exploitations", { token: animateur, body: [] })).status).toBe(400);
    expect(await farmTables()).toEqual(before);
  });

  test("[A-API-19] POST exploitations/duplication: a new farm in another folder with the chosen campaigns; refusals change nothing", async () => {
    const { exploitations, dossiers, campagnes } = t.demo();
    const body = {
      libelle: "EARL des Tilleuls_",
      idTypeExploitation: 1,
      idDossier: dossiers.bocage,
      dossierSource: dossiers.beauce,
      exploitationSource: exploitations.tilleuls,
      campagnesCibles: [campagnes.tilleuls2025],
    };
    const before = await farmTables();
    expect((await api("POST", "/api/v1/exploitations/duplication", { token: await tokenOf("lecteur"), body })).status).toBe(403);
    // A writer who is no animator may not send the copy to another folder.
    expect((await api("POST", "/api/v1/exploitations/duplication", { token: await tokenOf("redacteur"), body })).status).toBe(403);
    expect(
      (await api("POST", "/api/v1/exploitations/duplication", { token: await tokenOf("animateur", { nature: "personnel", acces: "lecture" }), body })).status,
    ).toBe(403);
    const bad = await api("POST", "/api/v1/exploitations/duplication", {
      token: await tokenOf("animateur"),
      body: { ...body, libelle: "", campagnesCibles: [] },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(["campagnesCibles", "libelle"]);
    const foreign = await api("POST", "/api/v1/exploitations/duplication", {
      token: await tokenOf("animateur"),
      body: { ...body, campagnesCibles: [campagnes.vallee2025] },
    });
    expect(foreign.status).toBe(400);
    expect(await farmTables()).toEqual(before);

    const r = await api("POST", "/api/v1/exploitations/duplication", { token: await tokenOf("animateur"), body });
    expect(r.status).toBe(201);
    const { id, dupliBaseDossier } = r.body as { id: number; dupliBaseDossier?: boolean };
    expect(dupliBaseDossier).toBe(true);
    const copy = await api("GET", `/api/v1/exploitations/${id}`, { token: await tokenOf("animateur") });
    expect(copy.body).toMatchObject({ libelle: "EARL des Tilleuls_", idDossier: dossiers.bocage });
    const copied = await t.db()("campagne").where({ idExploitation: id }).select("anneeRecolte", "idCampagneSource");
    expect(copied.map((c) => [Number(c.anneeRecolte), Number(c.idCampagneSource)])).toEqual([[2025, campagnes.tilleuls2025]]);
    expect(await countRows(t.db(), "parcelle", { idCampagne: (await t.db()("campagne").where({ idExploitation: id }).first("id")).id })).toBe(
      await countRows(t.db(), "parcelle", { idCampagne: campagnes.tilleuls2025 }),
    );
  });

  test("[A-API-20] GET, POST, PATCH and DELETE utilisateurs_dossiers: a folder's user rights, one or a list, with the cascade and an animator kept", async () => {
    const { dossiers, users } = t.demo();
    const token = await tokenOf("animateur");
    const list = await api("GET", `/api/v1/utilisateurs_dossiers?idDossier=${dossiers.beauce}`, { token });
    expect(list.status).toBe(200);
    const rows = list.body as (Right & Record<string, unknown>)[];
    expect(rows.find((r) => r.idUser === users.animateur)).toMatchObject({
      idDossier: dossiers.beauce,
      udoAnimation: true,
      udoEcriture: true,
      udoLecture: true,
      udoSynthese: true,
      udoNominatif: false,
      udoPath: null,
      udoAnneeRecolte: null,
      udoProprietaire: true,
    });
    expect(rows.find((r) => r.idUser === users.lecteur)).toMatchObject({ udoLecture: true, udoEcriture: false, udoProprietaire: false });

    // One right granted: reading forces synthesis.
    const granted = await api("POST", "/api/v1/utilisateurs_dossiers", {
      token,
      body: { idUser: users.lecteur, idDossier: dossiers.bocage, udoAnimation: false, udoEcriture: false, udoLecture: true, udoSynthese: false },
    });
    expect(granted.status).toBe(201);
    expect((granted.body as Right[]).find((r) => r.idUser === users.lecteur)).toMatchObject({
      idDossier: dossiers.bocage,
      udoLecture: true,
      udoSynthese: true,
    });
    // A list changed together: the reader writes, the synthesis user reads.
    const patched = await api("PATCH", "/api/v1/utilisateurs_dossiers", {
      token,
      body: [
        { idUser: users.lecteur, idDossier: dossiers.bocage, udoAnimation: false, udoEcriture: true, udoLecture: true, udoSynthese: true },
        { idUser: users.synthese, idDossier: dossiers.beauce, udoAnimation: false, udoEcriture: false, udoLecture: true, udoSynthese: true },
      ],
    });
    expect(patched.status).toBe(200);
    const after = patched.body as Right[];
    expect(after.find((r) => r.idUser === users.lecteur && r.idDossier === dossiers.bocage)).toMatchObject({ udoEcriture: true });
    expect(after.find((r) => r.idUser === users.synthese && r.idDossier === dossiers.beauce)).toMatchObject({ udoLecture: true });
    // The folder's last animator stays: 409, nothing changed.
    const before = await rightsTable();
    const last = await api("PATCH", "/api/v1/utilisateurs_dossiers", {
      token,
      body: { idUser: users.animateur, idDossier: dossiers.bocage, udoAnimation: false, udoEcriture: true, udoLecture: true, udoSynthese: true },
    });
    expect(last.status).toBe(409);
    expect((await api("DELETE", "/api/v1/utilisateurs_dossiers", { token, body: { idUser: users.animateur, idDossier: dossiers.bocage } })).status).toBe(409);
    expect(await rightsTable()).toEqual(before);
    // Removed (one of a list).
    expect((await api("DELETE", "/api/v1/utilisateurs_dossiers", { token, body: [{ idUser: users.lecteur, idDossier: dossiers.bocage }] })).status).toBe(204);
    expect(await countRows(t.db(), "utilisateur_dossier", { idUser: users.lecteur, idDossier: dossiers.bocage })).toBe(0);
  });

  test("[A-API-20] folder-right writes refused: writer, reader, other folder, read-only token 403; bad input 400; nothing changed", async () => {
    const { dossiers, users } = t.demo();
    const row = { idUser: users.synthese, idDossier: dossiers.beauce, udoAnimation: true, udoEcriture: true, udoLecture: true, udoSynthese: true };
    const before = await rightsTable();
    const readOnly = await tokenOf("animateur", { nature: "personnel", acces: "lecture" });
    for (const token of [await tokenOf("redacteur"), await tokenOf("lecteur"), readOnly]) {
      expect((await api("POST", "/api/v1/utilisateurs_dossiers", { token, body: row })).status).toBe(403);
      expect((await api("PATCH", "/api/v1/utilisateurs_dossiers", { token, body: [row] })).status).toBe(403);
      expect((await api("DELETE", "/api/v1/utilisateurs_dossiers", { token, body: { idUser: users.synthese, idDossier: dossiers.beauce } })).status).toBe(403);
    }
    expect((await api("GET", `/api/v1/utilisateurs_dossiers?idDossier=${dossiers.beauce}`, { token: await tokenOf("lecteur") })).status).toBe(403);
    // The admin animates Beauce only: Bocage is another folder for him.
    expect((await api("PATCH", "/api/v1/utilisateurs_dossiers", { token: await tokenOf("admin"), body: { ...row, idDossier: dossiers.bocage } })).status).toBe(
      403,
    );
    const bad = await api("POST", "/api/v1/utilisateurs_dossiers", { token: await tokenOf("animateur"), body: { ...row, udoLecture: "oui", idUser: 0 } });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(["[0].idUser", "[0].udoLecture"]);
    expect(
      (
        await api("POST", "/api/v1/utilisateurs_dossiers", {
          token: await tokenOf("animateur"),
          body: { ...row, idUser: users.nouveau, idDossier: dossiers.beauce },
        })
      ).status,
    ).toBe(400);
    expect(await rightsTable()).toEqual(before);
  });

  test("[A-API-10] PATCH utilisateurs/{id}: the own profile (nom, prenom, isVisible, password with the current one) and the terms (acceptcgu)", async () => {
    const { users } = t.demo();
    const token = await tokenOf("synthese");
    const me = (await api("GET", `/api/v1/utilisateurs/${users.synthese}`, { token })).body as { updatedAt: string };
    const saved = await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, {
      token,
      body: { nom: "Garnier-Roux", prenom: "Émilie", isVisible: false, updatedAt: me.updatedAt },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: users.synthese, nom: "Garnier-Roux", prenom: "Émilie", isVisible: false, acceptcgu: true });
    // Stale.
    expect((await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, { token, body: { nom: "X", prenom: "Y", updatedAt: me.updatedAt } })).status).toBe(
      409,
    );
    const fresh = (saved.body as { updatedAt: string }).updatedAt;
    const before = await snapshot(t.db(), "utilisateur");
    // Someone else's profile: 403; a read-only token: 403; bad input: 400 with the fields; nothing changed.
    expect((await api("PATCH", `/api/v1/utilisateurs/${users.lecteur}`, { token, body: { nom: "X", prenom: "Y", updatedAt: fresh } })).status).toBe(403);
    // Administration fields on one's own profile: 400 naming them.
    const own = await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, { token, body: { nom: "X", prenom: "Y", admin: true, updatedAt: fresh } });
    expect(own.status).toBe(400);
    expect(fieldsOf(own.body)).toEqual(["admin"]);
    const readOnly = await tokenOf("synthese", { nature: "personnel", acces: "lecture" });
    expect((await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, { token: readOnly, body: { nom: "X", prenom: "Y", updatedAt: fresh } })).status).toBe(
      403,
    );
    const bad = await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, { token, body: { nom: "", prenom: "Y", password: "court", updatedAt: fresh } });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(["currentPassword", "nom", "password"]);
    const wrong = await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, {
      token,
      body: { nom: "G", prenom: "E", password: "nouveau-secret", currentPassword: "pas-le-bon", updatedAt: fresh },
    });
    expect(wrong.status).toBe(400);
    expect(fieldsOf(wrong.body)).toEqual(["currentPassword"]);
    expect(
      (await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, { token, body: { nom: "G", prenom: "E", role: "admin", updatedAt: fresh } })).status,
    ).toBe(400);
    expect(await snapshot(t.db(), "utilisateur")).toEqual(before);

    // A new password with the current one: the other tokens end, the calling one stays.
    const other = await tokenOf("synthese");
    const pw = await api("PATCH", `/api/v1/utilisateurs/${users.synthese}`, {
      token,
      body: { nom: "Garnier", prenom: "Émilie", isVisible: true, password: "nouveau-secret", currentPassword: DEMO_PASSWORD, updatedAt: fresh },
    });
    expect(pw.status).toBe(200);
    expect((await api("GET", `/api/v1/utilisateurs/${users.synthese}`, { token })).status).toBe(200);
    expect((await api("GET", `/api/v1/utilisateurs/${users.synthese}`, { token: other })).status).toBe(401);

    // The terms: a user who has not accepted them may accept (with visibility) and nothing else.
    const nouveau = await tokenOf("nouveau");
    const n = (await api("GET", `/api/v1/utilisateurs/${users.nouveau}`, { token: nouveau })).body as { updatedAt: string };
    expect(
      (await api("PATCH", `/api/v1/utilisateurs/${users.nouveau}`, { token: nouveau, body: { nom: "P", prenom: "F", updatedAt: n.updatedAt } })).status,
    ).toBe(403);
    expect((await api("PATCH", `/api/v1/utilisateurs/${users.nouveau}`, { token: nouveau, body: { acceptcgu: false } })).status).toBe(400);
    const terms = await api("PATCH", `/api/v1/utilisateurs/${users.nouveau}`, { token: nouveau, body: { acceptcgu: true, isVisible: true } });
    expect(terms.status).toBe(200);
    expect(terms.body).toMatchObject({ acceptcgu: true, isVisible: true });
  });

  test("[A-API-23] POST utilisateurs, PATCH and DELETE utilisateurs/{id}: the administration of users, a JSON payload, an administrator only", async () => {
    const { users, groupes } = t.demo();
    const admin = await tokenOf("admin");
    const payload = {
      username: "nouvelle.conseillere",
      nom: "Roux",
      prenom: "Inès",
      email: "ines@sillon.example",
      admin: false,
      roleTest: false,
      groupes: [groupes.conseillers],
    };
    const before = await snapshot(t.db(), "utilisateur", "utilisateur_groupe");
    // Not an administrator, a read-only token, not JSON, bad input: refused, nothing stored.
    expect((await api("POST", "/api/v1/utilisateurs", { token: await tokenOf("animateur"), body: { ...payload, password: "un-secret-long" } })).status).toBe(
      403,
    );
    expect(
      (
        await api("POST", "/api/v1/utilisateurs", {
          token: await tokenOf("admin", { nature: "personnel", acces: "lecture" }),
          body: { ...payload, password: "un-secret-long" },
        })
      ).status,
    ).toBe(403);
    const text = await api("POST", "/api/v1/utilisateurs", {
      token: admin,
      raw: new URLSearchParams({ ...payload, password: "un-secret-long" } as never).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(text.status).toBe(415);
    const bad = await api("POST", "/api/v1/utilisateurs", { token: admin, body: { ...payload, username: "avec espace", email: "pas-un-mail" } });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(["email", "password", "username"]);
    const taken = await api("POST", "/api/v1/utilisateurs", { token: admin, body: { ...payload, username: "lecteur", password: "un-secret-long" } });
    expect(taken.status).toBe(409);
    expect(fieldsOf(taken.body)).toEqual(["username"]);
    expect(await snapshot(t.db(), "utilisateur", "utilisateur_groupe")).toEqual(before);

    const created = await api("POST", "/api/v1/utilisateurs", { token: admin, body: { ...payload, password: "un-secret-long" } });
    expect(created.status).toBe(201);
    const user = created.body as { id: number; updatedAt: string };
    expect(created.body).toMatchObject({ username: "nouvelle.conseillere", nom: "Roux", prenom: "Inès", email: "ines@sillon.example", acceptcgu: false });
    expect(await countRows(t.db(), "utilisateur_groupe", { idUser: user.id, idGroupe: groupes.conseillers })).toBe(1);

    const edit = { ...payload, nom: "Roux-Martin", groupes: [], updatedAt: user.updatedAt };
    expect((await api("PATCH", `/api/v1/utilisateurs/${user.id}`, { token: await tokenOf("animateur"), body: edit })).status).toBe(403);
    // A profile field is not the administration's: 400 naming it.
    const mixed = await api("PATCH", `/api/v1/utilisateurs/${user.id}`, { token: admin, body: { ...edit, currentPassword: "x" } });
    expect(mixed.status).toBe(400);
    expect(fieldsOf(mixed.body)).toEqual(["currentPassword"]);
    const patched = await api("PATCH", `/api/v1/utilisateurs/${user.id}`, { token: admin, body: edit });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: user.id, nom: "Roux-Martin" });
    expect(await countRows(t.db(), "utilisateur_groupe", { idUser: user.id })).toBe(0);
    expect((await api("PATCH", `/api/v1/utilisateurs/${user.id}`, { token: admin, body: edit })).status).toBe(409);
    expect((await api("PATCH", "/api/v1/utilisateurs/999999", { token: admin, body: { ...edit, username: "personne" } })).status).toBe(404);

    expect((await api("DELETE", `/api/v1/utilisateurs/${user.id}`, { token: await tokenOf("animateur") })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/utilisateurs/${users.admin}`, { token: admin })).status).toBe(400);
    expect((await api("DELETE", `/api/v1/utilisateurs/${user.id}`, { token: admin })).status).toBe(204);
    expect(Boolean((await t.db()("utilisateur").where({ id: user.id }).first("actif")).actif)).toBe(false);
    expect((await api("DELETE", "/api/v1/utilisateurs/999999", { token: admin })).status).toBe(404);
  });

  test("[A-API-29] GET exploitations/permissions takes idDossier and exploitationsIds: the permissions per farm", async () => {
    const { dossiers, exploitations } = t.demo();
    const q = `idDossier=${dossiers.beauce}&exploitationsIds=${exploitations.tilleuls}&exploitationsIds=${exploitations.moulin}`;
    const reader = await api("GET", `/api/v1/exploitations/permissions?${q}`, { token: await tokenOf("lecteur") });
    expect(reader.status).toBe(200);
    expect(reader.body).toEqual([
      { idExploitation: exploitations.tilleuls, lecture: true, gestion: false, ecriture: false, animation: false },
      { idExploitation: exploitations.moulin, lecture: true, gestion: false, ecriture: false, animation: false },
    ]);
    const writer = await api("GET", `/api/v1/exploitations/permissions?${q}`, { token: await tokenOf("redacteur") });
    expect(writer.body).toEqual([
      expect.objectContaining({ idExploitation: exploitations.tilleuls, lecture: true, gestion: true, ecriture: true }),
      expect.objectContaining({ idExploitation: exploitations.moulin, lecture: true, gestion: true, ecriture: true, animation: false }),
    ]);
    // A farm the folder does not link: no permission.
    const vallee = await api("GET", `/api/v1/exploitations/permissions?idDossier=${dossiers.beauce}&exploitationsIds=${exploitations.vallee}`, {
      token: await tokenOf("redacteur"),
    });
    expect(vallee.body).toEqual([{ idExploitation: exploitations.vallee, lecture: false, gestion: false, ecriture: false, animation: false }]);
    const missing = await api("GET", `/api/v1/exploitations/permissions?idDossier=${dossiers.beauce}`, { token: await tokenOf("redacteur") });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(["exploitationsIds"]);
  });
});

afterAll(() => expectContract(APPELS_FERMES, answered));
