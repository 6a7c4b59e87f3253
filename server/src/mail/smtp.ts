/**
 * The wallet server's mails in production: SMTP through nodemailer (MIT-0), with TLS from the start or a required
 * STARTTLS upgrade, and a login when the server asks for one. The local stack keeps `./send.ts`, enough for its sink.
 */
import { createTransport } from "nodemailer"
import { Redacted } from "effect"

/** How to reach the SMTP server. */
export interface SmtpSettings {
  readonly host: string
  readonly port: number
  /** `tls`: TLS from the start (usually port 465); `starttls`: upgrade, and refuse to send without; `none`: plain. */
  readonly security: "tls" | "starttls" | "none"
  readonly user?: string | undefined
  readonly password?: Redacted.Redacted<string> | undefined
  /** The sender of every mail. */
  readonly from: string
}

/** A plain-text mail. */
export interface PlainMail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** Sends mails through one SMTP server; `close` ends its idle connections. */
export interface SmtpMailer {
  readonly send: (mail: PlainMail) => Promise<void>
  readonly close: () => void
}

// Each step of a send is bounded: a mail server that stops answering fails the send instead of holding it.
const CONNECT_TIMEOUT_MS = 10_000
const SOCKET_TIMEOUT_MS = 30_000

/** A mailer for `settings`; nothing is sent (nor any connection opened) until the first `send`. */
export const smtpMailer = (settings: SmtpSettings): SmtpMailer => {
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.security === "tls",
    requireTLS: settings.security === "starttls",
    ignoreTLS: settings.security === "none",
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    ...(settings.user === undefined || settings.password === undefined
      ? {}
      : { auth: { user: settings.user, pass: Redacted.value(settings.password) } })
  })
  return {
    send: async (mail) => {
      await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text })
    },
    close: () => transport.close()
  }
}
