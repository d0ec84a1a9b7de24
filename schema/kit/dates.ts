/**
 * Days as the registry writes them, `YYYY-MM-DD` — one definition for the browser and the
 * server. A form's "today" is the user's day (local time); the server dates postings and
 * numbers in UTC, the day its clock and the database agree on.
 */
const pad = (n: number) => String(n).padStart(2, '0')

/**
 * Today (or the day of `now`) as `YYYY-MM-DD` in the calendar of whoever judges: the browser's
 * day for the form and a day picked in its calendar, the server's for a request.
 */
export function todayIso(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** The UTC day of an instant (a stored timestamp the driver gives as a Date, or an ISO text); now by default. */
export function utcDay(value: Date | string = new Date()): string {
  return (value instanceof Date ? value.toISOString() : String(value)).slice(0, 10)
}
