import { useTranslation } from "~/use-translation";
import { layoutShouldRevalidate } from "~/layout-revalidation";
import { data, isRouteErrorResponse, Outlet, useRouteError } from "react-router";
import { TableAccessProvider } from "~/components/data-table";
import { RouteErrorPage } from "~/components/shell/route-error";
import { useHomeData } from "~/routes/home";
import { screenLoader } from "#server/http/route.server";

export const CAMPAIGN_REQUIRED_STATUS = 412;
export const shouldRevalidate = layoutShouldRevalidate;

/**
 * Every screen of a campaign (description, field, prices, protocols) needs a selected campaign (spec 1 §2).
 * Without one, the screen gives way to the start instruction (the context bar then leaves it out: it shows once),
 * under the context bar where the choice is made; * the address stays, so the screen opens as soon as a campaign is chosen.
 */
export const loader = screenLoader(async ({ view }) => {
  if (!(await view()).selected.idCampagne) throw data({ campaignRequired: true }, { status: CAMPAIGN_REQUIRED_STATUS });
  return null;
});

/** Description screens are read-only without canWriteDescriptif (locked campaign, or no write right). */
export default function CampaignRequired() {
  const { view } = useHomeData();
  return (
    <TableAccessProvider readOnly={!view.abilities.canWriteDescriptif}>
      <Outlet />
    </TableAccessProvider>
  );
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === CAMPAIGN_REQUIRED_STATUS) {
    return (
      <section className="mx-auto mt-8 max-w-xl card" data-testid="campaign-required">
        <p className="text-base" data-testid="start-instruction">
          {t("context.start-instruction")}
        </p>
      </section>
    );
  }
  return <RouteErrorPage />;
}
