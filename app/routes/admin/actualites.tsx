import { getInputProps, getTextareaProps } from "@conform-to/react";
import { useMemo } from "react";
import { useTranslation } from "~/use-translation";
import { AdminFormCard, AdminListScreen, useAdminForm, type AdminFormControls } from "~/components/admin-list";
import { type DataTableColumn } from "~/components/data-table";
import { Field, TextInput } from "~/components/field";
import { formatDate } from "~/components/format";
import { DEFAULT_POST_CATEGORY, PostSchema, dayOf } from "~/domain/admin";
import { adminScreens } from "#server/admin/screen.server";
import type { Route } from "./+types/actualites";

export const loader = adminScreens.actualites.loader;
export const action = adminScreens.actualites.action;

export function meta() {
  return [{ title: "Sillon – Administration – Actualités" }];
}

type Post = Route.ComponentProps["loaderData"]["posts"][number];
type PostFormValue = { id?: string; updatedAt?: string; title: string; content: string; postCategory?: string; creationDate?: string };

const excerpt = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export default function AdminActualites({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { posts } = loaderData;
  const categories = useMemo(() => [...new Set([DEFAULT_POST_CATEGORY, ...posts.map((p) => p.postCategory)])].sort(), [posts]);

  const columns = useMemo<DataTableColumn<Post>[]>(
    () => [
      {
        id: "creationDate",
        header: t("admin.posts.date"),
        cell: (p) => formatDate(p.creationDate),
        sortValue: (p) => p.creationDate,
        className: "whitespace-nowrap",
      },
      { id: "title", header: t("admin.posts.title-field"), cell: (p) => p.title, sortValue: (p) => p.title, alwaysVisible: true },
      { id: "postCategory", header: t("admin.posts.category"), cell: (p) => p.postCategory, sortValue: (p) => p.postCategory },
      { id: "content", header: t("admin.posts.content"), cell: (p) => excerpt(p.content), className: "text-stone-600", optional: true },
    ],
    [t],
  );

  return (
    <AdminListScreen
      screen="actualites"
      columns={columns}
      rows={posts}
      renderForm={(post, controls) => <PostForm post={post} categories={categories} controls={controls} />}
    />
  );
}

function PostForm({ post, categories, controls }: { post: Post | null; categories: string[]; controls: AdminFormControls }) {
  const { t } = useTranslation();
  const admin = useAdminForm<PostFormValue, typeof PostSchema>({
    name: "admin-post",
    row: post,
    schema: PostSchema,
    defaultValue: {
      title: post?.title ?? "",
      content: post?.content ?? "",
      postCategory: post?.postCategory ?? DEFAULT_POST_CATEGORY,
      creationDate: post ? dayOf(post.creationDate) : "",
    },
    onCreated: controls.onCreated,
  });
  const { form, fields } = admin;

  return (
    <AdminFormCard
      admin={admin}
      row={post}
      testId="admin-post-form"
      title={post ? t("admin.posts.edit") : t("admin.posts.new")}
      remove={post ? { title: t("admin.posts.delete"), confirm: t("admin.posts.delete-confirm", { title: post.title }) } : undefined}
      onClose={controls.onClose}
    >
      <Field id={fields.title.id} label={t("admin.posts.title-field")} errors={fields.title.errors}>
        <TextInput
          {...getInputProps(fields.title, { type: "text" })}
          autoComplete="off"
          invalid={!!fields.title.errors}
          describedBy={fields.title.errorId}
          autoFocus
        />
      </Field>
      <Field id={fields.content.id} label={t("admin.posts.content")} errors={fields.content.errors}>
        <textarea
          {...getTextareaProps(fields.content)}
          className="field-input"
          rows={8}
          aria-invalid={fields.content.errors ? true : undefined}
          aria-describedby={fields.content.errors ? fields.content.errorId : undefined}
        />
      </Field>
      <div className="grid gap-x-3 sm:grid-cols-2">
        <Field id={fields.postCategory.id} label={t("admin.posts.category")} errors={fields.postCategory.errors}>
          <TextInput
            {...getInputProps(fields.postCategory, { type: "text" })}
            list={`${form.id}-categories`}
            autoComplete="off"
            invalid={!!fields.postCategory.errors}
            describedBy={fields.postCategory.errorId}
          />
          <datalist id={`${form.id}-categories`}>
            {categories.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </Field>
        <Field
          id={fields.creationDate.id}
          label={t("admin.posts.date")}
          errors={fields.creationDate.errors}
          help={post ? undefined : t("admin.posts.date-help")}
        >
          <TextInput
            {...getInputProps(fields.creationDate, { type: "date" })}
            invalid={!!fields.creationDate.errors}
            describedBy={fields.creationDate.errorId}
          />
        </Field>
      </div>
    </AdminFormCard>
  );
}
