import { withinCampaign } from "./validation";

const PARIS_DAY = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" });

/** Today in Paris, yyyy-mm-dd. */
export const todayInParis = (now = new Date()) => PARIS_DAY.format(now);

/**
 * The date a new intervention of a campaign starts with (issue 29, decision 0115): today when today lies in the
 * campaign's dates (campaignDateWindow), else today's day and month in the harvest year (the year the grid's short
 * dates "15/03" take too), 29 February becoming the 28th in a common year. Never a date the save would refuse
 * (warning.date-campaign).
 */
export function defaultCampaignDate(anneeRecolte: number, today: string = todayInParis()): string {
  if (withinCampaign(today, anneeRecolte)) return today;
  const monthDay = /^\d{4}-(\d{2})-(\d{2})/.exec(today);
  let [month, day] = monthDay ? [monthDay[1], monthDay[2]] : ["01", "01"];
  const leap = (anneeRecolte % 4 === 0 && anneeRecolte % 100 !== 0) || anneeRecolte % 400 === 0;
  if (month === "02" && day === "29" && !leap) day = "28";
  return `${String(anneeRecolte).padStart(4, "0")}-${month}-${day}`;
}
