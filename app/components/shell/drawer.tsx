import { useTranslation } from "~/use-translation";
import { NavLink } from "react-router";
import { DRAWER_GROUPS, DRAWER_WIDTH } from "./menus";

/** `largeOnly`: the screen size is not known yet (server rendering); shown only where CSS says the screen is large. */
export function Drawer({ open, modal, largeOnly = false, onNavigate }: { open: boolean; modal: boolean; largeOnly?: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  if (!open) return null;
  return (
    <>
      {modal ? <div className="fixed inset-0 z-30 bg-black/30" onClick={onNavigate} aria-hidden="true" /> : null}
      <nav
        data-testid="drawer"
        aria-label={t("drawer.farm")}
        className={`${modal ? "fixed bottom-0 left-0 top-10 z-40" : "sticky top-0 self-start"} ${largeOnly ? "max-lg:hidden" : ""} h-full shrink-0 overflow-y-auto border-r border-stone-200 bg-white py-2 text-sm`}
        style={{ width: DRAWER_WIDTH }}
      >
        {DRAWER_GROUPS.map((group) => (
          <section key={group.key} className="mb-2" data-testid={`drawer-group-${group.key}`}>
            <h2 className="px-4 py-1 text-xs font-semibold uppercase tracking-wide text-sillon-800">{t(group.key)}</h2>
            {group.sections.map((section, i) => (
              <div key={section.key ?? i} className="mb-1">
                {section.key ? <h3 className="px-4 pt-1 text-xs font-medium text-stone-500">{t(section.key)}</h3> : null}
                <ul>
                  {section.links.map((l) => (
                    <li key={l.key}>
                      <NavLink
                        to={l.to}
                        onClick={modal ? onNavigate : undefined}
                        className={({ isActive }) =>
                          `block px-6 py-1.5 hover:bg-sillon-50 ${isActive ? "border-l-4 border-sillon-700 bg-sillon-50 pl-5 font-medium text-sillon-800" : ""}`
                        }
                      >
                        {t(l.key)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        ))}
      </nav>
    </>
  );
}
