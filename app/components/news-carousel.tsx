import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { formatDate } from "./format";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons";

export type Post = { id: number; title: string; content: string; creationDate: string; postCategory: string; image: string | null };

export { formatDate } from "./format";

/** The home page's news posts, newest first, one at a time, with previous/next and dots (keyboard usable). */
export function NewsCarousel({ posts }: { posts: Post[] }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  if (!posts.length) return <p className="text-sm text-stone-600">{t("home.no-news")}</p>;
  const post = posts[index];
  const go = (i: number) => setIndex((i + posts.length) % posts.length);
  return (
    <section aria-roledescription="carousel" aria-label={t("home.news")} data-testid="news-carousel" className="card">
      <div className="flex items-start gap-2">
        <button type="button" className="btn-icon" onClick={() => go(index - 1)} aria-label={t("home.previous")} data-testid="news-previous">
          <ChevronLeftIcon />
        </button>
        <article aria-roledescription="slide" aria-label={`${index + 1} / ${posts.length}`} className="min-h-24 flex-1" data-testid="news-slide">
          <p className="text-xs text-stone-500">{formatDate(post.creationDate)}</p>
          <h3 className="text-base font-semibold">{post.title}</h3>
          <p className="mt-1 whitespace-pre-line text-sm text-stone-800">{post.content}</p>
        </article>
        <button type="button" className="btn-icon" onClick={() => go(index + 1)} aria-label={t("home.next")} data-testid="news-next">
          <ChevronRightIcon />
        </button>
      </div>
      <div className="mt-2 flex justify-center gap-2">
        {posts.map((p, i) => (
          <button
            key={p.id}
            type="button"
            onClick={() => go(i)}
            aria-label={t("home.go-to", { n: i + 1 })}
            aria-current={i === index}
            className={`h-2.5 w-2.5 rounded-full ${i === index ? "bg-sillon-700" : "bg-stone-300"}`}
          />
        ))}
      </div>
    </section>
  );
}
