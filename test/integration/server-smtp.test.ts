/**
 * The server command's mail client (server/src/mail/smtp.ts) against real SMTP servers (smtp-server): it logs in and
 * delivers; it refuses to send in the clear when STARTTLS is required and the server does not offer it; with TLS
 * from the start it checks the server's certificate.
 */
import { Redacted } from "effect"
import { SMTPServer, type SMTPServerOptions } from "smtp-server"
import { afterEach, describe, expect, it } from "vitest"
import { smtpMailer } from "../../server/src/mail/smtp"

interface Received {
  readonly logins: Array<{ readonly user: string; readonly password: string }>
  readonly mails: Array<{ readonly to: ReadonlyArray<string>; readonly data: string }>
}

const servers: Array<SMTPServer> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

/** A real SMTP server on a loopback port, keeping what it is given. */
const startSmtp = async (options: SMTPServerOptions): Promise<{ readonly port: number; readonly received: Received }> => {
  const received: Received = { logins: [], mails: [] }
  const server = new SMTPServer({
    logger: false,
    ...options,
    onAuth(auth, _session, callback) {
      received.logins.push({ user: auth.username ?? "", password: auth.password ?? "" })
      callback(null, { user: auth.username })
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        received.mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data: Buffer.concat(chunks).toString("utf8") })
        callback()
      })
    }
  })
  servers.push(server)
  server.on("error", () => undefined)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address = server.server.address()
  return { port: typeof address === "object" && address !== null ? address.port : 0, received }
}

const mail = { to: "ann@example.test", subject: "Your code", text: "Your code is 123456." }

describe("the server's SMTP client", () => {
  it("logs in with the user and password and delivers the mail from the configured sender", async () => {
    const { port, received } = await startSmtp({ disabledCommands: ["STARTTLS"], allowInsecureAuth: true, authOptional: false })
    const mailer = smtpMailer({ host: "127.0.0.1", port, security: "none", user: "wallet", password: Redacted.make("pw-5520"), from: "wallet@example.test" })
    try {
      await mailer.send(mail)
    } finally {
      mailer.close()
    }
    expect(received.logins).toEqual([{ user: "wallet", password: "pw-5520" }])
    expect(received.mails).toHaveLength(1)
    expect(received.mails[0]?.to).toEqual(["ann@example.test"])
    expect(received.mails[0]?.data).toMatch(/^From: wallet@example\.test\r?$/m)
    expect(received.mails[0]?.data).toContain("Your code is 123456.")
  })

  it("with starttls, sends nothing to a server that does not offer STARTTLS", async () => {
    const { port, received } = await startSmtp({ disabledCommands: ["STARTTLS", "AUTH"], authOptional: true })
    const mailer = smtpMailer({ host: "127.0.0.1", port, security: "starttls", from: "wallet@example.test" })
    try {
      await expect(mailer.send(mail)).rejects.toThrow(/STARTTLS/)
    } finally {
      mailer.close()
    }
    expect(received.mails).toEqual([])
  })

  it("with tls, refuses a server whose certificate it cannot verify (smtp-server's own self-signed one)", async () => {
    const { port, received } = await startSmtp({ secure: true, disabledCommands: ["AUTH"], authOptional: true })
    const mailer = smtpMailer({ host: "127.0.0.1", port, security: "tls", from: "wallet@example.test" })
    try {
      await expect(mailer.send(mail)).rejects.toThrow(/certificate/i)
    } finally {
      mailer.close()
    }
    expect(received.mails).toEqual([])
  })
})
