/**
 * The campaign a page was rendered with, named by the browser on every write it posts (decision 0092): the server
 * refuses a write on the selected campaign when the selection moved since (another tab chose another campaign).
 */
export const SHOWN_CAMPAIGN_HEADER = "X-Sillon-Campagne";

/** The campaign id a request names (a positive integer), or null when it names none or something else. */
export function shownCampaignOf(value: string | null): number | null {
  if (value == null || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2147483647 ? id : null;
}
