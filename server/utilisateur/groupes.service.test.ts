import { describe, expect, test } from "vitest";
import { demoUser, expectRefused } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { listGroupMembers } from "./service";

/** Listing a user group's members (issue 10, defect 8; decision 0019): only for who may grant rights, or an admin. */
const t = useTestDb();

describe(`group members (${dialect})`, () => {
  test("[issue10-8] [A-FOLDER-03] a folder animator and an admin list a group's visible members; a writer or a reader is refused 403", async () => {
    const db = t.db();
    const { groupes } = t.demo();
    for (const username of ["animateur", "admin"]) {
      const members = await listGroupMembers(db, await demoUser(db, username), groupes.agriculteurs);
      // nouveau has not accepted visibility: never listed.
      expect(members.map((m) => m.nom).sort(), username).toEqual(["Garnier", "Moreau"]);
    }
    for (const username of ["redacteur", "lecteur", "synthese"]) {
      await expectRefused(listGroupMembers(db, await demoUser(db, username), groupes.conseillers), "errors.forbidden", 403);
    }
  });

  test("[issue10-8] an animator who has not accepted visibility is refused too", async () => {
    const db = t.db();
    const animateur = await demoUser(db, "animateur");
    await expectRefused(listGroupMembers(db, { ...animateur, isVisible: false }, t.demo().groupes.conseillers), "errors.forbidden", 403);
  });
});
