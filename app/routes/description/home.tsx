import { useTranslation } from "~/use-translation";
import { NewsCarousel } from "~/components/news-carousel";
import { readNews } from "#server/contexte/service.server";
import { screenLoader } from "#server/http/route.server";
import type { Route } from "./+types/home";

export const loader = screenLoader(async ({ db, user }) => {
  return { posts: await readNews(db, user) };
});

export default function HomeDescriptif({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl space-y-6" data-testid="home-page">
      <section>
        <h1 className="text-2xl font-semibold text-sillon-800">{t("home.title")}</h1>
        <p className="mt-2 text-stone-800">{t("home.description")}</p>
      </section>
      <section>
        <h2 className="mb-2 text-lg font-semibold">{t("home.news")}</h2>
        <NewsCarousel posts={loaderData.posts} />
      </section>
    </div>
  );
}
