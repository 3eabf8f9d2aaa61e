import { describe, expect, test } from "vitest";
import { AdminUserSchema, GroupeSchema, OadSchema, PostSchema, ResetPasswordSchema, resolvePostDate } from "~/domain/admin";
import { countRows, demoUser, expectRefused, lastAudit, snapshot } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { issueApiToken } from "../auth/api-token";
import { BadCredentialsError, checkCredentials } from "../auth/login";
import { listPosts } from "../post/repo";
import { findUtilisateurByUsername } from "../utilisateur/repo";
import {
  deleteGroupe,
  deleteOad,
  deletePost,
  getAdminGroupes,
  getAdminOads,
  getAdminPosts,
  getAdminUsers,
  resetPassword,
  saveGroupe,
  saveOad,
  savePost,
  saveUser,
  setUserActive,
} from "./service";

const t = useTestDb();
const admin = () => demoUser(t.db(), "admin");
const parse = <S extends { parse: (v: unknown) => unknown }>(schema: S, v: unknown) => schema.parse(v) as ReturnType<S["parse"]>;

const NON_ADMINS = ["animateur", "redacteur", "lecteur", "synthese", "nouveau"] as const;
const TABLES = ["utilisateur", "groupe_utilisateur", "utilisateur_groupe", "oad", "dossier", "post", "session", "api_token", "audit"];

async function openSession(idUser: number): Promise<string> {
  const id = `s-${idUser}-${Math.random().toString(36).slice(2)}`;
  await t
    .db()("session")
    .insert({ id, idUser, data: JSON.stringify({ userId: idUser }) });
  await issueApiToken(t.db(), idUser, { idSession: id });
  return id;
}

async function newUser(username: string, extra: Record<string, unknown> = {}) {
  return saveUser(
    t.db(),
    await admin(),
    parse(AdminUserSchema, {
      username,
      nom: "Essai",
      prenom: "Eva",
      password: "premier-mdp",
      confirmation: "premier-mdp",
      ...extra,
    }),
  );
}

describe(`administration is for admins only (${dialect})`, () => {
  for (const username of NON_ADMINS) {
    test(`${username} can neither read nor change users, groups, networks or news posts, and nothing changes`, async () => {
      const db = t.db();
      const caller = await demoUser(db, username);
      const { oads, groupes, users } = t.demo();
      const post = (await listPosts(db))[0];
      const before = await snapshot(db, ...TABLES);
      const calls: Promise<unknown>[] = [
        getAdminUsers(db, caller),
        getAdminGroupes(db, caller),
        getAdminOads(db, caller),
        getAdminPosts(db, caller),
        saveUser(db, caller, parse(AdminUserSchema, { username: "intrus", nom: "I", prenom: "I", password: "motdepasse", confirmation: "motdepasse" })),
        saveUser(db, caller, parse(AdminUserSchema, { id: caller.id, updatedAt: new Date().toISOString(), username, nom: "X", prenom: "Y", admin: "on" })),
        setUserActive(db, caller, users.lecteur, false),
        setUserActive(db, caller, users.admin, false),
        resetPassword(db, caller, parse(ResetPasswordSchema, { id: users.admin, password: "piratage1", confirmation: "piratage1" })),
        saveGroupe(db, caller, parse(GroupeSchema, { nomGroupe: "Intrus", membres: [String(caller.id)] })),
        saveGroupe(
          db,
          caller,
          parse(GroupeSchema, { id: groupes.conseillers, updatedAt: new Date().toISOString(), nomGroupe: "Renommé", membres: [String(caller.id)] }),
        ),
        deleteGroupe(db, caller, groupes.agriculteurs),
        saveOad(db, caller, parse(OadSchema, { libelle: "Réseau pirate" })),
        saveOad(db, caller, parse(OadSchema, { id: oads.international, updatedAt: new Date().toISOString(), libelle: "Piraté" })),
        deleteOad(db, caller, oads.international),
        savePost(db, caller, parse(PostSchema, { title: "Intrus", content: "Texte" })),
        savePost(db, caller, parse(PostSchema, { id: post.id, updatedAt: new Date().toISOString(), title: "Piraté", content: "Texte" })),
        deletePost(db, caller, post.id),
      ];
      for (const call of calls) await expectRefused(call, "errors.forbidden", 403);
      expect(await snapshot(db, ...TABLES)).toEqual(before);
    });
  }
});

describe(`users (${dialect})`, () => {
  test("the admin creates a user with names, e-mail, test role and groups; the new user can sign in and must accept the terms", async () => {
    const db = t.db();
    const { groupes } = t.demo();
    const id = await newUser("nouvelle.recrue", {
      email: "recrue@sillon.example",
      roleTest: "on",
      groupes: [String(groupes.conseillers), String(groupes.agriculteurs)],
    });
    const row = await findUtilisateurByUsername(db, "nouvelle.recrue");
    expect(row).toMatchObject({
      id,
      nom: "Essai",
      prenom: "Eva",
      email: "recrue@sillon.example",
      admin: false,
      roles: ["ROLE_TEST"],
      actif: true,
      acceptcgu: false,
      isVisible: false,
    });
    expect(row!.passwordHash).not.toContain("premier-mdp");
    const listed = (await getAdminUsers(db, await admin())).users.find((u) => u.id === id);
    expect(listed?.groupes.sort()).toEqual([groupes.conseillers, groupes.agriculteurs].sort());
    expect(listed?.roleTest).toBe(true);
    const signedIn = await checkCredentials(db, "nouvelle.recrue", "premier-mdp", "");
    expect(signedIn.acceptcgu).toBe(false);
    expect(await lastAudit(db)).toMatchObject({ action: "utilisateur.create", entite: "utilisateur", idEntite: id });
  });

  test("a username already taken (whatever the case) is refused beside the field, and nothing is written", async () => {
    const db = t.db();
    const before = await snapshot(db, "utilisateur", "utilisateur_groupe", "audit");
    await expectRefused(newUser("Animateur"), "warning.invalid-form", 409, { fieldErrors: { username: ["admin.username-taken"] } });
    const { users } = t.demo();
    const lecteur = (await getAdminUsers(db, await admin())).users.find((u) => u.id === users.lecteur)!;
    await expectRefused(
      saveUser(
        db,
        await admin(),
        parse(AdminUserSchema, { id: lecteur.id, updatedAt: lecteur.updatedAt, username: "redacteur", nom: "Moreau", prenom: "David" }),
      ),
      "warning.invalid-form",
      409,
      { fieldErrors: { username: ["admin.username-taken"] } },
    );
    expect(await snapshot(db, "utilisateur", "utilisateur_groupe", "audit")).toEqual(before);
  });

  test("a new user needs a confirmed password of 8 characters or more; an edit does not ask for one", () => {
    const base = { username: "x", nom: "N", prenom: "P" };
    const errors = (v: unknown) => AdminUserSchema.safeParse(v).error?.issues.map((i) => `${i.path.join(".")}:${i.message}`) ?? [];
    expect(errors(base)).toEqual(["password:warning.required"]);
    expect(errors({ ...base, password: "court", confirmation: "court" })).toEqual(["password:warning.min-characters"]);
    expect(errors({ ...base, password: "assez-long", confirmation: "autre-chose" })).toEqual(["confirmation:warning.match"]);
    expect(errors({ ...base, id: "3", updatedAt: "2025-01-01T00:00:00.000Z" })).toEqual([]);
    // An edit without its updatedAt token is refused (server/db/stale.ts).
    expect(errors({ ...base, id: "3" })).toEqual(["updatedAt:warning.required"]);
    expect(errors({ username: "avec espace", nom: "", prenom: "P", email: "pas-un-mail", id: "3" })).toEqual(
      expect.arrayContaining(["username:warning.invalid", "nom:warning.required", "email:warning.invalid"]),
    );
  });

  test("the admin edits a user: names, e-mail, admin flag, test role (other roles kept) and groups; a stale form is refused", async () => {
    const db = t.db();
    const { groupes } = t.demo();
    const id = await newUser("a.modifier", { roleTest: "on", groupes: [String(groupes.conseillers)] });
    await db("utilisateur")
      .where({ id })
      .update({ roles: JSON.stringify(["ROLE_AUTRE", "ROLE_TEST"]) });
    const current = (await getAdminUsers(db, await admin())).users.find((u) => u.id === id)!;
    await saveUser(
      db,
      await admin(),
      parse(AdminUserSchema, {
        id: String(id),
        updatedAt: current.updatedAt,
        username: "a.modifie",
        nom: "Nouveau",
        prenom: "Nom",
        email: "",
        admin: "on",
        groupes: String(groupes.agriculteurs),
      }),
    );
    const after = (await getAdminUsers(db, await admin())).users.find((u) => u.id === id)!;
    expect(after).toMatchObject({
      username: "a.modifie",
      nom: "Nouveau",
      prenom: "Nom",
      email: null,
      admin: true,
      roles: ["ROLE_AUTRE"],
      roleTest: false,
      groupes: [groupes.agriculteurs],
    });
    expect(await lastAudit(db)).toMatchObject({ action: "utilisateur.update", idEntite: id });
    // The form loaded before that save is now stale.
    await expectRefused(
      saveUser(
        db,
        await admin(),
        parse(AdminUserSchema, { id: String(id), updatedAt: current.updatedAt, username: "a.modifie", nom: "Écrasé", prenom: "Nom" }),
      ),
      "errors.stale",
      409,
    );
    expect((await findUtilisateurByUsername(db, "a.modifie"))?.nom).toBe("Nouveau");
  });

  test("unknown groups are refused and nothing is written", async () => {
    const db = t.db();
    const before = await snapshot(db, "utilisateur", "utilisateur_groupe");
    await expectRefused(newUser("groupe.inconnu", { groupes: ["999999"] }), "warning.invalid-form", 400, { fieldErrors: { groupes: ["warning.invalid"] } });
    expect(await snapshot(db, "utilisateur", "utilisateur_groupe")).toEqual(before);
  });

  test("an admin can neither disable himself, nor remove his own admin flag, nor reset his own password here", async () => {
    const db = t.db();
    const me = await admin();
    const before = await snapshot(db, "utilisateur", "session", "audit");
    await expectRefused(setUserActive(db, me, me.id, false), "admin.cannot-disable-self", 400);
    await expectRefused(
      saveUser(db, me, parse(AdminUserSchema, { id: String(me.id), updatedAt: me.updatedAt, username: "admin", nom: me.nom, prenom: me.prenom })),
      "warning.invalid-form",
      400,
      { fieldErrors: { admin: ["admin.own-admin-flag"] } },
    );
    await expectRefused(
      resetPassword(db, me, parse(ResetPasswordSchema, { id: String(me.id), password: "nouveau-mdp", confirmation: "nouveau-mdp" })),
      "admin.own-password-in-profile",
      400,
    );
    expect(await snapshot(db, "utilisateur", "session", "audit")).toEqual(before);
  });

  test("disabling a user signs them out everywhere and stops their sign-in; enabling lets them in again", async () => {
    const db = t.db();
    const id = await newUser("a.desactiver");
    await openSession(id);
    await openSession(id);
    const other = await openSession(t.demo().users.lecteur);
    await setUserActive(db, await admin(), id, false);
    expect(await countRows(db, "session", { idUser: id })).toBe(0);
    expect(await countRows(db, "api_token", { idUser: id })).toBe(0);
    expect(await countRows(db, "session", { id: other })).toBe(1);
    expect((await findUtilisateurByUsername(db, "a.desactiver"))?.actif).toBe(false);
    await expect(checkCredentials(db, "a.desactiver", "premier-mdp", "")).rejects.toBeInstanceOf(BadCredentialsError);
    expect(await lastAudit(db)).toMatchObject({ action: "utilisateur.disable", idEntite: id });

    await setUserActive(db, await admin(), id, true);
    expect((await checkCredentials(db, "a.desactiver", "premier-mdp", "")).id).toBe(id);
    expect(await lastAudit(db)).toMatchObject({ action: "utilisateur.enable", idEntite: id });
  });

  test("resetting a password: the old one no longer works, the new one does, and the user's sessions are ended", async () => {
    const db = t.db();
    const id = await newUser("a.reinitialiser");
    await openSession(id);
    expect(ResetPasswordSchema.safeParse({ id: String(id), password: "court", confirmation: "court" }).success).toBe(false);
    expect(ResetPasswordSchema.safeParse({ id: String(id), password: "nouveau-mdp", confirmation: "autre-mdp" }).success).toBe(false);
    await resetPassword(db, await admin(), parse(ResetPasswordSchema, { id: String(id), password: "nouveau-mdp", confirmation: "nouveau-mdp" }));
    await expect(checkCredentials(db, "a.reinitialiser", "premier-mdp", "")).rejects.toBeInstanceOf(BadCredentialsError);
    expect((await checkCredentials(db, "a.reinitialiser", "nouveau-mdp", "")).id).toBe(id);
    expect(await countRows(db, "session", { idUser: id })).toBe(0);
    expect(await countRows(db, "api_token", { idUser: id })).toBe(0);
    expect(await lastAudit(db)).toMatchObject({ action: "utilisateur.password", idEntite: id });
  });
});

describe(`groups (${dialect})`, () => {
  test("the admin creates a group with members, renames it, changes its members, then deletes it (its users stay)", async () => {
    const db = t.db();
    const { users } = t.demo();
    const id = await saveGroupe(
      db,
      await admin(),
      parse(GroupeSchema, { nomGroupe: "Conseillers Bretagne", membres: [String(users.animateur), String(users.lecteur)] }),
    );
    let groupe = (await getAdminGroupes(db, await admin())).groupes.find((g) => g.id === id)!;
    expect(groupe).toMatchObject({ nomGroupe: "Conseillers Bretagne" });
    expect(groupe.membres.sort()).toEqual([users.animateur, users.lecteur].sort());
    expect(await lastAudit(db)).toMatchObject({ action: "groupe.create", idEntite: id });

    await saveGroupe(
      db,
      await admin(),
      parse(GroupeSchema, { id: String(id), updatedAt: groupe.updatedAt, nomGroupe: "Conseillers Bretagne Sud", membres: [String(users.synthese)] }),
    );
    groupe = (await getAdminGroupes(db, await admin())).groupes.find((g) => g.id === id)!;
    expect(groupe).toMatchObject({ nomGroupe: "Conseillers Bretagne Sud", membres: [users.synthese] });

    await deleteGroupe(db, await admin(), id);
    expect(await countRows(db, "groupe_utilisateur", { id })).toBe(0);
    expect(await countRows(db, "utilisateur_groupe", { idGroupe: id })).toBe(0);
    expect(await countRows(db, "utilisateur", { id: users.synthese })).toBe(1);
    expect(await lastAudit(db)).toMatchObject({ action: "groupe.delete", idEntite: id });
  });

  test("a group name already used is refused beside the field", async () => {
    const db = t.db();
    const before = await snapshot(db, "groupe_utilisateur", "utilisateur_groupe");
    await expectRefused(saveGroupe(db, await admin(), parse(GroupeSchema, { nomGroupe: "conseillers du réseau démo" })), "warning.invalid-form", 409, {
      fieldErrors: { nomGroupe: ["admin.groupe-name-taken"] },
    });
    expect(await snapshot(db, "groupe_utilisateur", "utilisateur_groupe")).toEqual(before);
  });
});

describe(`networks (${dialect})`, () => {
  test("the admin creates and edits a network: name required, long name, international flag, access e-mail", async () => {
    const db = t.db();
    expect(OadSchema.safeParse({ libelle: "" }).error?.issues[0]).toMatchObject({ path: ["libelle"], message: "warning.required" });
    expect(OadSchema.safeParse({ libelle: "R", emailAcces: "pas-un-mail" }).error?.issues[0]).toMatchObject({
      path: ["emailAcces"],
      message: "warning.invalid",
    });
    const id = await saveOad(
      db,
      await admin(),
      parse(OadSchema, { libelle: "Réseau Ouest", libelleLong: "Réseau des fermes de l'Ouest", international: "on", emailAcces: "ouest@sillon.example" }),
    );
    let oad = (await getAdminOads(db, await admin())).oads.find((o) => o.id === id)!;
    expect(oad).toMatchObject({
      libelle: "Réseau Ouest",
      libelleLong: "Réseau des fermes de l'Ouest",
      international: true,
      emailAcces: "ouest@sillon.example",
      dossiers: 0,
    });
    await saveOad(db, await admin(), parse(OadSchema, { id: String(id), updatedAt: oad.updatedAt, libelle: "Réseau Ouest", libelleLong: "" }));
    oad = (await getAdminOads(db, await admin())).oads.find((o) => o.id === id)!;
    expect(oad).toMatchObject({ libelleLong: null, international: false, emailAcces: null });
    expect(await lastAudit(db)).toMatchObject({ action: "oad.update", idEntite: id });
  });

  test("a network with folders cannot be deleted; an empty one can", async () => {
    const db = t.db();
    const { oads } = t.demo();
    const before = await snapshot(db, "oad", "dossier", "audit");
    expect((await getAdminOads(db, await admin())).oads.find((o) => o.id === oads.reseauDemo)?.dossiers).toBe(2);
    await expectRefused(deleteOad(db, await admin(), oads.reseauDemo), "admin.network-has-folders", 409);
    expect(await snapshot(db, "oad", "dossier", "audit")).toEqual(before);

    const id = await saveOad(db, await admin(), parse(OadSchema, { libelle: "Réseau éphémère" }));
    await deleteOad(db, await admin(), id);
    expect(await countRows(db, "oad", { id })).toBe(0);
    expect(await lastAudit(db)).toMatchObject({ action: "oad.delete", idEntite: id });
  });
});

describe(`news posts (${dialect})`, () => {
  test("a post written without a date is dated now and comes first on the home page; it can be edited and deleted", async () => {
    const db = t.db();
    expect(PostSchema.safeParse({ title: "", content: "" }).error?.issues.map((i) => i.path[0])).toEqual(["title", "content"]);
    const id = await savePost(db, await admin(), parse(PostSchema, { title: "Journée technique", content: "Rendez-vous le 12 à la ferme du Moulin." }));
    const home = await listPosts(db);
    expect(home[0]).toMatchObject({ id, title: "Journée technique", postCategory: "actualite" });
    expect(Math.abs(new Date(home[0].creationDate).getTime() - Date.now())).toBeLessThan(60_000);

    const current = (await getAdminPosts(db, await admin())).posts.find((p) => p.id === id)!;
    await savePost(
      db,
      await admin(),
      parse(PostSchema, {
        id: String(id),
        updatedAt: current.updatedAt,
        title: "Journée technique (reportée)",
        content: "Nouvelle date à venir.",
        postCategory: "evenement",
        creationDate: "2024-03-05",
      }),
    );
    const edited = (await getAdminPosts(db, await admin())).posts.find((p) => p.id === id)!;
    expect(edited).toMatchObject({
      title: "Journée technique (reportée)",
      content: "Nouvelle date à venir.",
      postCategory: "evenement",
      creationDate: "2024-03-05T12:00:00.000Z",
    });
    expect((await listPosts(db))[0].id).not.toBe(id);

    await deletePost(db, await admin(), id);
    expect(await countRows(db, "post", { id })).toBe(0);
  });

  test("the post date: blank keeps the current date, today means now, the same day keeps its time, another day is noon UTC", () => {
    const now = new Date("2025-06-10T08:30:00.000Z");
    const current = new Date("2025-01-02T17:45:00.000Z");
    expect(resolvePostDate(undefined, null, now)).toBe(now);
    expect(resolvePostDate(undefined, current, now)).toBe(current);
    expect(resolvePostDate("2025-06-10", null, now)).toBe(now);
    expect(resolvePostDate("2025-01-02", current, now)).toBe(current);
    expect(resolvePostDate("2025-02-01", current, now).toISOString()).toBe("2025-02-01T12:00:00.000Z");
  });
});
