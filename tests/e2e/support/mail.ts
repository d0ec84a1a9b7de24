import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'

/** The mails the outbox has written to `DATA_DIR/mail/` (no SMTP_URL), as text. */
function mailsIn(dataDir: string): string[] {
  const dir = join(dataDir, 'mail')
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
  } catch {
    return []
  }
}

/** What `read` finds in the first mail it finds anything in, once the sender has written it (waits up to 20 s). */
export async function fromMail<T>(dataDir: string, read: (mail: string) => T | undefined): Promise<T> {
  let found: T | undefined
  await expect
    .poll(
      () => {
        for (const mail of mailsIn(dataDir)) {
          found = read(mail)
          if (found !== undefined) return true
        }
        return false
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  return found!
}
