import { randomUUID } from "node:crypto"
import { EventEmitter } from "node:events"
import { Effect, Layer, Schema } from "effect"
import { type AddressObject, simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { startHttpApp } from "../../server/src/http/app"
import { escapeHtml, htmlDocument } from "../../server/src/lib/html"
import type { Started } from "../../server/src/lib/Started"
import { type InboxMessage, InboxQuery, InboxResponse } from "./schema"

/** What the mail part exposes: the SMTP sink and the inbox (page at `inboxUrl`, JSON at `{inboxUrl}inbox?to=`). */
export interface MailInfo {
  readonly smtpHost: string
  readonly smtpPort: number
  /** The inbox page, ending with `/`. */
  readonly inboxUrl: string
  /** Messages received so far, newest first, optionally only those to `to`. */
  readonly messages: (to?: string) => ReadonlyArray<InboxMessage>
  /** The newest message to `to`, waiting up to `timeoutMs` for one to arrive. */
  readonly waitForMail: (to: string, timeoutMs?: number) => Promise<InboxMessage>
}

const addresses = (field: AddressObject | ReadonlyArray<AddressObject> | undefined): ReadonlyArray<string> =>
  (field === undefined ? [] : "value" in field ? [field] : field).flatMap((group) =>
    group.value.flatMap((a) => (a.address ? [a.address.toLowerCase()] : []))
  )

const maxMessages = 1_000

/** Starts an SMTP sink on 127.0.0.1 that accepts any message, and an HTTP inbox to read them. */
export const startMail = async (opts: { readonly smtpPort?: number; readonly httpPort?: number } = {}): Promise<Started<MailInfo>> => {
  const store: Array<InboxMessage> = []
  const arrivals = new EventEmitter()
  arrivals.setMaxListeners(0)

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 5_000_000,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const text = parsed.text ?? ""
          const subject = parsed.subject ?? ""
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase())
          const message: InboxMessage = {
            id: randomUUID(),
            from: addresses(parsed.from)[0] ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ""),
            to: envelopeTo.length > 0 ? envelopeTo : addresses(parsed.to),
            subject,
            text,
            html: typeof parsed.html === "string" ? parsed.html : null,
            receivedAt: Date.now(),
            codes: [...`${subject}\n${text}`.matchAll(/(?<!\d)\d{6}(?!\d)/g)].map((m) => m[0])
          }
          if (store.length >= maxMessages) store.shift()
          store.push(message)
          arrivals.emit("mail", message)
          callback()
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)))
      )
    }
  })
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject)
    smtp.listen(opts.smtpPort ?? 0, "127.0.0.1", () => {
      smtp.off("error", reject)
      resolve()
    })
  })
  // The sink must keep running whatever a client sends; errors of one session are not fatal.
  smtp.on("error", () => undefined)
  const address = smtp.server.address()
  const smtpPort = typeof address === "object" && address !== null ? address.port : 0

  const messages = (to?: string) => {
    const wanted = to?.toLowerCase()
    return store.filter((m) => wanted === undefined || m.to.includes(wanted)).reverse()
  }
  const waitForMail = (to: string, timeoutMs = 10_000) =>
    new Promise<InboxMessage>((resolve, reject) => {
      const existing = messages(to)[0]
      if (existing !== undefined) return resolve(existing)
      const wanted = to.toLowerCase()
      const onMail = (message: InboxMessage) => {
        if (!message.to.includes(wanted)) return
        clearTimeout(timer)
        arrivals.off("mail", onMail)
        resolve(message)
      }
      const timer = setTimeout(() => {
        arrivals.off("mail", onMail)
        reject(new Error(`no mail to ${to} within ${timeoutMs} ms`))
      }, timeoutMs)
      arrivals.on("mail", onMail)
    })

  const page = () =>
    htmlDocument(
      "Devstack inbox",
      `<p>SMTP on <code>127.0.0.1:${smtpPort}</code>, no TLS, no auth. JSON: <code>GET /inbox?to=</code>. <a href="/">Refresh</a></p>${
        store.length === 0
          ? "<p>No mail yet.</p>"
          : messages()
              .map(
                (m) =>
                  `<article><h2>${escapeHtml(m.subject || "(no subject)")}</h2><p>From <code>${escapeHtml(m.from)}</code> to <code>${escapeHtml(m.to.join(", "))}</code> at ${new Date(m.receivedAt).toISOString()}${m.codes.length > 0 ? ` — code <strong>${escapeHtml(m.codes.join(", "))}</strong>` : ""}</p><pre>${escapeHtml(m.text)}</pre></article>`
              )
              .join("")
      }`
    )
  const inbox = (answer: InboxResponse) => HttpServerResponse.jsonUnsafe(encodeInbox(answer))
  const routes = Layer.mergeAll(
    HttpRouter.add(
      "GET",
      "/inbox",
      HttpServerRequest.schemaSearchParams(InboxQuery).pipe(
        Effect.flatMap((query) =>
          Effect.promise(async () => {
            if (query.wait !== undefined && query.wait > 0 && query.to !== undefined && messages(query.to).length === 0) {
              await waitForMail(query.to, query.wait).catch(() => undefined)
            }
            return inbox({ messages: messages(query.to) })
          })
        ),
        Effect.catchTag("SchemaError", (error) =>
          Effect.succeed(HttpServerResponse.jsonUnsafe({ error: `Invalid query: ${error.message.replace(/\s*\n\s*/g, " ")}` }, { status: 400 }))
        )
      )
    ),
    HttpRouter.add("DELETE", "/inbox", Effect.sync(() => inbox({ messages: store.splice(0, store.length).reverse() }))),
    HttpRouter.add("GET", "/", Effect.sync(() => HttpServerResponse.html(page())))
  )
  // The inbox is a page of the local stack only: no browser origin calls its JSON.
  const http = await startHttpApp(routes, { port: opts.httpPort ?? 0, corsOrigin: () => false })

  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= Promise.all([new Promise<void>((resolve) => smtp.close(() => resolve())), http.stop()]).then(() => undefined)
    return stopping
  }
  return {
    info: { smtpHost: "127.0.0.1", smtpPort, inboxUrl: `${http.url}/`, messages, waitForMail },
    stop
  }
}

const encodeInbox = Schema.encodeSync(InboxResponse)

/** Decodes the answer of `GET /inbox` for clients in other processes. */
export const decodeInbox = Schema.decodeUnknownSync(InboxResponse)
