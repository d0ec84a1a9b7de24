import { foldForSearch } from '../navigation'

/**
 * The command palette's entries (Ctrl/Cmd+K), apart from the dialog that shows them: the
 * screens of the user's navigation, "New …" for what they may create, and records the server
 * finds. Pure, so what matches what is tested without a browser.
 */
export type PaletteCommand = { id: string; kind: 'screen' | 'new' | 'record' | 'more'; title: string; hint?: string; url: string; icon?: string }

/** At most this many screens and "New …" entries each, as the shortcut search shows at most 10. */
export const MAX_PER_SECTION = 10

/** Entries whose title holds every word typed, ignoring case and accents; all of them (up to the section's size) when nothing is typed. */
export function matchCommands(commands: readonly PaletteCommand[], text: string, max: number = MAX_PER_SECTION): PaletteCommand[] {
  const words = foldForSearch(text).split(/\s+/).filter(Boolean)
  if (words.length === 0) return commands.slice(0, max)
  return commands.filter((c) => {
    const title = foldForSearch(`${c.title} ${c.hint ?? ''}`)
    return words.every((w) => title.includes(w))
  }).slice(0, max)
}

/** A record's form address, as the lists link it: `<formPath>/<id>/<label>`. */
export const recordUrl = (formPath: string, id: number, label: string) => `${formPath}/${id}${label ? `/${encodeURIComponent(label)}` : ''}`
