import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { findUtilisateurByUsername, toPublic } from "../utilisateur/repo";
import { runContextIntent } from "./actions";
import { campaignContext } from "../access/description";
import { loadContextView, markPostsSeen, selectInContext } from "./service";
import { scopeOf } from "../../tests/helpers/service";

const t = useTestDb();
const user = async (name: string) => toPublic((await findUtilisateurByUsername(t.db(), name))!);

describe(`context selection (${dialect})`, () => {
  test("[A-CTX-07] [A-CTX-08] the folder list holds the chosen network's folders on which the user has a right", async () => {
    const lecteur = await user("lecteur");
    await selectInContext(t.db(), lecteur, { intent: "oad", id: t.demo().oads.reseauDemo });
    const view = await loadContextView(t.db(), lecteur);
    expect(view.dossiers.map((d) => d.libelle)).toEqual(["Groupe Grandes cultures Beauce"]);
    const animateur = await user("animateur");
    await selectInContext(t.db(), animateur, { intent: "oad", id: t.demo().oads.reseauDemo });
    expect((await loadContextView(t.db(), animateur)).dossiers).toHaveLength(2);
  });

  test("[A-CTX-09] the farm list holds only farms whose link gives read or synthesis", async () => {
    const animateur = await user("animateur");
    const { oads, dossiers, exploitations } = t.demo();
    await selectInContext(t.db(), animateur, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(t.db(), animateur, { intent: "dossier", id: dossiers.beauce });
    const view = await loadContextView(t.db(), animateur);
    expect(view.exploitations.map((e) => e.id).sort()).toEqual([exploitations.tilleuls, exploitations.moulin].sort());
  });

  test("[A-CTX-10] [A-CTX-11] [A-CTX-14] [A-CTX-15] each choice clears the levels below it", async () => {
    const redacteur = await user("redacteur");
    const { oads, dossiers, exploitations, campagnes } = t.demo();
    await selectInContext(t.db(), redacteur, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(t.db(), redacteur, { intent: "dossier", id: dossiers.beauce });
    await selectInContext(t.db(), redacteur, { intent: "exploitations", ids: [exploitations.tilleuls] });
    let view = await loadContextView(t.db(), redacteur);
    expect(view.campagnes.map((c) => c.id)).toContain(campagnes.tilleuls2025);
    await selectInContext(t.db(), redacteur, { intent: "campagne", id: campagnes.tilleuls2025 });
    expect((await loadContextView(t.db(), redacteur)).selected.idCampagne).toBe(campagnes.tilleuls2025);

    await selectInContext(t.db(), redacteur, { intent: "exploitations", ids: [exploitations.tilleuls, exploitations.moulin] });
    view = await loadContextView(t.db(), redacteur);
    expect(view.selected.idCampagne).toBeNull();
    expect(view.campagnes.map((c) => c.idExploitation)).toEqual(expect.arrayContaining([exploitations.tilleuls, exploitations.moulin]));

    await selectInContext(t.db(), redacteur, { intent: "dossier", id: dossiers.bocage });
    view = await loadContextView(t.db(), redacteur);
    expect(view.selected.exploitations).toEqual([]);

    await selectInContext(t.db(), redacteur, { intent: "oad", id: oads.international });
    view = await loadContextView(t.db(), redacteur);
    expect(view.selected.idDossier).toBeNull();
    expect(view.dossiers).toEqual([]);
  });

  test("[A-CTX-16] choosing a campaign where none was chosen is reported as the first choice", async () => {
    const redacteur = await user("redacteur");
    const { oads, dossiers, exploitations, campagnes } = t.demo();
    await selectInContext(t.db(), redacteur, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(t.db(), redacteur, { intent: "dossier", id: dossiers.beauce });
    await selectInContext(t.db(), redacteur, { intent: "exploitations", ids: [exploitations.tilleuls] });
    expect(await selectInContext(t.db(), redacteur, { intent: "campagne", id: campagnes.tilleuls2024 })).toEqual({ firstCampaign: true });
    expect(await selectInContext(t.db(), redacteur, { intent: "campagne", id: campagnes.tilleuls2025 })).toEqual({ firstCampaign: false });
  });

  test("[A-CTX-12] [A-CTX-13] choosing a folder and farms gives the user's abilities on them", async () => {
    const lecteur = await user("lecteur");
    const { oads, dossiers, exploitations, campagnes } = t.demo();
    await selectInContext(t.db(), lecteur, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(t.db(), lecteur, { intent: "dossier", id: dossiers.beauce });
    await selectInContext(t.db(), lecteur, { intent: "exploitations", ids: [exploitations.moulin] });
    await selectInContext(t.db(), lecteur, { intent: "campagne", id: campagnes.moulin2025 });
    const view = await loadContextView(t.db(), lecteur);
    expect(view.abilities.canWriteDescriptif).toBe(false);
    expect(view.abilities.isDoAnimation).toBe(false);
    expect(view.abilities.canReadFarm).toBe(true);
  });

  test("a choice outside what the user may see is refused and changes nothing", async () => {
    const synthese = await user("synthese");
    const before = await loadContextView(t.db(), synthese);
    await expect(selectInContext(t.db(), synthese, { intent: "dossier", id: t.demo().dossiers.bocage })).rejects.toMatchObject({
      key: "errors.forbidden",
      status: 403,
    });
    expect((await loadContextView(t.db(), synthese)).selected).toEqual(before.selected);
  });

  test("[A-SHELL-09] [A-CTX-22] the new-post dot shows until the latest post was seen, and the seen date is kept", async () => {
    const admin = await user("admin");
    expect((await loadContextView(t.db(), admin)).hasNewPost).toBe(true);
    await markPostsSeen(t.db(), admin);
    expect((await loadContextView(t.db(), admin)).hasNewPost).toBe(false);
    await t
      .db()("post")
      .insert({ title: "Nouvelle", content: "…", creationDate: new Date(Date.now() + 1000) });
    expect((await loadContextView(t.db(), admin)).hasNewPost).toBe(true);
  });

  test("[A-LOCK-09] [A-LOCK-02] selecting a campaign locks it again", async () => {
    const animateur = await user("animateur");
    const { oads, dossiers, exploitations, campagnes } = t.demo();
    await selectInContext(t.db(), animateur, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(t.db(), animateur, { intent: "dossier", id: dossiers.beauce });
    await selectInContext(t.db(), animateur, { intent: "exploitations", ids: [exploitations.tilleuls] });
    await selectInContext(t.db(), animateur, { intent: "campagne", id: campagnes.tilleuls2024 });
    expect((await loadContextView(t.db(), animateur)).lock).toEqual({ locked: true, unlockable: true });
    await t.db()("utilisateur_contexte").where({ idUser: animateur.id }).update({ idCampagneDeverrouillee: campagnes.tilleuls2024 });
    expect((await loadContextView(t.db(), animateur)).lock?.locked).toBe(false);
    await selectInContext(t.db(), animateur, { intent: "campagne", id: campagnes.tilleuls2024 });
    expect((await loadContextView(t.db(), animateur)).lock?.locked).toBe(true);
  });

  test("[A-CTX-28] [A-CTX-23] [A-CTX-25] a folder, a farm and a campaign created from the context bar become the selection", async () => {
    const animateur = await user("animateur");
    const { oads, dossiers, exploitations } = t.demo();
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      return f;
    };
    await selectInContext(t.db(), animateur, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(t.db(), animateur, { intent: "dossier", id: dossiers.beauce });
    await selectInContext(t.db(), animateur, { intent: "exploitations", ids: [exploitations.tilleuls] });
    expect(
      await runContextIntent(
        scopeOf(t.db(), animateur),
        form({ intent: "createCampagne", anneeRecolte: "2031", idExploitation: String(exploitations.tilleuls) }),
      ),
    ).toMatchObject({ ok: true });
    let view = await loadContextView(t.db(), animateur);
    expect(view.campagne).toMatchObject({ anneeRecolte: 2031, idExploitation: exploitations.tilleuls });

    expect(
      await runContextIntent(scopeOf(t.db(), animateur), form({ intent: "createDossier", libelle: "Dossier créé", idOad: String(oads.reseauDemo) })),
    ).toMatchObject({ ok: true });
    view = await loadContextView(t.db(), animateur);
    expect(view.dossiers.find((d) => d.id === view.selected.idDossier)?.libelle).toBe("Dossier créé");
    expect(view.selected.idCampagne).toBeNull();
  });
});

describe(`the view shared by one request's scope (issue 10, decision 0092, ${dialect})`, () => {
  test("campaignContext takes the scope's view, loaded once; another scope (another request) loads its own", async () => {
    const { campagnes } = t.demo();
    const animateur = await user("animateur");
    await selectInContext(t.db(), animateur, { intent: "oad", id: t.demo().oads.reseauDemo });
    await selectInContext(t.db(), animateur, { intent: "dossier", id: t.demo().dossiers.beauce });
    await selectInContext(t.db(), animateur, { intent: "exploitations", ids: [t.demo().exploitations.tilleuls] });
    await selectInContext(t.db(), animateur, { intent: "campagne", id: campagnes.tilleuls2025 });
    const scope = scopeOf(t.db(), animateur);
    const first = await campaignContext(scope);
    const second = await campaignContext(scope);
    expect(first.view).toBe(second.view);
    expect(await scope.view()).toBe(first.view);
    expect(first.idCampagne).toBe(campagnes.tilleuls2025);
    expect((await campaignContext(scopeOf(t.db(), animateur))).view).not.toBe(first.view);
    await t.db().transaction(async (trx) => expect((await campaignContext(scope.on(trx))).view).toBe(first.view));
  });
});

describe(`the stored context and the newest post in one query, decision 0082 (${dialect})`, () => {
  test("gives what findContexte and latestPostDate give, for a user with a context row and one without", async () => {
    const { findContexte, findContexteWithLatestPost, latestPostDate, saveContexte } = await import("./repo");
    const user = (await findUtilisateurByUsername(t.db(), "lecteur"))!;
    await t.db()("utilisateur_contexte").where({ idUser: user.id }).delete();
    const contextVersion = Number((await t.db()("version_contexte").where({ id: 1 }).first("version")).version);
    expect(await findContexteWithLatestPost(t.db(), user.id)).toEqual({
      stored: await findContexte(t.db(), user.id),
      latest: await latestPostDate(t.db()),
      version: contextVersion,
    });
    await saveContexte(t.db(), { ...(await findContexte(t.db(), user.id)), exploitations: [3, 5], lastPostDate: "2026-01-02T03:04:05.000Z" });
    const both = await findContexteWithLatestPost(t.db(), user.id);
    expect(both).toEqual({ stored: await findContexte(t.db(), user.id), latest: await latestPostDate(t.db()), version: contextVersion });
    expect(both.stored.exploitations).toEqual([3, 5]);
    expect(both.stored).not.toHaveProperty("latestPostOfAll");
    expect(both.stored).not.toHaveProperty("versionContexte");
    expect(both.latest).not.toBeNull();
  });
});
