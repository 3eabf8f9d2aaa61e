import { useEffect, useState } from "react";
import { layoutShouldRevalidate } from "~/layout-revalidation";
import { useTranslation } from "~/use-translation";
import { Outlet, useMatches, useRouteLoaderData } from "react-router";
import { FormControllerProvider } from "~/components/form-controller";
import { ContextBar } from "~/components/shell/context-bar";
import { Drawer } from "~/components/shell/drawer";
import { Footer } from "~/components/shell/footer";
import { Header } from "~/components/shell/header";
import { SentAwayNotice } from "~/components/shell/sent-away-notice";
import { useShownCampaign } from "~/components/shell/shown-campaign";
import { useRootData } from "~/root";
import { env } from "#server/env.server";
import { typesExploitation } from "#server/exploitation/service.server";
import { userMiddleware } from "#server/http/context.server";
import { noStoreMiddleware } from "#server/http/no-store.server";
import { screenLoader } from "#server/http/route.server";
import type { Route } from "./+types/home";

// The answers of a signed-in user are never stored (no-store first: it wraps every answer under /home).
export const middleware = [noStoreMiddleware, userMiddleware];
export const shouldRevalidate = layoutShouldRevalidate;

export const loader = screenLoader(async ({ db, user, view }) => ({
  user,
  view: await view(),
  types: await typesExploitation(db),
  actualisationUrl: env().ACTUALISATION_URL,
}));

export type HomeData = Awaited<ReturnType<typeof loader>>;

/** The signed-in user, their context and abilities, for any screen under /home. */
export function useHomeData(): HomeData {
  return useRouteLoaderData("home") as HomeData;
}

const LARGE_SCREEN = "(min-width: 1024px)";

export default function HomeLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  useShownCampaign(loaderData.view.selected.idCampagne);
  const matches = useMatches();
  const hideNavbar = matches.some((m) => (m.handle as { hideNavbar?: boolean } | undefined)?.hideNavbar);
  const onDescription = matches.some((m) => m.id === "description");
  // A screen that needs a campaign says how to start in its own place (campaign-required.tsx).
  const onCampaignScreen = matches.some((m) => m.id === "routes/campaign-required");
  // null until the browser tells the screen size: the drawer is then laid out by CSS alone, so that a phone
  // never gets the large screens' inline drawer on its first paint.
  const [large, setLarge] = useState<boolean | null>(null);
  const [drawerWanted, setDrawerWanted] = useState(true);

  useEffect(() => {
    const mq = window.matchMedia(LARGE_SCREEN);
    const update = () => {
      setLarge(mq.matches);
      setDrawerWanted(mq.matches);
    };
    update();
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, []);
  useEffect(() => {
    document.documentElement.dataset.actualisationUrl = loaderData.actualisationUrl;
  }, [loaderData.actualisationUrl]);

  // Large screens: the drawer belongs to the description routes. Small screens: it opens over any route.
  const drawerOpen = large === false ? drawerWanted : onDescription && drawerWanted;

  return (
    <FormControllerProvider>
      <div className="flex min-h-full flex-col">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2">
          {t("shell.skip-to-content")}
        </a>
        <Header
          hasNewPost={loaderData.view.hasNewPost}
          locales={root?.locales ?? ["fr", "en"]}
          onToggleDrawer={() => setDrawerWanted((o) => !o)}
          isAdmin={loaderData.user.admin}
        />
        {!hideNavbar ? <ContextBar view={loaderData.view} types={loaderData.types} instruction={!onCampaignScreen} /> : null}
        <div className="flex flex-1">
          <Drawer open={drawerOpen} modal={large === false} largeOnly={large === null} onNavigate={() => setDrawerWanted(false)} />
          <main id="main" className="min-w-0 flex-1 p-4">
            <SentAwayNotice />
            <Outlet />
          </main>
        </div>
        <Footer appEnv={root?.appEnv ?? null} />
      </div>
    </FormControllerProvider>
  );
}
