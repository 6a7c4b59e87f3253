/**
 * The test wallet page's DOM: it renders the wallet's state into the static skeleton of `index.html` and wires the
 * controls to the wallet's actions. Lists are keyed, so cards that stay keep their focus while others come and go.
 */
import type { PageConfig } from "./config"
import { polkadotPageAccounts } from "./polkadot"
import type { Field } from "./requests"
import type { PageWallet, PendingAuthRequest, PendingProposal, PendingRequest, SessionInfo, WalletState } from "./wallet"

type Attributes = Readonly<Record<string, string>>

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: ReadonlyArray<Node | string>
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the page has no #${id}`)
  return element as T
}

const details = (fields: ReadonlyArray<Field>): HTMLDListElement =>
  el(
    "dl",
    {},
    ...fields.flatMap((field) => [el("dt", {}, field.label), el("dd", {}, field.code === true ? el("pre", {}, field.value) : field.value)])
  )

/** Keeps `list`'s children in the order of `items`, making elements only for new keys. */
const syncList = <T>(
  list: HTMLElement,
  items: ReadonlyArray<T>,
  key: (item: T) => string,
  create: (item: T) => HTMLElement,
  update: (element: HTMLElement, item: T) => void
): void => {
  const existing = new Map<string, HTMLElement>()
  for (const child of Array.from(list.children)) {
    if (child instanceof HTMLElement && child.dataset["key"] !== undefined) existing.set(child.dataset["key"], child)
  }
  const wanted = new Set(items.map(key))
  for (const [k, element] of existing) if (!wanted.has(k)) element.remove()
  let previous: Element | null = null
  for (const item of items) {
    const k = key(item)
    let element = existing.get(k)
    if (element === undefined) {
      element = create(item)
      element.dataset["key"] = k
    }
    update(element, item)
    const expectedPosition: Element | null = previous === null ? list.firstElementChild : previous.nextElementSibling
    if (expectedPosition !== element) {
      if (previous === null) list.prepend(element)
      else previous.after(element)
    }
    previous = element
  }
}

/** Renders `wallet` into the page and wires its controls. */
export const mountView = (config: PageConfig, wallet: PageWallet): void => {
  const status = byId<HTMLParagraphElement>("status")
  const account = byId<HTMLSelectElement>("account")
  const solanaField = byId<HTMLDivElement>("solana-account-field")
  const solanaAccount = byId<HTMLSelectElement>("solana-account")
  const polkadotAccount = byId<HTMLSelectElement>("polkadot-account")
  const balances = byId<HTMLParagraphElement>("balances")
  const form = byId<HTMLFormElement>("pair-form")
  const uri = byId<HTMLInputElement>("uri")
  const pairButton = byId<HTMLButtonElement>("pair-button")
  const uriError = byId<HTMLParagraphElement>("uri-error")
  const oneClick = byId<HTMLInputElement>("one-click")
  const pending = byId<HTMLUListElement>("pending")
  const pendingEmpty = byId<HTMLParagraphElement>("pending-empty")
  const pendingTitle = byId<HTMLHeadingElement>("pending-title")
  const sessions = byId<HTMLUListElement>("sessions")
  const sessionsEmpty = byId<HTMLParagraphElement>("sessions-empty")
  const sessionsTitle = byId<HTMLHeadingElement>("sessions-title")
  const activity = byId<HTMLUListElement>("activity")

  const chainLabel = (caip: string): string =>
    config.chains.find((chain) => chain.caipNetworkId === caip)?.name ?? (caip === config.solana?.caipNetworkId ? config.solana.name : caip)
  const networks = [...config.chains, ...(config.solana === null ? [] : [config.solana])]

  for (const a of config.accounts) account.append(el("option", { value: String(a.index) }, `#${a.index} — ${a.address}`))
  account.addEventListener("change", () => wallet.selectAccount(Number(account.value)))
  for (const a of config.solana?.accounts ?? []) solanaAccount.append(el("option", { value: String(a.index) }, `#${a.index} — ${a.address}`))
  solanaAccount.addEventListener("change", () => wallet.selectSolanaAccount(Number(solanaAccount.value)))
  solanaField.hidden = config.solana === null
  for (const a of polkadotPageAccounts) polkadotAccount.append(el("option", { value: String(a.index) }, `${a.uri} — ${a.type}`))
  polkadotAccount.addEventListener("change", () => wallet.selectPolkadotAccount(Number(polkadotAccount.value)))
  oneClick.addEventListener("change", () => wallet.setOneClick(oneClick.checked))
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void wallet.pair(uri.value).then(() => {
      if (wallet.state().pairingError === undefined) uri.value = ""
    })
  })

  // When the card holding the focus goes, the focus moves to the next card of its list, or to the list's heading.
  const keepFocus = (list: HTMLElement, heading: HTMLElement, change: () => void) => {
    const focused = document.activeElement
    const card = focused instanceof HTMLElement ? focused.closest<HTMLElement>("li[data-key]") : null
    const inList = card !== null && card.parentElement === list
    const index = inList ? Array.from(list.children).indexOf(card) : -1
    change()
    if (inList && !card.isConnected) {
      const next = list.children[Math.min(index, list.children.length - 1)]
      const target = next?.querySelector<HTMLElement>("h3") ?? heading
      target.focus()
    }
  }

  const actionButtons = (id: number, approve: () => Promise<void>, reject: () => Promise<void>, titleId: string) => {
    const approveButton = el("button", { type: "button", "aria-describedby": titleId, "data-action": "approve" }, "Approve")
    const rejectButton = el("button", { type: "button", class: "secondary", "aria-describedby": titleId, "data-action": "reject" }, "Reject")
    approveButton.addEventListener("click", () => void approve())
    rejectButton.addEventListener("click", () => void reject())
    return el("div", { class: "actions", "data-id": String(id) }, approveButton, rejectButton)
  }

  const proposalCard = (proposal: PendingProposal): HTMLElement => {
    const titleId = `proposal-${proposal.id}`
    const fields: Array<Field> = [
      { label: "Site", value: proposal.dapp.url || "(not given)" },
      ...(proposal.dapp.description === "" ? [] : [{ label: "About", value: proposal.dapp.description }]),
      { label: "Networks", value: proposal.chains.map(chainLabel).join(", ") || "(none named)" },
      { label: "Methods", value: proposal.methods.join(", ") || "(none)" },
      ...(proposal.events.length === 0 ? [] : [{ label: "Events", value: proposal.events.join(", ") }])
    ]
    return el(
      "li",
      { class: "card" },
      el(
        "article",
        { "aria-labelledby": titleId },
        el("h3", { id: titleId, tabindex: "-1" }, `${proposal.dapp.name} asks to connect`),
        details(fields),
        el("p", { class: "help", "data-role": "account" }),
        ...(proposal.problem === undefined ? [] : [el("p", { class: "error" }, `Cannot approve: ${proposal.problem}`)]),
        actionButtons(proposal.id, () => wallet.approveProposal(proposal.id), () => wallet.rejectProposal(proposal.id), titleId)
      )
    )
  }

  const authRequestCard = (request: PendingAuthRequest): HTMLElement => {
    const titleId = `auth-${request.id}`
    const fields: Array<Field> = [
      { label: "Site", value: request.dapp.url || "(not given)" },
      { label: "Signs in to", value: request.summary.domain },
      ...(request.summary.statement === "" ? [] : [{ label: "Statement", value: request.summary.statement }]),
      { label: "Networks", value: request.summary.chains.map(chainLabel).join(", ") || "(none named)" },
      { label: "Methods", value: request.summary.methods.join(", ") || "(none)" }
    ]
    return el(
      "li",
      { class: "card" },
      el(
        "article",
        { "aria-labelledby": titleId },
        el("h3", { id: titleId, tabindex: "-1" }, `${request.dapp.name} asks to connect and sign in`),
        details(fields),
        el("p", { class: "help", "data-role": "account" }),
        ...(request.problem === undefined ? [] : [el("p", { class: "error" }, `Cannot approve: ${request.problem}`)]),
        actionButtons(request.id, () => wallet.approveAuthRequest(request.id), () => wallet.rejectAuthRequest(request.id), titleId)
      )
    )
  }

  const requestCard = (request: PendingRequest): HTMLElement => {
    const titleId = `request-${request.id}`
    return el(
      "li",
      { class: "card" },
      el(
        "article",
        { "aria-labelledby": titleId },
        el("h3", { id: titleId, tabindex: "-1" }, request.summary.title),
        el("p", { class: "from" }, `Asked by ${request.dapp.name} on ${chainLabel(request.chainId)}`),
        details(request.summary.fields),
        actionButtons(request.id, () => wallet.approveRequest(request.id), () => wallet.rejectRequest(request.id), titleId)
      )
    )
  }

  const sessionCard = (session: SessionInfo): HTMLElement => {
    const titleId = `session-${session.topic.slice(0, 12)}`
    const disconnect = el("button", { type: "button", class: "secondary", "aria-describedby": titleId }, "Disconnect")
    disconnect.addEventListener("click", () => {
      disconnect.disabled = true
      void wallet.disconnect(session.topic)
    })
    return el(
      "li",
      { class: "card" },
      el(
        "article",
        { "aria-labelledby": titleId },
        el("h3", { id: titleId, tabindex: "-1" }, session.dapp.name),
        details([
          { label: "Site", value: session.dapp.url || "(not given)" },
          { label: session.accounts.length === 1 ? "Account" : "Accounts", value: session.accounts.join("\n"), code: true },
          { label: "Networks", value: session.chains.map(chainLabel).join(", ") },
          { label: "Expires", value: new Date(session.expiry * 1000).toLocaleString() }
        ]),
        el("div", { class: "actions" }, disconnect)
      )
    )
  }

  type Pending =
    | { readonly kind: "proposal"; readonly item: PendingProposal }
    | { readonly kind: "auth"; readonly item: PendingAuthRequest }
    | { readonly kind: "request"; readonly item: PendingRequest }

  const render = (state: WalletState) => {
    status.dataset["phase"] = state.phase
    status.textContent =
      state.phase === "starting"
        ? "Starting…"
        : state.phase === "failed"
          ? (state.problem ?? "The wallet could not start.")
          : `Ready. ${state.sessions.length === 1 ? "1 dapp is" : `${state.sessions.length} dapps are`} connected.`

    if (account.value !== String(state.accountIndex)) account.value = String(state.accountIndex)
    if (solanaAccount.value !== String(state.solanaAccountIndex)) solanaAccount.value = String(state.solanaAccountIndex)
    if (polkadotAccount.value !== String(state.polkadotAccountIndex)) polkadotAccount.value = String(state.polkadotAccountIndex)
    balances.textContent =
      state.balances.size === 0
        ? ""
        : `Balance: ${networks
            .flatMap((network) => {
              const balance = state.balances.get(network.caipNetworkId)
              return balance === undefined ? [] : [`${balance} on ${network.name}`]
            })
            .join(" · ")}`

    pairButton.disabled = state.pairing || state.phase !== "ready"
    oneClick.checked = state.oneClick
    uriError.textContent = state.pairingError ?? ""
    if (state.pairingError === undefined) uri.removeAttribute("aria-invalid")
    else uri.setAttribute("aria-invalid", "true")

    const selected = config.accounts.find((a) => a.index === state.accountIndex)
    const selectedSolana = config.solana?.accounts.find((a) => a.index === state.solanaAccountIndex)
    const items: ReadonlyArray<Pending> = [
      ...state.proposals.map((item): Pending => ({ kind: "proposal", item })),
      ...state.authRequests.map((item): Pending => ({ kind: "auth", item })),
      ...state.requests.map((item): Pending => ({ kind: "request", item }))
    ]
    keepFocus(pending, pendingTitle, () =>
      syncList(
        pending,
        items,
        (p) => `${p.kind}-${p.item.id}`,
        (p) => (p.kind === "proposal" ? proposalCard(p.item) : p.kind === "auth" ? authRequestCard(p.item) : requestCard(p.item)),
        (element, p) => {
          const busy = state.busy.has(p.item.id)
          const blocked = (p.kind === "proposal" || p.kind === "auth") && p.item.problem !== undefined
          for (const button of element.querySelectorAll<HTMLButtonElement>("button[data-action]")) {
            button.disabled = busy || (blocked && button.dataset["action"] === "approve")
          }
          const accountLine = element.querySelector<HTMLElement>('[data-role="account"]')
          if (accountLine !== null && p.kind === "proposal") {
            const shared = [
              ...(p.item.families.includes("eip155") && selected !== undefined ? [`account #${selected.index} (${selected.address})`] : []),
              ...(p.item.families.includes("solana") && selectedSolana !== undefined
                ? [`Solana account #${selectedSolana.index} (${selectedSolana.address})`]
                : []),
              ...(p.item.families.includes("polkadot") ? [`Polkadot account ${polkadotPageAccounts[state.polkadotAccountIndex]?.uri ?? ""}`] : [])
            ]
            accountLine.textContent = shared.length === 0 ? "" : `Approving shares ${shared.join(" and ")}; change it above.`
          }
          if (accountLine !== null && p.kind === "auth") {
            const networks = p.item.summary.chains.filter((chain) => config.chains.some((c) => c.caipNetworkId === chain)).length
            accountLine.textContent =
              selected === undefined
                ? ""
                : `Approving shares account #${selected.index} (${selected.address}) and signs ${networks === 1 ? "one message" : `${networks} messages, one per network`}; change the account above.`
          }
        }
      )
    )
    pendingEmpty.hidden = items.length > 0

    keepFocus(sessions, sessionsTitle, () =>
      syncList(sessions, state.sessions, (s) => s.topic, sessionCard, () => undefined)
    )
    sessionsEmpty.hidden = state.sessions.length > 0

    syncList(
      activity,
      state.notices,
      (n) => String(n.id),
      (n) => el("li", { "data-tone": n.tone }, el("time", { datetime: n.at.toISOString() }, n.at.toLocaleTimeString()), n.text),
      () => undefined
    )
  }

  render(wallet.state())
  wallet.subscribe(render)
}
