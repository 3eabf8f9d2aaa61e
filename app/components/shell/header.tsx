import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { useTranslation } from "react-i18next";
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
      <MenuItems anchor="bottom start" className="z-50 mt-1 min-w-56 rounded border border-stone-200 bg-white py-1 text-sm text-stone-900 shadow-lg focus:outline-none">
        {links.map((l) => (
          <MenuItem key={l.key}>
            {l.external === "actualisation" ? (
              <button type="button" className="block w-full px-3 py-1.5 text-left data-[focus]:bg-sillon-50" onClick={openActualisation}>{t(l.key)}</button>
            ) : (
              <Link to={l.to} className="block px-3 py-1.5 data-[focus]:bg-sillon-50">{t(l.key)}</Link>
            )}
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

export function Header({ hasNewPost, locales, onToggleDrawer, isAdmin = false }: { hasNewPost: boolean; locales: Locale[]; onToggleDrawer: () => void; isAdmin?: boolean }) {
  const { t } = useTranslation();
  return (
    <header data-testid="app-header" className="flex items-center gap-1 bg-sillon-800 px-2 text-white" style={{ height: HEADER_HEIGHT }}>
      <button type="button" className="btn-icon text-white hover:bg-white/15" onClick={onToggleDrawer} aria-label={t("shell.toggle-drawer")} data-testid="drawer-toggle">
        <MenuIcon />
      </button>
      <Link to="/home/description/home" className="relative flex h-8 w-8 items-center justify-center rounded hover:bg-white/15" aria-label={hasNewPost ? `${t("shell.home")} (${t("shell.new-post")})` : t("shell.home")} data-testid="home-link">
        <HomeIcon />
        {hasNewPost ? <span data-testid="new-post-dot" className="absolute right-1 top-1 h-2 w-2 rounded-full bg-amber-400" /> : null}
      </Link>
      <span className="mr-2 hidden font-semibold tracking-wide sm:inline">Sillon</span>
      <nav className="flex items-center gap-1" aria-label={t("shell.menu")}>
        <NavLink to="/home/description" className="flex h-8 items-center rounded px-2 text-sm hover:bg-white/15" data-testid="menu-description">{t("shell.description")}</NavLink>
        <DropMenu label={t("shell.interoperability")} links={INTEROPERABILITY_MENU} testId="menu-interoperability" />
        <DropMenu label={t("shell.results")} links={RESULTS_MENU} testId="menu-results" />
        <DropMenu label={t("shell.documentation")} links={DOCUMENTATION_MENU} testId="menu-documentation" />
        {isAdmin ? <NavLink to="/home/admin" className="flex h-8 items-center rounded px-2 text-sm hover:bg-white/15" data-testid="menu-admin">{t("menu.admin")}</NavLink> : null}
      </nav>
      <div className="ml-auto flex items-center gap-1">
        <LocaleSelector locales={locales} compact />
        <Link to="/home/profil" className="flex h-8 w-8 items-center justify-center rounded hover:bg-white/15" aria-label={t("shell.profile")} title={t("shell.profile")} data-testid="profile-link">
          <UserIcon />
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className="flex h-8 w-8 items-center justify-center rounded hover:bg-white/15" aria-label={t("shell.logout")} title={t("shell.logout")} data-testid="logout-button">
            <LogoutIcon />
          </button>
        </Form>
      </div>
    </header>
  );
}
