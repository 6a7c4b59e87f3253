// @vitest-environment happy-dom
/**
 * The frame's own views (server/src/embedded/frame/secureView.ts) in a document, over the frame's real SplitKeys and a
 * wallet server in memory behind its API client's interface, with WebAuthn as the browser's interface answers it
 * (a PRF output, or a refusal): protect with a password (too short said first) and recover on a new device (a wrong
 * password in the server's words, then the right one); protect with a passkey and recover with it; a refused ceremony
 * in the visitor's words, nothing changed; export asks for a fresh confirmation first (a mailed code with its resend
 * counted down, a wrong or expired one in the server's words, no code field while the code that confirmed the last
 * export holds the mail's cool-down; a passkey's assertion; a recent login said in words),
 * then shows the key, withheld from every post, gone with the view; a key refused after the other was shown is named
 * with a Try again in place (the same grant when it was not used, else a new confirmation of that key only).
 */
import { Effect, Layer } from "effect"
import { privateKeyToAccount } from "viem/accounts"
import { afterEach, describe, expect, it, vi } from "vitest"
import { type SplitKeysApi, WalletApiError } from "../../../server/src/embedded/frame/apiClient"
import { makeMemoryStorage, FRAME_STORAGE_KEYS, type FrameStorage } from "../../../server/src/embedded/frame/frameLogic"
import { keysAtLogin } from "../../../server/src/embedded/frame/frameKeys"
import { closeSecureView, openSecureView, type SecureViewEnv, themeSecureView, withheldBySecureView } from "../../../server/src/embedded/frame/secureView"
import { DeviceShares, deviceShareKey, ShareServer, SplitKeys } from "../../../server/src/embedded/frame/SplitKeys"
import type { KeyFamily, KeyShare, RecoveryEnvelope } from "../../../server/src/embedded/sharesApi"
import { fromBase58, toBase58 } from "../../../src/domain/encoding"

const USER = "user-1"
const PASSWORD = "correct horse battery"

const CODE = "246810"
// The relying party the wallet server names for recovery passkeys (its passkeyRpId): a domain the frame is under.
const RP_ID = "host.example"

/**
 * A wallet server in memory behind the API client's interface: what it keeps, a wrong verifier refused, and the
 * export's confirmation as the server asks for it (`confirmWith`): a mailed code (right, wrong with tries left, or
 * expired), a passkey's answer, or a recent login; the export's server share only with the grant it gave, once.
 */
const makeServerApi = (confirmWith: "code" | "passkey" | "login" = "code") => {
  const kept = new Map<KeyFamily, { share: KeyShare; envelope: RecoveryEnvelope; verifier: string }>()
  let wrongTries = 0
  let codeTries = 5
  // `heldSeconds`: the mail's cool-down of a code that confirmed an export already (no mail, no code waiting).
  // `grants`: each grant not used yet, with its family; `asked`: the families of each start and each confirmation.
  const export_ = {
    mailed: 0,
    expired: false,
    heldSeconds: undefined as number | undefined,
    passkeyAnswers: [] as Array<Record<string, unknown>>,
    grants: new Map<string, KeyFamily>(),
    asked: [] as Array<string>,
    // A family whose export the server refuses once: its grant expired meanwhile (`refused`, the grant gone with
    // it), or the server could not be reached (`unreachable`, the grant not used).
    refused: undefined as KeyFamily | undefined,
    unreachable: undefined as KeyFamily | undefined
  }
  let made = 0
  const grant = (families: ReadonlyArray<KeyFamily>) => {
    export_.asked.push(`confirm ${families.join(" ")}`)
    const grants = families.map((family) => ({ family, grant: `grant-${++made}` }))
    for (const { family, grant } of grants) export_.grants.set(grant, family)
    return { grants, expiresInSeconds: 180 }
  }
  const api: SplitKeysApi = {
    exportStart: async (_token, families) => {
      export_.asked.push(`start ${families.join(" ")}`)
      if (confirmWith === "code") {
        if (export_.heldSeconds !== undefined) return { method: "code", email: "ada@example.test", resendInSeconds: export_.heldSeconds, codeWaiting: false }
        export_.mailed += 1
        return { method: "code", email: "ada@example.test", resendInSeconds: 30, codeWaiting: true }
      }
      return confirmWith === "passkey" ? { method: "passkey", state: "ceremony-1", options: { challenge: "AAECAw", rpId: RP_ID, timeout: 120000 } } : { method: "login", withinMinutes: 5 }
    },
    exportConfirm: async (_token, families, proof) => {
      if (proof.method === "code") {
        if (export_.expired) throw new WalletApiError("The code has expired: ask for a new one", "code_expired", 400)
        if (proof.otp !== CODE) {
          codeTries -= 1
          throw new WalletApiError(`The code is not right: ${codeTries} ${codeTries === 1 ? "try" : "tries"} left`, "invalid_code", 400)
        }
        return grant(families)
      }
      if (proof.method === "passkey") export_.passkeyAnswers.push(proof.response)
      return grant(families)
    },
    exportShare: async (_token, family, grant) => {
      if (family === export_.refused) {
        export_.refused = undefined
        export_.grants.delete(grant)
        throw new WalletApiError("Confirm it is you again to show this key", "export_not_confirmed", 403)
      }
      if (family === export_.unreachable) {
        export_.unreachable = undefined
        throw new WalletApiError("The wallet server could not be reached: Failed to fetch", undefined, 0)
      }
      const split = kept.get(family)
      if (export_.grants.get(grant) !== family || !export_.grants.delete(grant)) throw new WalletApiError("Confirm it is you again to show this key", "export_not_confirmed", 403)
      if (split === undefined) throw new WalletApiError("This account has no split key", "no_key_split", 404)
      return { share: split.share }
    },
    splitKeys: async () => ({
      userId: USER,
      keys: [...kept.entries()].map(([family, split]) => ({ family, address: split.share.address, splitId: split.share.splitId, recoveryKdf: split.envelope.kdf })),
      passkeyRpId: RP_ID
    }),
    storeSplit: async (_token, body) => {
      const rotated = kept.has(body.server.family)
      kept.set(body.server.family, { share: body.server, envelope: body.recovery.envelope, verifier: body.recovery.verifier })
      return { splitId: body.server.splitId, rotated }
    },
    serverShare: async (_token, family) => {
      const split = kept.get(family)
      if (split === undefined) throw new WalletApiError("This account has no split key", "no_key_split", 404)
      return { share: split.share }
    },
    recovery: async (_token, family, verifier) => {
      const split = kept.get(family)
      if (split === undefined) throw new WalletApiError("This account has no split key", "no_key_split", 404)
      if (split.verifier !== verifier) {
        const seconds = 5 * 2 ** wrongTries++
        throw new WalletApiError(`The password or passkey is not the right one: you may try again after ${seconds} seconds`, "wrong_recovery_secret", 400)
      }
      return { envelope: split.envelope }
    },
    // Users here have split keys only: none was sealed by the server before.
    legacyKey: async () => {
      throw new WalletApiError("This account has no key sealed by the server", "no_legacy_key", 404)
    }
  }
  return { api, kept, export: export_ }
}

/** A device: the frame's storage with its session. */
const device = (): FrameStorage => {
  const storage = makeMemoryStorage()
  storage.setItem(FRAME_STORAGE_KEYS.token, "session")
  return storage
}

/**
 * WebAuthn as the browser answers it: one passkey whose PRF gives `prf`, or the refusal `refuse` (a DOMException name);
 * `calls` names each ceremony, `rpIds` the relying party each was asked for.
 */
const credentials = (
  prf: Uint8Array,
  refuse?: string
): SecureViewEnv["credentials"] & { readonly calls: Array<string>; readonly rpIds: Array<string | undefined> } => {
  const calls: Array<string> = []
  const rpIds: Array<string | undefined> = []
  const credential = { rawId: new Uint8Array(16).fill(9).buffer, getClientExtensionResults: () => ({ prf: { results: { first: prf.slice().buffer } } }) }
  const answer = (call: string, rpId: string | undefined) => {
    calls.push(call)
    rpIds.push(rpId)
    return refuse === undefined ? Promise.resolve(credential as unknown as Credential) : Promise.reject(new DOMException("refused", refuse))
  }
  return { calls, rpIds, create: (options) => answer("create", options?.publicKey?.rp.id), get: (options) => answer("get", options?.publicKey?.rpId) }
}

/** The key of `family` made the way the frame makes it at login (its SplitKeys), under a secret kept on `storage`'s device. */
const madeAtLogin = (api: SplitKeysApi, storage: FrameStorage, family: KeyFamily) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create(family, { _tag: "passkey", prf: crypto.getRandomValues(new Uint8Array(32)) })).pipe(
      Effect.provide(SplitKeys.layer.pipe(Layer.provide(Layer.mergeAll(DeviceShares.layerStorage(storage), ShareServer.layerApi(api, () => "session")))))
    )
  )

const view = () => document.querySelector("main.secure-view")
const type = (label: string, value: string) => {
  const input = [...document.querySelectorAll("label")].find((l) => l.textContent === label)?.control as HTMLInputElement | null
  if (input === null || input === undefined) throw new Error(`no field ${label}`)
  input.value = value
}
const press = (name: string) => {
  const button = [...document.querySelectorAll("button")].find((b) => b.textContent === name)
  if (button === undefined) throw new Error(`no button ${name}`)
  button.click()
}
const submit = () => document.querySelector("form")?.dispatchEvent(new Event("submit", { cancelable: true }))
const alertText = () => document.querySelector("[role=alert]")?.textContent
// The exported key's field, once the view shows it.
const shownKey = () =>
  vi.waitFor(() => {
    const text = document.querySelector("textarea")
    if (text === null) throw new Error("no key yet")
    return text
  })

afterEach(() => closeSecureView())

describe("the frame's own views", () => {
  it("protect with a password (too short said first), then a new device recovers with it to the same address; a wrong one in the server's words; both accounts under one salt", async () => {
    const server = makeServerApi()
    const first = device()
    const { address } = await madeAtLogin(server.api, first, "eip155")
    const solana = await madeAtLogin(server.api, first, "solana")
    const salts = () => [...server.kept.values()].map((split) => split.envelope.kdf.salt)
    const protecting = openSecureView("protect", { themeMode: "dark", accent: undefined }, { api: server.api, storage: first, credentials: credentials(new Uint8Array(32)) })
    expect(document.documentElement.dataset["theme"]).toBe("dark")
    expect(document.activeElement?.getAttribute("autocomplete")).toBe("new-password")
    type("New password", "short")
    type("Confirm the password", "short")
    submit()
    await vi.waitFor(() => expect(alertText()).toBe("Use at least 10 characters."))
    type("New password", PASSWORD)
    type("Confirm the password", PASSWORD)
    submit()
    expect(await protecting).toBe("done")
    expect(view()).toBeNull()
    expect(server.kept.get("eip155")?.envelope.kdf.name).toBe("scrypt")
    // One protection, one salt (one stretch of the password) for both accounts.
    const [salt, ...others] = salts()
    expect(others).toEqual([salt])

    const second = device()
    const recovering = openSecureView("recover", { themeMode: undefined, accent: undefined }, { api: server.api, storage: second, credentials: credentials(new Uint8Array(32)) })
    expect(document.documentElement.dataset["theme"]).toBeUndefined()
    type("Password", "not my password")
    submit()
    await vi.waitFor(() => expect(alertText()).toBe("The password or passkey is not the right one: you may try again after 5 seconds"), { timeout: 10_000 })
    expect(second.getItem(deviceShareKey(USER, "eip155"))).toBeNull()
    type("Password", PASSWORD)
    submit()
    expect(await recovering).toBe("done")
    expect(JSON.parse(second.getItem(deviceShareKey(USER, "eip155")) ?? "{}")).toMatchObject({ role: "device", address })
    expect(JSON.parse(second.getItem(deviceShareKey(USER, "solana")) ?? "{}")).toMatchObject({ role: "device", address: solana.address })
    // Sealed anew under the salt it opened: the recovery stretched the password once.
    expect(salts()).toEqual([salt, salt])
  }, 60_000)

  it("protect with a new passkey's PRF and recover with it; a refused ceremony is said in words and changes nothing", async () => {
    const server = makeServerApi()
    const first = device()
    const { address } = await madeAtLogin(server.api, first, "solana")
    const prf = crypto.getRandomValues(new Uint8Array(32))
    const refused = credentials(prf, "NotAllowedError")
    const before = server.kept.get("solana")
    const protecting = openSecureView("protect", { themeMode: "light", accent: undefined }, { api: server.api, storage: first, credentials: refused })
    press("Use a passkey instead")
    await vi.waitFor(() => expect(alertText()).toBe("The passkey request was cancelled. Nothing was changed: try again when you are ready."))
    expect(server.kept.get("solana")).toBe(before)
    closeSecureView()
    expect(await protecting).toBe("cancelled")

    const webauthn = credentials(prf)
    const again = openSecureView("protect", { themeMode: "light", accent: undefined }, { api: server.api, storage: first, credentials: webauthn })
    press("Use a passkey instead")
    expect(await again).toBe("done")
    expect(webauthn.calls).toEqual(["create", "get"])
    // The passkey is made and used under the relying party the frame's own server names, not the frame's host name.
    expect(webauthn.rpIds).toEqual([RP_ID, RP_ID])
    expect(server.kept.get("solana")?.envelope.kdf.name).toBe("passkey-prf")

    const second = device()
    const onSecond = credentials(prf)
    const recovering = openSecureView("recover", { themeMode: "light", accent: undefined }, { api: server.api, storage: second, credentials: onSecond })
    press("Use your passkey")
    expect(await recovering).toBe("done")
    expect(onSecond.calls).toEqual(["get"])
    expect(onSecond.rpIds).toEqual([RP_ID])
    expect(JSON.parse(second.getItem(deviceShareKey(USER, "solana")) ?? "{}")).toMatchObject({ role: "device", address })
  }, 30_000)

  it("where the frame's storage travels to the server (cookies), the login's keys are sealed under the session, and Protect finds them there", async () => {
    const server = makeServerApi()
    const cookies = device()
    await keysAtLogin(server.api, cookies, "session", true)
    const address = server.kept.get("eip155")!.share.address
    // Nothing readable in the storage the server receives: the device share is sealed.
    expect(() => JSON.parse(cookies.getItem(deviceShareKey(USER, "eip155")) ?? "")).toThrow()
    const prf = crypto.getRandomValues(new Uint8Array(32))
    // Read as plain storage, there is no device share: nothing to protect, in words, and nothing changed.
    const unsealed = openSecureView("protect", { themeMode: undefined, accent: undefined }, { api: server.api, storage: cookies, credentials: credentials(prf) })
    press("Use a passkey instead")
    await vi.waitFor(() => expect(alertText()).toBe("This device has no share of the eip155 key: recover it with your password or passkey"))
    expect(server.kept.get("eip155")?.envelope.kdf.name).toBe("device")
    closeSecureView()
    expect(await unsealed).toBe("cancelled")
    const protecting = openSecureView("protect", { themeMode: undefined, accent: undefined }, { api: server.api, storage: cookies, credentials: credentials(prf), storageTravels: true })
    press("Use a passkey instead")
    expect(await protecting).toBe("done")
    expect(server.kept.get("eip155")).toMatchObject({ share: { address }, envelope: { kdf: { name: "passkey-prf" } } })
    expect(() => JSON.parse(cookies.getItem(deviceShareKey(USER, "eip155")) ?? "")).toThrow()
  }, 30_000)

  it("a theme the host changes while a view shows applies to it at once, mode and accent, as a custom property; once the view is gone nothing changes", async () => {
    const server = makeServerApi("code")
    const storage = device()
    await madeAtLogin(server.api, storage, "eip155")
    const root = document.documentElement
    const exporting = openSecureView("export", { themeMode: "light", accent: "#e0005a" }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    expect([root.dataset["theme"], root.style.getPropertyValue("--host-accent")]).toEqual(["light", "#e0005a"])
    themeSecureView({ themeMode: "dark", accent: "#ffe066" })
    expect([root.dataset["theme"], root.style.getPropertyValue("--host-accent")]).toEqual(["dark", "#ffe066"])
    // Of the theme's grammar or not, a value that could end a declaration is never set.
    themeSecureView({ themeMode: undefined, accent: "red;background:url(x)" })
    expect([root.dataset["theme"], root.style.getPropertyValue("--host-accent")]).toEqual([undefined, ""])
    expect(view()).not.toBeNull()
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }))
    expect(await exporting).toBe("cancelled")
    themeSecureView({ themeMode: "dark", accent: "#ffe066" })
    expect([root.dataset["theme"], root.style.getPropertyValue("--host-accent")]).toEqual([undefined, ""])
  }, 30_000)

  it("export asks for the mailed code first (resend counted down); a wrong code says the tries left and shows nothing; the right one shows the key, withheld from every post; Escape drops it", async () => {
    const server = makeServerApi("code")
    const storage = device()
    const { address } = await madeAtLogin(server.api, storage, "eip155")
    const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    expect(document.activeElement?.textContent).toBe("Export private key")
    expect(view()?.textContent).toContain("Anyone who has this key controls your wallet")
    await vi.waitFor(() => press("Show EVM private key"))
    await vi.waitFor(() => expect(document.activeElement?.getAttribute("autocomplete")).toBe("one-time-code"))
    expect(server.export.mailed).toBe(1)
    expect(view()?.textContent).toContain("To show your EVM private key, enter the code we just sent to ada@example.test.")
    const resend = [...document.querySelectorAll("button")].find((b) => b.textContent?.startsWith("Send a new code"))
    expect(resend?.textContent).toBe("Send a new code in 30 s")
    expect(resend?.disabled).toBe(true)

    type("Code from your email", "")
    submit()
    expect(alertText()).toBe("Enter the code from your email.")
    type("Code from your email", "111111")
    submit()
    await vi.waitFor(() => expect(alertText()).toBe("The code is not right: 4 tries left"))
    expect(document.querySelector("textarea")).toBeNull()
    expect(withheldBySecureView()).toEqual([])

    type("Code from your email", CODE)
    submit()
    const field = await shownKey()
    expect(alertText()).toBe("")
    expect(privateKeyToAccount(field.value as `0x${string}`).address).toBe(address)
    expect(document.activeElement).toBe(field)
    expect(withheldBySecureView()).toEqual([field.value])
    // The grant was used up by this one export.
    expect(server.export.grants.size).toBe(0)
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }))
    expect(await exporting).toBe("cancelled")
    expect(view()).toBeNull()
    expect(document.querySelector("textarea")).toBeNull()
    expect(withheldBySecureView()).toEqual([])
  }, 30_000)

  it("a wallet with both keys: one button asks one code for both, then shows both keys, each with its Copy, both withheld from every post", async () => {
    const server = makeServerApi("code")
    const storage = device()
    const evm = await madeAtLogin(server.api, storage, "eip155")
    const solana = await madeAtLogin(server.api, storage, "solana")
    const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    await vi.waitFor(() => press("Show EVM and Solana private keys"))
    expect(view()?.textContent).toContain("Anyone who has these keys controls your wallet and everything in it. Never share them")
    await vi.waitFor(() => expect(document.activeElement?.getAttribute("autocomplete")).toBe("one-time-code"))
    expect(view()?.textContent).toContain("To show your EVM and Solana private keys, enter the code we just sent to ada@example.test.")
    expect(document.querySelector("form.confirm")?.getAttribute("aria-label")).toBe("Confirm showing your EVM and Solana private keys")
    type("Code from your email", CODE)
    submit()
    await vi.waitFor(() => expect(document.querySelectorAll("textarea")).toHaveLength(2))
    const [evmKey, solanaKey] = [...document.querySelectorAll("textarea")] as [HTMLTextAreaElement, HTMLTextAreaElement]
    expect(privateKeyToAccount(evmKey.value as `0x${string}`).address).toBe(evm.address)
    expect(toBase58(fromBase58(solanaKey.value)?.slice(32) ?? new Uint8Array())).toBe(solana.address)
    // One start, one mail, one confirmation for both; each grant used by its own family's export.
    expect(server.export.asked).toEqual(["start eip155 solana", "confirm eip155 solana"])
    expect(server.export.mailed).toBe(1)
    expect(server.export.grants.size).toBe(0)
    expect([...document.querySelectorAll("label")].map((label) => label.textContent)).toEqual(["Your EVM private key", "Your Solana private key"])
    expect([...document.querySelectorAll("button")].filter((b) => b.textContent === "Copy").map((b) => b.getAttribute("aria-label"))).toEqual([
      "Copy your EVM private key",
      "Copy your Solana private key"
    ])
    // Focus on the first key, selected to copy.
    expect(document.activeElement).toBe(evmKey)
    expect(withheldBySecureView()).toEqual([evmKey.value, solanaKey.value])
    closeSecureView()
    expect(await exporting).toBe("cancelled")
    expect(withheldBySecureView()).toEqual([])
  }, 30_000)

  it("a key whose grant the server refuses after the other was shown: the shown one stays, the refused one is named with a Try again, which asks a new confirmation of that key only and shows it under the other", async () => {
    const server = makeServerApi("code")
    const storage = device()
    const evm = await madeAtLogin(server.api, storage, "eip155")
    const solana = await madeAtLogin(server.api, storage, "solana")
    server.export.refused = "solana"
    const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    await vi.waitFor(() => press("Show EVM and Solana private keys"))
    await vi.waitFor(() => type("Code from your email", CODE))
    submit()
    await vi.waitFor(() => expect(alertText()).toBe("Your Solana private key could not be shown. Confirm it is you again to show this key"))
    const [evmKey, ...none] = [...document.querySelectorAll("textarea")]
    expect(none).toHaveLength(0)
    expect(privateKeyToAccount(evmKey?.value as `0x${string}`).address).toBe(evm.address)
    // Said right under the key shown, the Try again under it, named by the key it shows.
    const alert = document.getElementById("wr-secure-error")
    expect(alert?.previousElementSibling?.contains(evmKey ?? null)).toBe(true)
    const again = [...document.querySelectorAll("button")].find((b) => b.textContent === "Try again")
    expect(again?.getAttribute("aria-label")).toBe("Try again to show your Solana private key")
    expect(alert?.nextElementSibling?.contains(again ?? null)).toBe(true)
    expect(document.activeElement).toBe(evmKey)
    press("Try again")
    // A new confirmation, of the Solana key only: a new code, entered in place.
    await vi.waitFor(() => expect(view()?.textContent).toContain("To show your Solana private key, enter the code we just sent to ada@example.test."))
    expect(document.activeElement?.getAttribute("autocomplete")).toBe("one-time-code")
    expect(alertText()).toBe("")
    type("Code from your email", CODE)
    submit()
    await vi.waitFor(() => expect(document.querySelectorAll("textarea")).toHaveLength(2))
    const [first, solanaKey] = [...document.querySelectorAll("textarea")] as [HTMLTextAreaElement, HTMLTextAreaElement]
    expect(first).toBe(evmKey)
    expect(toBase58(fromBase58(solanaKey.value)?.slice(32) ?? new Uint8Array())).toBe(solana.address)
    expect(document.activeElement).toBe(solanaKey)
    expect(server.export.asked).toEqual(["start eip155 solana", "confirm eip155 solana", "start solana", "confirm solana"])
    expect(server.export.mailed).toBe(2)
    expect(server.export.grants.size).toBe(0)
    expect([...document.querySelectorAll("button")].some((b) => b.textContent === "Try again")).toBe(false)
    expect(alertText()).toBe("")
    expect(withheldBySecureView()).toEqual([first.value, solanaKey.value])
    closeSecureView()
    expect(await exporting).toBe("cancelled")
  }, 30_000)

  it("a key the server could not be reached for after the other was shown: Try again asks with the same grant, unused, and no new confirmation", async () => {
    const server = makeServerApi("login")
    const storage = device()
    await madeAtLogin(server.api, storage, "eip155")
    const solana = await madeAtLogin(server.api, storage, "solana")
    server.export.unreachable = "solana"
    const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    await vi.waitFor(() => press("Show EVM and Solana private keys"))
    await vi.waitFor(() => press("Show EVM and Solana private keys now"))
    await vi.waitFor(() => expect(alertText()).toBe("Your Solana private key could not be shown. The wallet server could not be reached: Failed to fetch"))
    expect(document.querySelectorAll("textarea")).toHaveLength(1)
    press("Try again")
    await vi.waitFor(() => expect(document.querySelectorAll("textarea")).toHaveLength(2))
    const solanaKey = [...document.querySelectorAll("textarea")][1] as HTMLTextAreaElement
    expect(toBase58(fromBase58(solanaKey.value)?.slice(32) ?? new Uint8Array())).toBe(solana.address)
    expect(server.export.asked).toEqual(["start eip155 solana", "confirm eip155 solana"])
    expect(server.export.grants.size).toBe(0)
    expect(alertText()).toBe("")
    closeSecureView()
    expect(await exporting).toBe("cancelled")
  }, 30_000)

  it("the first key the server could not be reached for, the code used: in the confirmation's place both keys are named with a Try again, focused, which shows both with the same grants", async () => {
    const server = makeServerApi("code")
    const storage = device()
    const evm = await madeAtLogin(server.api, storage, "eip155")
    await madeAtLogin(server.api, storage, "solana")
    server.export.unreachable = "eip155"
    const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    await vi.waitFor(() => press("Show EVM and Solana private keys"))
    await vi.waitFor(() => type("Code from your email", CODE))
    submit()
    await vi.waitFor(() => expect(alertText()).toBe("Your EVM and Solana private keys could not be shown. The wallet server could not be reached: Failed to fetch"))
    // The code it took is used: no code field is offered again.
    expect(document.querySelector("form.confirm")).toBeNull()
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Try again to show your EVM and Solana private keys")
    press("Try again")
    await vi.waitFor(() => expect(document.querySelectorAll("textarea")).toHaveLength(2))
    const [evmKey] = [...document.querySelectorAll("textarea")] as [HTMLTextAreaElement]
    expect(privateKeyToAccount(evmKey.value as `0x${string}`).address).toBe(evm.address)
    expect(document.activeElement).toBe(evmKey)
    expect(server.export.asked).toEqual(["start eip155 solana", "confirm eip155 solana"])
    expect(server.export.grants.size).toBe(0)
    closeSecureView()
    expect(await exporting).toBe("cancelled")
  }, 30_000)

  it("the resend waits out the mail's cool-down, counted down each second, then asks for a new code and counts again", async () => {
    // Only the countdown's interval is faked: the view's promises and vi.waitFor keep their own timers.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] })
    try {
      const server = makeServerApi("code")
      const storage = device()
      await madeAtLogin(server.api, storage, "eip155")
      const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
      await vi.waitFor(() => press("Show EVM private key"))
      const resend = await vi.waitFor(() => {
        const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.startsWith("Send a new code"))
        if (button === undefined) throw new Error("no resend yet")
        return button
      })
      expect([resend.textContent, resend.disabled]).toEqual(["Send a new code in 30 s", true])
      vi.advanceTimersByTime(1_000)
      expect(resend.textContent).toBe("Send a new code in 29 s")
      vi.advanceTimersByTime(29_000)
      expect([resend.textContent, resend.disabled]).toEqual(["Send a new code", false])
      resend.click()
      await vi.waitFor(() => expect(server.export.mailed).toBe(2))
      await vi.waitFor(() => expect([resend.textContent, resend.disabled]).toEqual(["Send a new code in 30 s", true]))
      closeSecureView()
      expect(await exporting).toBe("cancelled")
    } finally {
      vi.useRealTimers()
    }
  }, 30_000)

  it("asked again while the code that confirmed the last export holds the mail's cool-down: the wait is said, no code field until a new code is mailed, which then shows the key", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] })
    try {
      const server = makeServerApi("code")
      const storage = device()
      const { address } = await madeAtLogin(server.api, storage, "eip155")
      server.export.heldSeconds = 3
      const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
      await vi.waitFor(() => press("Show EVM private key"))
      await vi.waitFor(() => expect(view()?.textContent).toContain("The code we sent to ada@example.test a moment ago was used already."))
      expect(document.querySelector("input")).toBeNull()
      expect([...document.querySelectorAll("button")].map((b) => b.textContent)).not.toContain("Confirm")
      expect(document.activeElement?.textContent).toContain("ask for a new code once the button below allows it")
      const resend = [...document.querySelectorAll("button")].find((b) => b.textContent?.startsWith("Send a new code"))
      expect([resend?.textContent, resend?.disabled]).toEqual(["Send a new code in 3 s", true])
      vi.advanceTimersByTime(3_000)
      expect([resend?.textContent, resend?.disabled]).toEqual(["Send a new code", false])
      server.export.heldSeconds = undefined
      resend?.click()
      await vi.waitFor(() => expect(document.activeElement?.getAttribute("autocomplete")).toBe("one-time-code"))
      expect(server.export.mailed).toBe(1)
      expect(view()?.textContent).toContain("To show your EVM private key, enter the code we just sent to ada@example.test.")
      expect(resend?.textContent).toBe("Send a new code in 30 s")
      type("Code from your email", CODE)
      submit()
      const field = await shownKey()
      expect(privateKeyToAccount(field.value as `0x${string}`).address).toBe(address)
      closeSecureView()
      expect(await exporting).toBe("cancelled")
    } finally {
      vi.useRealTimers()
    }
  }, 30_000)

  it("an expired code is said in the server's words, with a new code to ask for; no key is shown", async () => {
    const server = makeServerApi("code")
    const storage = device()
    await madeAtLogin(server.api, storage, "eip155")
    server.export.expired = true
    const exporting = openSecureView("export", { themeMode: "dark", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    await vi.waitFor(() => press("Show EVM private key"))
    await vi.waitFor(() => type("Code from your email", CODE))
    submit()
    await vi.waitFor(() => expect(alertText()).toBe("The code has expired: ask for a new one"))
    expect(document.querySelector("textarea")).toBeNull()
    closeSecureView()
    expect(await exporting).toBe("cancelled")
  }, 30_000)

  it("a passkey user confirms with the passkey: the browser's assertion goes to the server as JSON, then the key is shown", async () => {
    const server = makeServerApi("passkey")
    const storage = device()
    const { address } = await madeAtLogin(server.api, storage, "solana")
    const asked: Array<CredentialRequestOptions> = []
    const bytes = (...values: ReadonlyArray<number>) => Uint8Array.from(values).buffer
    const webauthn: SecureViewEnv["credentials"] = {
      create: () => Promise.reject(new Error("not asked here")),
      get: (options) => {
        asked.push(options ?? {})
        const assertion = {
          id: "AQID",
          rawId: bytes(1, 2, 3),
          response: { clientDataJSON: bytes(123, 125), authenticatorData: bytes(9), signature: bytes(250, 251), userHandle: null }
        }
        return Promise.resolve(assertion as unknown as Credential)
      }
    }
    const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: webauthn })
    await vi.waitFor(() => press("Show Solana private key"))
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe("Use your passkey"))
    expect(view()?.textContent).toContain("confirm it is you with your wallet's passkey")
    press("Use your passkey")
    const field = await shownKey()
    expect([...new Uint8Array(asked[0]?.publicKey?.challenge as ArrayBuffer)]).toEqual([0, 1, 2, 3])
    expect(asked[0]?.publicKey?.rpId).toBe(RP_ID)
    expect(server.export.passkeyAnswers).toEqual([
      { id: "AQID", rawId: "AQID", type: "public-key", response: { clientDataJSON: "e30", authenticatorData: "CQ", signature: "-vs" }, clientExtensionResults: {} }
    ])
    expect(withheldBySecureView()).toEqual([field.value])
    // Solana's keypair (seed, then public key): its public half is the account's address.
    expect(toBase58(fromBase58(field.value)?.slice(32) ?? new Uint8Array())).toBe(address)
    closeSecureView()
    expect(await exporting).toBe("cancelled")
  }, 30_000)

  it("an account with neither email nor passkey is told that its recent login is the confirmation", async () => {
    const server = makeServerApi("login")
    const storage = device()
    const { address } = await madeAtLogin(server.api, storage, "eip155")
    const exporting = openSecureView("export", { themeMode: "light", accent: undefined }, { api: server.api, storage, credentials: credentials(new Uint8Array(32)) })
    await vi.waitFor(() => press("Show EVM private key"))
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe("Show EVM private key now"))
    expect(view()?.textContent).toContain("your login is the confirmation: it must be from the last 5 minutes")
    press("Show EVM private key now")
    const field = await shownKey()
    expect(privateKeyToAccount(field.value as `0x${string}`).address).toBe(address)
    closeSecureView()
    expect(await exporting).toBe("cancelled")
  }, 30_000)
})
