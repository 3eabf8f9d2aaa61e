/** A campaign as the lists name it (the context bar, its dialogs, the farm settings panels). */
export function campagneLabel(c: { libelle: string }) {
  return c.libelle;
}
