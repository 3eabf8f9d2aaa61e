import { Menu, MenuButton, MenuHeading, MenuItem, MenuItems, MenuSection } from "@headlessui/react";
import { useTranslation } from "~/use-translation";
import { Form, Link, NavLink } from "react-router";
import type { Locale } from "~/locales";
import { ChevronDownIcon, HomeIcon, LogoutIcon, MenuIcon, UserIcon } from "../icons";
import { LocaleSelector } from "../locale-selector";
import { DOCUMENTATION_MENU, HEADER_HEIGHT, INTEROPERABILITY_MENU, RESULTS_MENU, type MenuLink } from "./menus";
import { openActualisation } from "./actualisation";

function DropMenu({ label, links, testId }: { label: string; links: MenuLink[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <Menu as="div" className="relative">
      <MenuButton data-testid={testId} className="flex h-8 items-center gap-1 rounded px-2 text-sm text-white hover:bg-white/15">
        {label}
        <ChevronDownIcon width={16} height={16} />
      </MenuButton>
      <MenuItems
        anchor="bottom start"
        className="z-50 mt-1 min-w-56 rounded border border-stone-200 bg-white py-1 text-sm text-stone-900 shadow-lg focus:outline-none"
      >
        {links.map((l) => (
          <MenuItem key={l.key}>
            {l.external === "actualisation" ? (
              <button type="button" className="block w-full px-3 py-1.5 text-left data-[focus]:bg-sillon-50" onClick={openActualisation}>
                {t(l.key)}
              </button>
            ) : (
              <Link to={l.to} className="block px-3 py-1.5 data-[focus]:bg-sillon-50">
                {t(l.key)}
              </Link>
            )}
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

const PHONE_ITEM = "block px-4 py-2.5 data-[focus]:bg-sillon-50";

/**
 * Below the large breakpoint the header's links fold into one menu (issue 10: a phone must not scroll
 * sideways), walked with the arrow keys like the desktop drop-downs.
 */
function FoldedMenu({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const groups: [string, MenuLink[]][] = [
    ["shell.interoperability", INTEROPERABILITY_MENU],
    ["shell.results", RESULTS_MENU],
    ["shell.documentation", DOCUMENTATION_MENU],
  ];
  return (
    <Menu as="div" className="lg:hidden">
      <MenuButton data-testid="folded-menu" className="flex h-10 min-w-10 items-center gap-1 rounded px-2 text-sm text-white hover:bg-white/15">
        {t("shell.menu")}
        <ChevronDownIcon width={16} height={16} />
      </MenuButton>
      <MenuItems
        anchor="bottom start"
        className="z-50 max-h-[80vh] w-72 max-w-[calc(100vw-1rem)] overflow-auto rounded border border-stone-200 bg-white py-1 text-sm text-stone-900 shadow-lg focus:outline-none"
      >
        <MenuItem>
          <Link to="/home/description" className={PHONE_ITEM}>
            {t("shell.description")}
          </Link>
        </MenuItem>
        {groups.map(([key, links]) => (
          <MenuSection key={key} className="border-t border-stone-100">
            <MenuHeading className="px-4 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-stone-600">{t(key)}</MenuHeading>
            {links.map((l) => (
              <MenuItem key={l.key}>
                {l.external === "actualisation" ? (
                  <button type="button" className={`${PHONE_ITEM} w-full text-left`} onClick={openActualisation}>
                    {t(l.key)}
                  </button>
                ) : (
                  <Link to={l.to} className={PHONE_ITEM}>
                    {t(l.key)}
                  </Link>
                )}
              </MenuItem>
            ))}
          </MenuSection>
        ))}
        {isAdmin ? (
          <MenuItem>
            <Link to="/home/admin" className={`${PHONE_ITEM} border-t border-stone-100`}>
              {t("menu.admin")}
            </Link>
          </MenuItem>
        ) : null}
      </MenuItems>
    </Menu>
  );
}

const HEADER_ICON = "flex h-10 w-10 items-center justify-center rounded hover:bg-white/15";

export function Header({
  hasNewPost,
  locales,
  onToggleDrawer,
  isAdmin = false,
}: {
  hasNewPost: boolean;
  locales: Locale[];
  onToggleDrawer: () => void;
  isAdmin?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <header data-testid="app-header" className="flex items-center gap-0.5 bg-sillon-800 px-1 text-white sm:gap-1 sm:px-2" style={{ height: HEADER_HEIGHT }}>
      <button type="button" className={`${HEADER_ICON} text-white`} onClick={onToggleDrawer} aria-label={t("shell.toggle-drawer")} data-testid="drawer-toggle">
        <MenuIcon />
      </button>
      <Link
        to="/home/description/home"
        className={`relative ${HEADER_ICON}`}
        aria-label={hasNewPost ? `${t("shell.home")} (${t("shell.new-post")})` : t("shell.home")}
        data-testid="home-link"
      >
        <HomeIcon />
        {hasNewPost ? <span data-testid="new-post-dot" className="absolute right-1 top-1 h-2 w-2 rounded-full bg-amber-400" /> : null}
      </Link>
      <span className="mr-2 hidden font-semibold tracking-wide sm:inline">Sillon</span>
      <FoldedMenu isAdmin={isAdmin} />
      <nav className="hidden items-center gap-1 lg:flex" aria-label={t("shell.menu")}>
        <NavLink to="/home/description" className="flex h-8 items-center rounded px-2 text-sm hover:bg-white/15" data-testid="menu-description">
          {t("shell.description")}
        </NavLink>
        <DropMenu label={t("shell.interoperability")} links={INTEROPERABILITY_MENU} testId="menu-interoperability" />
        <DropMenu label={t("shell.results")} links={RESULTS_MENU} testId="menu-results" />
        <DropMenu label={t("shell.documentation")} links={DOCUMENTATION_MENU} testId="menu-documentation" />
        {isAdmin ? (
          <NavLink to="/home/admin" className="flex h-8 items-center rounded px-2 text-sm hover:bg-white/15" data-testid="menu-admin">
            {t("menu.admin")}
          </NavLink>
        ) : null}
      </nav>
      <div className="ml-auto flex items-center gap-0.5 sm:gap-1">
        <LocaleSelector locales={locales} compact />
        <Link to="/home/profil" className={HEADER_ICON} aria-label={t("shell.profile")} title={t("shell.profile")} data-testid="profile-link">
          <UserIcon />
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className={HEADER_ICON} aria-label={t("shell.logout")} title={t("shell.logout")} data-testid="logout-button">
            <LogoutIcon />
          </button>
        </Form>
      </div>
    </header>
  );
}
