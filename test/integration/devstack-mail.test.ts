import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decodeInbox, type MailInfo, startMail } from "../../devstack/mail/index"
import { sendMail } from "../../server/src/mail/send"
import type { Started } from "../../server/src/lib/Started"

let mail: Started<MailInfo>

beforeAll(async () => {
  mail = await startMail()
})

afterAll(async () => {
  await mail?.stop()
})

const send = (to: string, subject: string, text: string) =>
  sendMail({ port: mail.info.smtpPort, from: "wallet@devstack.test", to, subject, text })

describe("devstack mail sink", () => {
  it("keeps what is sent over SMTP and shows it in the inbox JSON, with its one-time code", async () => {
    await send("Ann@Example.test", "Your sign-in code", "Enter 482913 to sign in.\n.A line starting with a dot")
    const response = await fetch(`${mail.info.inboxUrl}inbox?to=ann@example.test`)
    const { messages } = decodeInbox(await response.json())
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({
      from: "wallet@devstack.test",
      to: ["ann@example.test"],
      subject: "Your sign-in code",
      codes: ["482913"]
    })
    expect(messages[0]?.text).toContain(".A line starting with a dot")
    expect(decodeInbox(await (await fetch(`${mail.info.inboxUrl}inbox?to=bob@example.test`)).json()).messages).toEqual([])
    const page = await (await fetch(mail.info.inboxUrl)).text()
    expect(page).toContain("Your sign-in code")
    expect(page).toContain("482913")
  })

  it("holds an inbox request with `wait` until the mail arrives", async () => {
    const waiting = fetch(`${mail.info.inboxUrl}inbox?to=late@example.test&wait=10000`).then(async (r) => decodeInbox(await r.json()))
    const waitingInProcess = mail.info.waitForMail("late@example.test")
    await send("late@example.test", "Code 111222", "no code in the body")
    expect((await waiting).messages.map((m) => m.codes)).toEqual([["111222"]])
    expect((await waitingInProcess).subject).toBe("Code 111222")
  })

  it("answers a bad inbox query with a 4xx and a clear message", async () => {
    const response = await fetch(`${mail.info.inboxUrl}inbox?wait=forever`)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: expect.stringMatching(/^Invalid query: .*wait/) })
  })
})
