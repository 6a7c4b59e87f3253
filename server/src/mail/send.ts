import { connect } from "node:net"

/** What {@link sendMail} sends: a plain-text message. */
export interface OutgoingMail {
  readonly host?: string
  readonly port: number
  readonly from: string
  readonly to: string
  readonly subject: string
  readonly text: string
}

/**
 * Sends one plain-text message over SMTP (no TLS, no auth): enough for the local sink, e.g. for the embedded
 * wallet's one-time codes. Rejects with the server's reply when a step is refused.
 */
export const sendMail = (mail: OutgoingMail): Promise<void> =>
  new Promise((resolve, reject) => {
    const socket = connect(mail.port, mail.host ?? "127.0.0.1")
    const body = [
      `From: <${mail.from}>`,
      `To: <${mail.to}>`,
      `Subject: ${mail.subject}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      // SMTP dot-stuffing: a line starting with "." gets a second one.
      ...mail.text.split(/\r?\n/).map((line) => (line.startsWith(".") ? `.${line}` : line)),
      "."
    ].join("\r\n")
    // Each command is sent once the previous reply arrives; the expected code comes first.
    const steps: ReadonlyArray<readonly [number, string | undefined]> = [
      [220, "EHLO localhost"],
      [250, `MAIL FROM:<${mail.from}>`],
      [250, `RCPT TO:<${mail.to}>`],
      [250, "DATA"],
      [354, body],
      [250, "QUIT"],
      [221, undefined]
    ]
    let step = 0
    let buffer = ""
    socket.setEncoding("utf8")
    socket.on("error", reject)
    socket.on("data", (chunk: string) => {
      buffer += chunk
      // A reply is complete at a line "NNN text" (a space after the code, not a dash).
      for (;;) {
        const match = /^(\d{3}) .*\r?\n/m.exec(buffer)
        if (match === null) return
        buffer = buffer.slice(match.index + match[0].length)
        const [expected, next] = steps[step] ?? [221, undefined]
        if (Number(match[1]) !== expected) {
          socket.destroy()
          reject(new Error(`SMTP server answered "${match[0].trim()}" where ${expected} was expected`))
          return
        }
        step++
        if (next === undefined) {
          socket.end()
          resolve()
          return
        }
        socket.write(`${next}\r\n`)
      }
    })
  })
