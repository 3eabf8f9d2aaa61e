import { useTranslation } from "~/use-translation";

/** Crop rotation by driving mode (spec 3 §2.7): only a heading, no content (C-PROTO-09). */
export default function RotationModeConduite() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-5xl" data-testid="screen-rotation-mode-conduite">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.rotation_mode_conduite")}</h1>
    </div>
  );
}
