/**
 * The frame's own views, shown visibly over the modal on the frame's origin (issue 30, items 2 and 4): protecting the
 * wallet with a password, recovering it on a device without a device share, and showing its private key. Fetched by
 * the frame page the first time one opens, with the split-key code (curves, Shamir, scrypt), so the hidden frame's
 * first load carries none of it. What the visitor types and the key stay in this document: the host page learns only
 * how the view ended (`done` or `cancelled`).
 */
import { Array as Arr, Effect, Layer } from "effect"
import type { SecureViewKind, SecureViewOutcome } from "../../../../src/domain/Frame"
import { passkeyFailureWords, passkeyOutcomeOf } from "../../../../src/domain/passkey"
import { fromBase64Url, toBase64Url } from "../../../../src/domain/encoding"
import { themeValueIssue } from "../../../../src/domain/themeValues"
import { darkerTo, lighterTo, READABLE_LUMINANCE, RELATIVE_COLOURS, textOn } from "../../../../src/ui/theme/readableAccent"
import type { ExportFamilies, ExportGrant, ExportProof, ExportStartResponse, KeyFamily } from "../sharesApi"
import type { SplitKeysApi } from "./apiClient"
import { FRAME_STORAGE_KEYS, type FrameStorage, type SecureViewTheme } from "./frameLogic"
import { endAttempt, oneAttempt, type RecoverySecret } from "./recoveryShare"
import { DeviceShares, ShareServer, SplitKeys } from "./SplitKeys"
import "./secureView.css"

/** The shortest password that protects a wallet: scrypt makes each guess cost, the length makes guesses many. */
export const MIN_PASSWORD_LENGTH = 10

/** The words of a password that cannot protect the wallet, or undefined when it can. */
export const passwordProblem = (password: string, confirmation: string): string | undefined => {
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`
  if (password !== confirmation) return "The two passwords are not the same."
  return undefined
}

const FAMILY_NAMES: Record<KeyFamily, string> = { eip155: "EVM", solana: "Solana" }

// The keys of one export as the view names them: "EVM private key", "EVM and Solana private keys".
const keysNamed = (families: ReadonlyArray<KeyFamily>): string => {
  const names = families.map((family) => FAMILY_NAMES[family])
  const listed = names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`
  return `${listed} private key${names.length === 1 ? "" : "s"}`
}

/** What a secure view needs of the frame page. */
export interface SecureViewEnv {
  readonly api: SplitKeysApi
  readonly storage: FrameStorage
  /** The browser's WebAuthn (`navigator.credentials`): the passkeys live in this shown frame, on its origin. */
  readonly credentials: Pick<CredentialsContainer, "create" | "get">
  /** Whether `storage` travels to the wallet server (FrameStore's cookies): the device shares are sealed under the session there. */
  readonly storageTravels?: boolean
}

// The PRF's input: one fixed value for this purpose, so a passkey gives the same recovery secret each time and no
// other site's or purpose's.
const PRF_INPUT = new TextEncoder().encode("wallet-runtime/recovery-share/v1")

/**
 * The recovery secret a passkey's PRF gives: a new passkey made for it (`create`), or one made before, of the relying
 * party `rpId`.
 */
const passkeySecret = async (env: SecureViewEnv, rpId: string, create: boolean): Promise<RecoverySecret> => {
  const prf = { eval: { first: PRF_INPUT } }
  const random = () => crypto.getRandomValues(new Uint8Array(32))
  let allow: Array<PublicKeyCredentialDescriptor> = []
  if (create) {
    const made = await env.credentials.create({
      publicKey: {
        rp: { id: rpId, name: "Wallet recovery" },
        user: { id: crypto.getRandomValues(new Uint8Array(16)), name: "Wallet recovery", displayName: "Wallet recovery" },
        challenge: random(),
        pubKeyCredParams: [
          { type: "public-key", alg: -7 },
          { type: "public-key", alg: -257 }
        ],
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
        extensions: { prf }
      }
    })
    // The passkey just made, and no other the visitor has here.
    if (made !== null) allow = [{ type: "public-key", id: (made as PublicKeyCredential).rawId }]
  }
  // No server checks this assertion: what proves it is the PRF's output, which opens the recovery share or not.
  const used = await env.credentials.get({ publicKey: { challenge: random(), rpId, allowCredentials: allow, userVerification: "required", extensions: { prf } } })
  const first = (used as PublicKeyCredential | null)?.getClientExtensionResults().prf?.results?.first
  if (first === undefined) throw new Error("This passkey cannot protect a wallet (its authenticator has no PRF): use a password instead.")
  return { _tag: "passkey", prf: new Uint8Array(first instanceof ArrayBuffer ? first : first.buffer.slice(first.byteOffset, first.byteOffset + first.byteLength)) }
}

interface Open {
  /** Ends the view once: its element and what it showed go, and the host learns `outcome`. */
  readonly finish: (outcome: SecureViewOutcome) => void
  /** The keys the view shows (withheld from every post). */
  readonly shown: Array<string>
}

let open: Open | undefined

const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: ReadonlyArray<Node | string>
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(name, value)
  node.append(...children)
  return node
}

const field = (id: string, label: string, autocomplete: string): { readonly wrap: HTMLElement; readonly input: HTMLInputElement } => {
  const input = element("input", { id, type: "password", autocomplete, required: "", "aria-describedby": "wr-secure-error" })
  return { wrap: element("div", { class: "field" }, element("label", { for: id }, label), input), input }
}

const errorText = (error: unknown): string => {
  // A browser's refusal of the passkey ceremony (by its DOMException's name): the passkey login's words.
  const refusal = error instanceof Error ? passkeyOutcomeOf(error.name) : undefined
  if (refusal !== undefined) return passkeyFailureWords(refusal === "cancelled" ? { _tag: "Cancelled" } : { _tag: "Unsupported" })
  return typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" && error.message !== ""
    ? error.message
    : "Something went wrong: nothing was changed. Try again."
}

// The frame's session token.
const tokenOf = (env: SecureViewEnv): string => env.storage.getItem(FRAME_STORAGE_KEYS.token) ?? ""

// The logged-in visitor's split keys (over this frame's storage and its wallet server) and the families they hold.
const run = <A, E>(env: SecureViewEnv, use: (keys: SplitKeys["Service"], families: ReadonlyArray<KeyFamily>) => Effect.Effect<A, E>) => {
  const token = tokenOf(env)
  const server = ShareServer.layerApi(env.api, () => token)
  const splitKeys = SplitKeys.layer.pipe(Layer.provide(Layer.merge(DeviceShares.layerFor(env.storage, token, env.storageTravels === true), server)))
  return Effect.runPromise(
    Effect.gen(function* () {
      const listed = yield* Effect.flatMap(ShareServer, (shares) => shares.list)
      return yield* use(
        yield* SplitKeys,
        listed.keys.map((split) => split.family)
      )
    }).pipe(Effect.provide(Layer.merge(splitKeys, server)))
  )
}

/** What is wrong (nothing was changed), said under `field` when it concerns one field rather than the whole form. */
type Problem = string | { readonly text: string; readonly field: HTMLElement }

/** The work of a form's button: undefined when done, else what is wrong. */
type Work = (say: (text: string) => void) => Promise<Problem | undefined>

// A form with its heading, words, fields, error line, progress line and buttons: `submit` runs the form's work, and
// `alternative` (a passkey instead of the password) the other; either shows its progress and ends the view when done.
const form = (
  view: Open,
  parts: {
    readonly title: string
    readonly intro: string
    readonly fields: ReadonlyArray<HTMLElement>
    readonly action: string
    readonly working: string
    readonly submit: Work
    readonly alternative: { readonly label: string; readonly run: Work }
  }
): HTMLElement => {
  const error = element("p", { id: "wr-secure-error", class: "error", role: "alert" })
  const status = element("p", { class: "status", role: "status" })
  const progress = element("progress", { "aria-label": parts.working, hidden: "" })
  const submit = element("button", { type: "submit", class: "primary" }, parts.action)
  const other = element("button", { type: "button", class: "secondary" }, parts.alternative.label)
  const cancel = element("button", { type: "button", class: "secondary" }, "Cancel")
  const buttons = [submit, other, cancel]
  // A problem shows under the field it concerns (on a phone too, where the buttons may fill the rest of the view);
  // anything else under the last field, above the buttons.
  const sayProblem = (problem: Problem) => {
    const near = typeof problem === "string" ? parts.fields.at(-1) : problem.field
    near?.after(error)
    error.textContent = typeof problem === "string" ? problem : problem.text
  }
  cancel.addEventListener("click", () => view.finish("cancelled"))
  const start = (work: Work) => {
    if (submit.disabled) return
    error.textContent = ""
    for (const button of buttons) button.disabled = true
    progress.hidden = false
    status.textContent = parts.working
    work((text) => {
      status.textContent = text
    })
      .then(
        (problem) => {
          if (problem === undefined) return view.finish("done")
          sayProblem(problem)
          status.textContent = ""
        },
        (failure: unknown) => {
          sayProblem(errorText(failure))
          status.textContent = ""
        }
      )
      .finally(() => {
        for (const button of buttons) button.disabled = false
        progress.hidden = true
      })
  }
  other.addEventListener("click", () => start(parts.alternative.run))
  const body = element(
    "form",
    { "aria-labelledby": "wr-secure-title", novalidate: "" },
    element("h1", { id: "wr-secure-title", tabindex: "-1" }, parts.title),
    element("p", {}, parts.intro),
    ...parts.fields,
    error,
    status,
    progress,
    element("div", { class: "actions" }, submit, other, cancel)
  )
  body.addEventListener("submit", (event) => {
    event.preventDefault()
    start(parts.submit)
  })
  return body
}

// Runs `use(family, index, count)` for each family the visitor's wallet has a key of, saying which one goes.
const eachFamily = (env: SecureViewEnv, say: (text: string) => void, verb: string, use: (keys: SplitKeys["Service"], family: KeyFamily) => Effect.Effect<unknown, unknown>) =>
  run(env, (keys, families) =>
    Effect.forEach(families, (family, index) =>
      Effect.sync(() => say(`${verb} your ${FAMILY_NAMES[family]} account (${index + 1} of ${families.length}): this takes a few seconds…`)).pipe(
        Effect.andThen(use(keys, family))
      )
    )
  )

// Protect and Recover: one form whose secret is the password (once it passes `check`) or a passkey's PRF output,
// handed to `use` for each account of the wallet.
const secretForm = (
  view: Open,
  env: SecureViewEnv,
  parts: {
    readonly title: string
    readonly intro: string
    readonly fields: ReadonlyArray<HTMLElement>
    readonly action: string
    readonly verb: string
    readonly password: () => { readonly password: string } | { readonly problem: Problem }
    readonly passkey: { readonly label: string; readonly prompt: string; readonly create: boolean }
    readonly use: (keys: SplitKeys["Service"], family: KeyFamily, secret: RecoverySecret) => Effect.Effect<unknown, unknown>
  }
): HTMLElement => {
  // One attempt over every account: a password is stretched once per salt, not once per account and step.
  const withSecret = (say: (text: string) => void, secret: RecoverySecret) => {
    const attempt = oneAttempt(secret)
    return eachFamily(env, say, parts.verb, (keys, family) => parts.use(keys, family, attempt))
      .then(() => undefined)
      .finally(() => endAttempt(attempt))
  }
  // The recovery passkeys' relying party as the frame's own server names it (its `passkeyRpId`), asked as the view
  // opens so the ceremony the click starts waits on nothing; a failure is said when the passkey is asked for.
  const relyingParty = env.api.splitKeys(tokenOf(env)).then((listed) => listed.passkeyRpId)
  relyingParty.catch(() => undefined)
  return form(view, {
    title: parts.title,
    intro: parts.intro,
    fields: parts.fields,
    action: parts.action,
    working: `${parts.verb} your wallet: this takes a few seconds…`,
    submit: async (say) => {
      const typed = parts.password()
      if ("problem" in typed) return typed.problem
      return withSecret(say, { _tag: "password", password: typed.password })
    },
    alternative: {
      label: parts.passkey.label,
      run: async (say) => {
        say(parts.passkey.prompt)
        return withSecret(say, await passkeySecret(env, await relyingParty, parts.passkey.create))
      }
    }
  })
}

const protectView = (view: Open, env: SecureViewEnv): HTMLElement => {
  const password = field("wr-secure-password", "New password", "new-password")
  const confirmation = field("wr-secure-confirm", "Confirm the password", "new-password")
  password.input.setAttribute("minlength", String(MIN_PASSWORD_LENGTH))
  return secretForm(view, env, {
    title: "Protect your wallet",
    intro: `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters, or a passkey. You need it to use your wallet on a new device. Nobody can reset it for you, not even us: keep it somewhere safe.`,
    fields: [password.wrap, confirmation.wrap],
    action: "Protect wallet",
    verb: "Protecting",
    password: () => {
      const problem = passwordProblem(password.input.value, confirmation.input.value)
      if (problem === undefined) return { password: password.input.value }
      // Too short is the password's problem; two that differ, its confirmation's.
      return { problem: { text: problem, field: password.input.value.length < MIN_PASSWORD_LENGTH ? password.wrap : confirmation.wrap } }
    },
    passkey: { label: "Use a passkey instead", prompt: "Create a passkey for your wallet in your browser's window…", create: true },
    use: (keys, family, secret) => keys.protect(family, secret)
  })
}

const recoverView = (view: Open, env: SecureViewEnv): HTMLElement => {
  const password = field("wr-secure-password", "Password", "current-password")
  return secretForm(view, env, {
    title: "Recover your wallet",
    intro: "This device has no key of your wallet yet. Enter the password you protected your wallet with, or use its passkey, to use it here.",
    fields: [password.wrap],
    action: "Recover wallet",
    verb: "Recovering",
    password: () => (password.input.value === "" ? { problem: "Enter your password." } : { password: password.input.value }),
    passkey: { label: "Use your passkey", prompt: "Use the passkey you protected your wallet with…", create: false },
    use: (keys, family, secret) => keys.recover(family, secret)
  })
}

// WebAuthn's request options as the wallet server sends them (JSON, base64url) in the browser's own types.
const requestOptions = (json: Readonly<Record<string, unknown>>): PublicKeyCredentialRequestOptions => {
  const bytes = (text: unknown) => Uint8Array.from(fromBase64Url(typeof text === "string" ? text : "") ?? [])
  const allow = Array.isArray(json["allowCredentials"]) ? (json["allowCredentials"] as ReadonlyArray<{ readonly id: string }>) : []
  return {
    challenge: bytes(json["challenge"]),
    ...(typeof json["rpId"] === "string" ? { rpId: json["rpId"] } : {}),
    ...(typeof json["timeout"] === "number" ? { timeout: json["timeout"] } : {}),
    userVerification: "required",
    allowCredentials: allow.map((credential) => ({ type: "public-key" as const, id: bytes(credential.id) }))
  }
}

// The browser's assertion as the wallet server reads it (`AuthenticationResponseJSON`).
const assertionJson = (credential: PublicKeyCredential): Record<string, unknown> => {
  const response = credential.response as AuthenticatorAssertionResponse
  const text = (buffer: ArrayBuffer) => toBase64Url(new Uint8Array(buffer))
  return {
    id: credential.id,
    rawId: text(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: text(response.clientDataJSON),
      authenticatorData: text(response.authenticatorData),
      signature: text(response.signature),
      ...(response.userHandle === null ? {} : { userHandle: text(response.userHandle) })
    },
    clientExtensionResults: {}
  }
}

/** The export view's confirmation: its form, and where focus starts in it. */
type Confirming = { readonly form: HTMLElement; readonly focus: HTMLElement }

// The one confirmation the server asked for the keys of `families` (a mailed code, a passkey, or a recent login), as a
// form whose success hands `show` the export's grants, one per family. Its problems show in the view's alert line
// `error`, which it places under the field or buttons they concern.
const confirmation = (
  env: SecureViewEnv,
  families: ExportFamilies,
  asked: ExportStartResponse,
  show: (grants: ReadonlyArray<ExportGrant>) => Promise<void>,
  error: HTMLElement
): Confirming => {
  const name = keysNamed(families)
  const say = (problem: string) => void (error.textContent = problem)
  const confirm = (proof: ExportProof) => env.api.exportConfirm(tokenOf(env), families, proof).then((answer) => show(answer.grants))
  const busy = (buttons: ReadonlyArray<HTMLButtonElement>, work: () => Promise<void>) => {
    if (buttons.some((button) => button.disabled)) return
    say("")
    for (const button of buttons) button.disabled = true
    work()
      .catch((failure: unknown) => say(errorText(failure)))
      .finally(() => {
        for (const button of buttons) button.disabled = false
      })
  }
  if (asked.method === "code") {
    const id = "wr-secure-code"
    const input = element("input", { id, type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: "6", required: "", "aria-describedby": "wr-secure-error" })
    const codeField = element("div", { class: "field" }, element("label", { for: id }, "Code from your email"), input)
    const submit = element("button", { type: "submit", class: "primary" }, "Confirm")
    const resend = element("button", { type: "button", class: "secondary" })
    const actions = element("div", { class: "actions" }, resend)
    const text = element("p", { tabindex: "-1" })
    const form = element("form", { class: "confirm", novalidate: "", "aria-label": `Confirm showing your ${name}` }, text, actions)
    // A code to enter, or none yet: the code mailed a moment ago confirmed an export already, and the next can be
    // mailed only once the mail's cool-down is over. Until then the view says so and offers no field that cannot work.
    const codeWaiting = (waiting: boolean) => {
      text.textContent = waiting
        ? `To show your ${name}, enter the code we just sent to ${asked.email}.`
        : `The code we sent to ${asked.email} a moment ago was used already. To show your ${name}, ask for a new code once the button below allows it.`
      if (waiting) {
        text.after(codeField)
        actions.prepend(submit)
      } else {
        codeField.remove()
        submit.remove()
      }
      ;(waiting ? codeField : text).after(error)
    }
    // The resend waits out the server's mail cool-down, counted here so the visitor sees when.
    let timer: ReturnType<typeof setInterval> | undefined
    const countDown = (seconds: number) => {
      let left = seconds
      const tick = () => {
        resend.disabled = left > 0
        resend.textContent = left > 0 ? `Send a new code in ${left} s` : "Send a new code"
        if (left <= 0) clearInterval(timer)
        left -= 1
      }
      clearInterval(timer)
      tick()
      timer = setInterval(() => (resend.isConnected ? tick() : clearInterval(timer)), 1000)
    }
    codeWaiting(asked.codeWaiting)
    countDown(asked.resendInSeconds)
    resend.addEventListener("click", () => {
      say("")
      resend.disabled = true
      env.api.exportStart(tokenOf(env), families).then(
        (again) => {
          const waiting = again.method === "code" && again.codeWaiting
          codeWaiting(waiting)
          countDown(again.method === "code" ? again.resendInSeconds : 0)
          if (waiting) input.focus()
        },
        (failure: unknown) => {
          // The server's words say how long to wait when it is too soon.
          say(errorText(failure))
          countDown(0)
        }
      )
    })
    form.addEventListener("submit", (event) => {
      event.preventDefault()
      const otp = input.value.trim()
      if (otp === "") return say("Enter the code from your email.")
      busy([submit], () => confirm({ method: "code", otp }))
    })
    return { form, focus: asked.codeWaiting ? input : text }
  }
  if (asked.method === "passkey") {
    const use = element("button", { type: "button", class: "primary" }, "Use your passkey")
    use.addEventListener("click", () =>
      busy([use], async () => {
        const credential = await env.credentials.get({ publicKey: requestOptions(asked.options) })
        if (credential === null) throw new Error("Your passkey could not be used: try again")
        await confirm({ method: "passkey", state: asked.state, response: assertionJson(credential as PublicKeyCredential) })
      })
    )
    const actions = element("div", { class: "actions" }, use)
    const form = element(
      "div",
      { class: "confirm", role: "group", "aria-label": `Confirm showing your ${name}` },
      element("p", {}, `To show your ${name}, confirm it is you with your wallet's passkey.`),
      actions
    )
    actions.after(error)
    return { form, focus: use }
  }
  const go = element("button", { type: "button", class: "primary" }, `Show ${name} now`)
  go.addEventListener("click", () => busy([go], () => confirm({ method: "login" })))
  const actions = element("div", { class: "actions" }, go)
  const form = element(
    "div",
    { class: "confirm", role: "group", "aria-label": `Confirm showing your ${name}` },
    element(
      "p",
      {},
      `Your wallet has no email or passkey to confirm with, so your login is the confirmation: it must be from the last ${asked.withinMinutes} minutes. If it is older, log out and log in again first.`
    ),
    actions
  )
  actions.after(error)
  return { form, focus: go }
}

const exportView = (view: Open, env: SecureViewEnv): HTMLElement => {
  const error = element("p", { id: "wr-secure-error", class: "error", role: "alert" })
  const keys = element("div", { class: "keys" })
  const done = element("button", { type: "button", class: "primary" }, "Done")
  done.addEventListener("click", () => view.finish("done"))
  const say = (problem: string) => void (error.textContent = problem)
  // A key shown, with its Copy.
  const keyField = (family: KeyFamily, key: string): { readonly field: HTMLElement; readonly text: HTMLTextAreaElement } => {
    const name = `${FAMILY_NAMES[family]} private key`
    const id = `wr-secure-key-${family}`
    const text = element("textarea", { id, readonly: "", rows: "3", spellcheck: "false", autocomplete: "off" })
    text.value = key
    const copied = element("span", { role: "status", class: "status" })
    // Named by its key where a view shows two: "Copy" is read first, as it is seen.
    const copy = element("button", { type: "button", class: "secondary", "aria-label": `Copy your ${name}` }, "Copy")
    copy.addEventListener("click", () => {
      navigator.clipboard.writeText(key).then(
        () => void (copied.textContent = "Copied"),
        () => void (copied.textContent = "Copying was refused: select the key and copy it yourself.")
      )
    })
    const head = element("div", { class: "key-head" }, element("label", { for: id }, `Your ${name}`), copy)
    return { field: element("div", { class: "field key" }, head, text, copied), text }
  }
  // The keys, once the confirmation's grants brought their server shares, one after another in `place` (what asked for
  // them), under `shownBefore` when keys are shown already. The first key a round shows takes focus, selected. A key
  // shown stays; the keys a failure left unshown are named under the last one shown (or where the confirmation was:
  // it was used) with a Try again (offerAgain).
  const reveal = (place: HTMLElement, shownBefore?: HTMLElement) => async (grants: ReadonlyArray<ExportGrant>) => {
    let last = shownBefore
    for (const [index, { family, grant }] of grants.entries()) {
      let key: string
      try {
        key = await run(env, (splitKeys) => splitKeys.exportKey(family, grant))
      } catch (failure) {
        if (last === undefined) {
          // Nothing shown yet: the confirmation's place stays, empty, as where the keys will go.
          place.replaceChildren()
          return offerAgain(place, grants.slice(index), failure)
        }
        place.remove()
        return offerAgain(last, grants.slice(index), failure)
      }
      view.shown.push(key)
      const shown = keyField(family, key)
      if (place.isConnected && place !== last) place.replaceWith(shown.field)
      else last?.after(shown.field)
      // The view's alert line, which was under the confirmation, stays in the view.
      shown.field.after(error)
      if (index === 0) {
        shown.text.focus()
        shown.text.select()
      }
      last = shown.field
    }
  }
  // Keys a confirmation's grants did not show, the server having refused one: said by name under the keys shown (or
  // where the confirmation was), with a Try again in place. It asks with the same grants again (a grant the server refused
  // before using it, as when busy or out of reach, is still good once) or, where the server refused the grant itself
  // (used, expired), asks a new confirmation of these keys only: no grant ever shows another key or serves twice.
  const offerAgain = (after: HTMLElement, rest: ReadonlyArray<ExportGrant>, failure: unknown) => {
    const families = rest.map((grant) => grant.family)
    if (!Arr.isReadonlyArrayNonEmpty(families)) return
    const grantRefused = typeof failure === "object" && failure !== null && "code" in failure && failure.code === "export_not_confirmed"
    const again = element("button", { type: "button", class: "secondary", "aria-label": `Try again to show your ${keysNamed(families)}` }, "Try again")
    const actions = element("div", { class: "actions" }, again)
    after.after(error)
    error.after(actions)
    say(`Your ${keysNamed(families)} could not be shown. ${errorText(failure)}`)
    // Its Try again was the button pressed: focus stays on what replaced it.
    if (document.activeElement === null || document.activeElement === document.body) again.focus()
    again.addEventListener("click", () => {
      again.disabled = true
      say("")
      const holder = element("div", {})
      actions.replaceWith(holder)
      const failed = (problem: unknown) => {
        holder.remove()
        offerAgain(after, rest, problem)
      }
      if (!grantRefused) return void reveal(holder, after)(rest).catch(failed)
      env.api.exportStart(tokenOf(env), families).then((asked) => {
        // Its problems (a wrong code, a refused passkey) show under its field or button, as the first confirmation's.
        const confirming = confirmation(env, families, asked, reveal(holder, after), error)
        holder.append(confirming.form)
        confirming.focus.focus()
      }, failed)
    })
  }
  // One button for every key the wallet has: one confirmation shows them all.
  const show = (families: ExportFamilies) => {
    const button = element("button", { type: "button", class: "secondary" }, `Show ${keysNamed(families)}`)
    button.addEventListener("click", () => {
      button.disabled = true
      say("")
      // A fresh confirmation first: the server mails a code or asks for the passkey now.
      env.api.exportStart(tokenOf(env), families).then(
        (asked) => {
          const holder = element("div", {})
          // Its problems (a wrong code, a refused passkey) show under its field or button.
          const confirming = confirmation(env, families, asked, reveal(holder), error)
          holder.append(confirming.form)
          button.replaceWith(holder)
          confirming.focus.focus()
        },
        (failure: unknown) => {
          button.disabled = false
          button.after(error)
          say(errorText(failure))
        }
      )
    })
    return button
  }
  const warningOf = (count: number) =>
    `Anyone who has ${count > 1 ? "these keys" : "this key"} controls your wallet and everything in it. Never share ${count > 1 ? "them" : "it"}, never type ${count > 1 ? "them" : "it"} into a website, and keep ${count > 1 ? "them" : "it"} offline. We will never ask you for ${count > 1 ? "them" : "it"}.`
  const warning = element("p", { class: "warning" }, warningOf(1))
  const body = element(
    "section",
    { "aria-labelledby": "wr-secure-title" },
    element("h1", { id: "wr-secure-title", tabindex: "-1" }, "Export private key"),
    warning,
    keys,
    error,
    element("div", { class: "actions" }, done)
  )
  run(env, (_keys, families) => Effect.succeed(families)).then(
    (families) => {
      if (Arr.isReadonlyArrayNonEmpty(families)) {
        warning.textContent = warningOf(families.length)
        keys.append(show(families))
      }
      else error.textContent = "This wallet has no key of its own to export yet."
    },
    (failure: unknown) => void (error.textContent = errorText(failure))
  )
  return body
}

// The host's accent when the frame takes it for a colour: of the theme's grammar (nothing that could end a declaration
// or fetch, no nested function) and a colour to this browser's own parser. The frame trusts nothing the host sends.
const acceptedAccent = (value: unknown): string | undefined =>
  typeof value === "string" && themeValueIssue("--wr-accent", value) === undefined && CSS.supports("color", value) ? value : undefined

// The host's theme on the document: `data-theme` (none: the system's, through the stylesheet), and its accent as a
// custom property the stylesheet reads (set through the CSSOM, which the page's `style-src 'self'` allows; never as
// CSS text). Where the browser has relative colours, the text on the accent and the accent as text and ring are
// derived from it, as the modal derives its own (readableAccent.ts); elsewhere the stylesheet's plain values stay.
const applyTheme = ({ themeMode, accent }: SecureViewTheme): void => {
  const root = document.documentElement
  if (themeMode === undefined) delete root.dataset["theme"]
  else root.dataset["theme"] = themeMode
  const colour = acceptedAccent(accent)
  if (colour === undefined) root.style.removeProperty("--host-accent")
  else root.style.setProperty("--host-accent", colour)
  if (!CSS.supports(RELATIVE_COLOURS)) return
  const [light, dark] = ["var(--accent-light)", "var(--accent-dark)"]
  root.style.setProperty("--on-accent", `light-dark(${textOn(light)}, ${textOn(dark)})`)
  root.style.setProperty(
    "--accent-text",
    `light-dark(${darkerTo(light, READABLE_LUMINANCE.light)}, ${lighterTo(dark, READABLE_LUMINANCE.dark)})`
  )
}

/** Shows the view `kind` in the frame's document, in the host's `theme`; resolves once the visitor finished or left it. */
export const openSecureView = (kind: SecureViewKind, theme: SecureViewTheme, env: SecureViewEnv): Promise<SecureViewOutcome> => {
  closeSecureView()
  applyTheme(theme)
  return new Promise((resolve) => {
    const root = element("main", { class: "secure-view" })
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return
      event.preventDefault()
      view.finish("cancelled")
    }
    const view: Open = {
      shown: [],
      finish: (outcome) => {
        if (open !== view) return
        open = undefined
        view.shown.length = 0
        root.remove()
        for (const child of document.body.children) child.removeAttribute("hidden")
        document.removeEventListener("keydown", onKey)
        resolve(outcome)
      }
    }
    open = view
    root.append(kind === "protect" ? protectView(view, env) : kind === "recover" ? recoverView(view, env) : exportView(view, env))
    for (const child of document.body.children) child.setAttribute("hidden", "")
    document.body.append(root)
    document.addEventListener("keydown", onKey)
    // The first field, or the heading where there is none: where a keyboard or screen reader starts.
    const first = root.querySelector<HTMLElement>("input") ?? root.querySelector<HTMLElement>("h1")
    first?.focus()
  })
}

/** Applies the host's `theme` to the view showing now, checked as at its opening; with no view showing, nothing. */
export const themeSecureView = (theme: SecureViewTheme): void => {
  if (open !== undefined) applyTheme(theme)
}

/** Ends the open view as cancelled: its element and what it showed go (the host left it). */
export const closeSecureView = (): void => open?.finish("cancelled")

/** What the open view shows that must never leave the frame. */
export const withheldBySecureView = (): ReadonlyArray<string> => open?.shown ?? []
