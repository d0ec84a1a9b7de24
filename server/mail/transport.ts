import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'

/** A file sent with a message (its bytes as the outbox keeps them). */
export type OutgoingAttachment = { filename: string; contentType: string; content: Buffer }

/** One outbox message as a transport sends it, with its files in their order. */
export type OutgoingMail = { id: number; to: string; subject: string; text: string; html: string | null; attachments?: readonly OutgoingAttachment[] }

/** Delivers one message or throws (the sender records the error and tries again later). */
export interface MailTransport {
  readonly kind: 'smtp' | 'files'
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

/**
 * The message nodemailer composes: the same headers and body whichever way it goes; files as
 * base64 MIME parts of their type, named (`Content-Disposition: attachment; filename=…`).
 */
const messageOf = (from: string, mail: OutgoingMail) => ({
  from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  ...(mail.html ? { html: mail.html } : {}),
  ...(mail.attachments?.length
    ? { attachments: mail.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType, contentDisposition: 'attachment' as const })) }
    : {}),
})

/** SMTP through nodemailer, from a URL (`smtp://user:pass@host:587`, `smtps://…:465`). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url)
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail(messageOf(from, mail))
    },
    close: () => transporter.close(),
  }
}

/**
 * Without SMTP (demo, development) every message is written to `<dir>/<outbox id>.eml` as the
 * RFC 822 text an SMTP server would have received (CRLF lines), which any mail client opens.
 * Written to a temporary name and renamed, so a reader never finds half a message.
 */
export function fileTransport(dir: string, from: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
  return {
    kind: 'files',
    async send(mail) {
      const info = await composer.sendMail(messageOf(from, mail))
      await mkdir(dir, { recursive: true })
      const file = join(dir, `${mail.id}.eml`)
      await writeFile(`${file}.tmp`, info.message as Buffer)
      await rename(`${file}.tmp`, file)
    },
    close: () => composer.close(),
  }
}

/** SMTP when `SMTP_URL` is set, else files under `DATA_DIR/mail/`. */
export function mailTransport(options: { smtpUrl?: string; from: string; mailDir: string }): MailTransport {
  return options.smtpUrl ? smtpTransport(options.smtpUrl, options.from) : fileTransport(options.mailDir, options.from)
}
