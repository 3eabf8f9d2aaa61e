import { useTranslation } from "~/use-translation";
import { NavLink, Outlet } from "react-router";
import { adminLayoutLoader } from "#server/admin/screen.server";

/** Administration (issue 3): only for users with the admin flag; the context bar is hidden. */
export const handle = { hideNavbar: true };

export const loader = adminLayoutLoader;

export function meta() {
  return [{ title: "Sillon – Administration" }];
}

const TABS = [
  { to: "/home/admin/utilisateurs", key: "admin.tabs.users", id: "utilisateurs" },
  { to: "/home/admin/groupes", key: "admin.tabs.groups", id: "groupes" },
  { to: "/home/admin/reseaux", key: "admin.tabs.networks", id: "reseaux" },
  { to: "/home/admin/actualites", key: "admin.tabs.posts", id: "actualites" },
] as const;

export default function AdminLayout() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-6xl" data-testid="admin-layout">
      <h1 className="mb-3 text-xl font-semibold text-sillon-800">
        <NavLink to="/home/admin" end className="hover:underline" data-testid="admin-link">
          {t("menu.admin")}
        </NavLink>
      </h1>
      <nav aria-label={t("menu.admin")} className="mb-4 border-b border-stone-200">
        <ul className="-mb-px flex flex-wrap gap-1">
          {TABS.map((tab) => (
            <li key={tab.id}>
              <NavLink
                to={tab.to}
                data-testid={`admin-tab-${tab.id}`}
                className={({ isActive }) =>
                  `inline-block rounded-t border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-sillon-600 ${
                    isActive
                      ? "border-stone-200 border-b-white bg-white font-semibold text-sillon-800"
                      : "border-transparent text-stone-600 hover:bg-stone-100 hover:text-stone-900"
                  }`
                }
              >
                {t(tab.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export { RouteErrorPage as ErrorBoundary } from "~/components/shell/route-error";
