import { hash, verify } from '@node-rs/argon2'

// argon2id with the library's defaults (m=19456 KiB, t=2, p=1): OWASP's minimum, ~17 ms here.
export const hashPassword = (password: string) => hash(password)

// Verifying against a fixed hash when the account does not exist keeps the answer time
// the same, so timing does not reveal which e-mails have accounts.
let decoy: Promise<string> | undefined

export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (!stored) {
    decoy ??= hash('decoy-password-for-unknown-accounts')
    await verify(await decoy, password).catch(() => false)
    return false
  }
  return verify(stored, password).catch(() => false)
}
