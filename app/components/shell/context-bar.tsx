import { Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from "@headlessui/react";
import { useCallback, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useFetcher } from "react-router";
import type { ContextView } from "~/domain/contracts/contexte";
import { AssolementDialog } from "../assolement-dialog";
import { campagneLabel } from "../campagne-label";
import { NewCampagneDialog, NewDossierDialog, NewExploitationDialog, UnlockCampagneDialog } from "../context-dialogs";
import { Tooltip } from "../tooltip";
import { CalendarPlusIcon, ChevronDownIcon, CogIcon, FarmPlusIcon, FolderPlusIcon, LockIcon, PieIcon, UnlockIcon } from "../icons";

type Option = { id: number; label: string; hint?: string };

/** A selector's name is its label and then its value ("Campagne 2025"): the words seen are the words spoken (WCAG 2.5.3). */
function SelectorLabel({ label }: { label: string }) {
  return <Label className="block text-[11px] font-medium uppercase tracking-wide text-stone-600">{label}</Label>;
}

function Selector({
  label,
  testId,
  options,
  value,
  onChange,
  disabled,
}: {
  label: string;
  testId: string;
  options: Option[];
  value: number | null;
  onChange: (id: number | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const current = options.find((o) => o.id === value);
  return (
    <Listbox value={value} onChange={onChange} disabled={disabled || !options.length}>
      <div className="relative min-w-44 flex-1 sm:flex-none">
        <SelectorLabel label={label} />
        <ListboxButton
          data-testid={testId}
          className="flex w-full items-center justify-between gap-2 rounded border border-stone-300 bg-white px-2 py-1 text-left text-sm max-sm:min-h-10 disabled:bg-stone-100 disabled:text-stone-400"
        >
          <span className="truncate">{current?.label ?? (options.length ? t("context.choose") : t("context.none"))}</span>
          <ChevronDownIcon width={16} height={16} />
        </ListboxButton>
        <ListboxOptions
          anchor="bottom start"
          className="z-50 mt-1 max-h-72 w-[var(--button-width)] min-w-56 max-w-[calc(100vw-1rem)] overflow-auto rounded border border-stone-200 bg-white py-1 text-sm shadow-lg focus:outline-none"
        >
          {options.map((o) => (
            <ListboxOption key={o.id} value={o.id} className="cursor-pointer px-3 py-1.5 max-sm:py-2.5 data-[focus]:bg-sillon-50 data-[selected]:font-semibold">
              {o.label}
              {o.hint ? <span className="ml-2 text-xs text-stone-500">{o.hint}</span> : null}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </div>
    </Listbox>
  );
}

function MultiSelector({
  label,
  testId,
  options,
  value,
  onChange,
}: {
  label: string;
  testId: string;
  options: Option[];
  value: number[];
  onChange: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const chosen = options.filter((o) => value.includes(o.id));
  const text =
    chosen.length === 0
      ? options.length
        ? t("context.choose")
        : t("context.none")
      : chosen.length === 1
        ? chosen[0].label
        : t("context.farms-selected", { count: chosen.length });
  return (
    <Listbox value={value} onChange={onChange} multiple disabled={!options.length}>
      <div className="relative min-w-48 flex-1 sm:flex-none">
        <SelectorLabel label={label} />
        <ListboxButton
          data-testid={testId}
          className="flex w-full items-center justify-between gap-2 rounded border border-stone-300 bg-white px-2 py-1 text-left text-sm max-sm:min-h-10 disabled:bg-stone-100 disabled:text-stone-400"
        >
          <span className="truncate">{text}</span>
          <ChevronDownIcon width={16} height={16} />
        </ListboxButton>
        <ListboxOptions
          anchor="bottom start"
          className="z-50 mt-1 max-h-72 min-w-56 max-w-[calc(100vw-1rem)] overflow-auto rounded border border-stone-200 bg-white py-1 text-sm shadow-lg focus:outline-none"
        >
          {options.map((o) => (
            <ListboxOption key={o.id} value={o.id} className="group flex cursor-pointer items-center gap-2 px-3 py-1.5 max-sm:py-2.5 data-[focus]:bg-sillon-50">
              <span className="inline-block h-4 w-4 rounded border border-stone-400 text-center text-[11px] leading-4 group-data-[selected]:bg-sillon-700 group-data-[selected]:text-white">
                ✓
              </span>
              {o.label}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </div>
    </Listbox>
  );
}

function IconLink({ to, label, testId, enabled, children }: { to: string; label: string; testId: string; enabled: boolean; children: ReactNode }) {
  return (
    <Tooltip text={label}>
      {enabled ? (
        <Link to={to} className="btn-icon" aria-label={label} data-testid={testId}>
          {children}
        </Link>
      ) : (
        <button type="button" className="btn-icon" aria-label={label} data-testid={testId} disabled>
          {children}
        </button>
      )}
    </Tooltip>
  );
}

/** The context bar (spec 1 §2, §4): network › folder › farm(s) › campaign, each choice clearing the ones below. */
function IconButton({
  label,
  testId,
  onClick,
  disabled,
  children,
}: {
  label: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip text={label}>
      <button type="button" className="btn-icon" aria-label={label} data-testid={testId} onClick={onClick} disabled={disabled}>
        {children}
      </button>
    </Tooltip>
  );
}

type DialogName = "dossier" | "exploitation" | "campagne" | "unlock" | "assolement" | null;

/**
 * `instruction`: whether the bar says how to start when no campaign is chosen; a screen that needs a campaign says it
 * in its own place instead, so that the instruction shows once.
 */
export function ContextBar({
  view,
  types,
  extraActions,
  instruction = true,
}: {
  view: ContextView;
  types: { id: number; libelle: string; libelleEn: string | null }[];
  extraActions?: ReactNode;
  instruction?: boolean;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<DialogName>(null);
  const close = useCallback(() => setDialog(null), []);
  const fetcher = useFetcher();
  const pending = fetcher.json as { intent?: string; id?: number | null; ids?: number[] } | undefined;
  const selected = { ...view.selected };
  // Show the choice at once while the server records it.
  if (pending?.intent === "oad") Object.assign(selected, { idOad: pending.id ?? null, idDossier: null, exploitations: [], idCampagne: null });
  if (pending?.intent === "dossier") Object.assign(selected, { idDossier: pending.id ?? null, exploitations: [], idCampagne: null });
  if (pending?.intent === "exploitations") Object.assign(selected, { exploitations: pending.ids ?? [], idCampagne: null });
  if (pending?.intent === "campagne") Object.assign(selected, { idCampagne: pending.id ?? null });

  const choose = (payload: Record<string, unknown>) =>
    fetcher.submit(payload as never, { method: "post", action: "/home/contexte", encType: "application/json" });
  const farmNames = new Map(view.exploitations.map((e) => [e.id, e.libelle]));
  const oad = view.oads.find((o) => o.id === selected.idOad);
  const a = view.abilities;
  const farmForNewCampaign = view.campagne?.idExploitation ?? view.selected.exploitations[0] ?? null;

  return (
    <div data-testid="context-bar" className="border-b border-stone-200 bg-white px-3 py-2">
      <div className="flex flex-wrap items-end gap-3">
        <Selector
          label={t("context.network")}
          testId="select-oad"
          value={selected.idOad}
          onChange={(id) => choose({ intent: "oad", id })}
          options={view.oads.map((o) => ({ id: o.id, label: o.libelle }))}
        />
        <div className="flex items-end gap-1 max-sm:w-full">
          <Selector
            label={t("context.folder")}
            testId="select-dossier"
            value={selected.idDossier}
            onChange={(id) => choose({ intent: "dossier", id })}
            options={view.dossiers.map((d) => ({ id: d.id, label: d.libelle }))}
            disabled={!selected.idOad}
          />
          <IconButton label={t("dossier.new")} testId="add-folder" onClick={() => setDialog("dossier")}>
            <FolderPlusIcon />
          </IconButton>
          <IconLink
            to="/home/description/parametre_dossier"
            label={t("screen.parametre_dossier")}
            testId="open-folder-settings"
            enabled={!!selected.idDossier && a.isDoAnimation}
          >
            <CogIcon />
          </IconLink>
        </div>
        <div className="flex items-end gap-1 max-sm:w-full">
          <MultiSelector
            label={t("context.farms")}
            testId="select-exploitations"
            value={selected.exploitations}
            onChange={(ids) => choose({ intent: "exploitations", ids })}
            options={view.exploitations.map((e) => ({ id: e.id, label: e.libelle }))}
          />
          <IconButton
            label={t("exploitation.new")}
            testId="add-farm"
            onClick={() => setDialog("exploitation")}
            disabled={!view.selected.idDossier || !a.canCreateExploitation}
          >
            <FarmPlusIcon />
          </IconButton>
          <IconLink
            to="/home/description/parametre_exploitation"
            label={t("screen.parametre_exploitation")}
            testId="open-farm-settings"
            enabled={selected.exploitations.length > 0 && a.canAccessGestionExploitation}
          >
            <CogIcon />
          </IconLink>
        </div>
        <div className="flex items-end gap-1 max-sm:w-full">
          <Selector
            label={t("context.campaign")}
            testId="select-campagne"
            value={selected.idCampagne}
            onChange={(id) => choose({ intent: "campagne", id })}
            options={view.campagnes.map((c) => ({
              id: c.id,
              label: campagneLabel(c),
              hint: [c.simulation ? t("context.simulation") : "", selected.exploitations.length > 1 ? (farmNames.get(c.idExploitation) ?? "") : ""]
                .filter(Boolean)
                .join(" · "),
            }))}
          />
          {view.lock?.locked ? (
            <span className="mb-1 text-amber-700" title={t("context.locked")} aria-label={t("context.locked")} data-testid="campaign-locked">
              <LockIcon />
            </span>
          ) : null}
          {a.isDoEcritureExEcriture ? (
            <>
              <IconButton
                label={t("campagne.unlock")}
                testId="unlock-campaign"
                onClick={() => setDialog("unlock")}
                disabled={!view.lock?.locked || !view.lock.unlockable}
              >
                <UnlockIcon />
              </IconButton>
              <IconButton label={t("campagne.new")} testId="add-campaign" onClick={() => setDialog("campagne")} disabled={!farmForNewCampaign}>
                <CalendarPlusIcon />
              </IconButton>
            </>
          ) : null}
          {/* Every user who sees the campaign may view its crop areas (A-CTX-29). */}
          <IconButton label={t("assolement.open")} testId="open-assolement" onClick={() => setDialog("assolement")} disabled={!view.campagne}>
            <PieIcon />
          </IconButton>
        </div>
        {extraActions}
      </div>
      {instruction && !view.selected.idCampagne ? (
        <p data-testid="start-instruction" className="mt-2 text-sm text-stone-600">
          {t("context.start-instruction")}
        </p>
      ) : null}
      {oad?.international && view.dossiers.length === 0 && oad.emailAcces ? (
        <p data-testid="international-access" className="mt-2 text-sm text-stone-700">
          {t("context.international-access", { email: oad.emailAcces })}{" "}
          <a className="text-sillon-700 underline" href={`mailto:${oad.emailAcces}`}>
            {t("context.request-access")}
          </a>
        </p>
      ) : null}
      <NewDossierDialog open={dialog === "dossier"} onClose={close} oads={view.oads} idOad={view.selected.idOad} />
      <NewExploitationDialog open={dialog === "exploitation"} onClose={close} types={types} />
      {farmForNewCampaign ? (
        <NewCampagneDialog open={dialog === "campagne"} onClose={close} campagnes={view.campagnes} idExploitation={farmForNewCampaign} />
      ) : null}
      <UnlockCampagneDialog open={dialog === "unlock"} onClose={close} published={!!view.campagne?.indicateurPublie} />
      {view.campagne ? <AssolementDialog open={dialog === "assolement"} onClose={close} campagne={campagneLabel(view.campagne)} /> : null}
    </div>
  );
}
