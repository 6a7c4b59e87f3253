import { type FormEvent, useEffect, useMemo, useState } from "react"
import {
  bitcoinRegtest,
  type CaipNetwork,
  formatUnits,
  localChainA,
  localChainB,
  localSolana,
  parseUnits,
  servicesSiwx,
  type SiweConfig,
  westend,
  withDefaultRpcUrls
} from "wallet-runtime"
import {
  AccountButton,
  ConnectButton,
  NetworkButton,
  useAccount,
  useBalances,
  useNetwork,
  useOnramp,
  useSendCalls,
  useSendTransaction,
  useSession,
  useSignMessage,
  useSwap,
  useTheme,
  useWalletRequest,
  WalletModal,
  WalletRuntimeProvider
} from "wallet-runtime/react"
import type { DemoStack } from "./config"
import { devWalletEnabled, setDevWalletEnabled } from "./devWalletSwitch"
import { connectViewOptions, setTermsMode, setWalletsFolded, type TermsMode, termsMode, walletsFolded } from "./connectViewSwitch"
import { type SignInMode, setSignInMode, signInMode } from "./signInSwitch"
import { SpendingPermission } from "./SpendingPermission"
import { storedThemeMode, storeThemeMode } from "./themeSwitch"
import * as css from "./styles"

// The local networks have no explorer of their own: the stack's explorer is given as a host gives its networks' one.
const withExplorer = (network: CaipNetwork, stack: DemoStack): CaipNetwork =>
  stack.explorerUrl === undefined
    ? network
    : { ...network, blockExplorers: { default: { name: "Local explorer", url: `${stack.explorerUrl}/${network.caipNetworkId}` } } }

const networksOf = (stack: DemoStack) => [
  ...[localChainA, localChainB].flatMap((network) => {
    const chain = stack.chains.find((c) => c.chainId === network.id)
    return chain === undefined ? [] : [withExplorer(withDefaultRpcUrls(network, { http: [chain.rpcUrl] }), stack)]
  }),
  ...(stack.solana !== null && stack.solana.caipNetworkId === localSolana.caipNetworkId
    ? [withExplorer(withDefaultRpcUrls(localSolana, { http: [stack.solana.rpcUrl] }), stack)]
    : []),
  // The stack runs no Polkadot node: Westend is listed for connecting and signing, which need no chain, and nothing
  // reads it (balances are eip155/solana only), so its endpoint is the stack's RPC proxy, never Westend's public node.
  withDefaultRpcUrls(westend, { http: [stack.rpcProxyUrl] }),
  // The stack's regtest node, read through its Esplora-style API (UTXOs, fees, confirmations) by the bip122 family.
  ...(stack.bitcoin !== undefined && stack.bitcoin !== null && stack.bitcoin.caipNetworkId === bitcoinRegtest.caipNetworkId
    ? [withDefaultRpcUrls(bitcoinRegtest, { http: [stack.bitcoin.url] })]
    : [])
]

/**
 * `?families=eip155,solana` in the page's address keeps the networks of those families only, as a host configuring
 * fewer families would (e.g. WalletConnect's one-click sign-in, which serves EVM-only sessions).
 */
const ofFamiliesAsked = <N extends { readonly chainNamespace: string }>(networks: ReadonlyArray<N>): ReadonlyArray<N> => {
  const asked = new URLSearchParams(location.search).get("families")
  if (asked === null) return networks
  const families = new Set(asked.split(","))
  return networks.filter((network) => families.has(network.chainNamespace))
}

/**
 * `?networkSwitch=off`, `?unsupportedChain=allow` and `?basic=on` in the page's address set the host options of the
 * same names (`enableNetworkSwitch: false`, `allowUnsupportedChain: true`, `basic: true`), as a host would.
 */
const networkOptionsAsked = () => {
  const query = new URLSearchParams(location.search)
  return {
    ...(query.get("networkSwitch") === "off" ? { enableNetworkSwitch: false } : {}),
    ...(query.get("unsupportedChain") === "allow" ? { allowUnsupportedChain: true } : {}),
    ...(query.get("basic") === "on" ? { basic: true } : {})
  }
}

/** `?accent=%23e0005a` in the page's address sets the host's accent (`themeVariables["--wr-accent"]`), as a host would. */
const accentAsked = () => {
  const accent = new URLSearchParams(location.search).get("accent")
  return accent === null ? {} : { themeVariables: { "--wr-accent": accent } }
}

const MINI_APP_OSES = ["ios", "android", "mac", "other"] as const
const miniAppParam = (): (typeof MINI_APP_OSES)[number] | undefined =>
  MINI_APP_OSES.find((os) => os === new URLSearchParams(location.search).get("miniapp"))

/** The demo host app: a header with the wallet buttons, and what a dapp does with a connected wallet. */
export function App({ stack, siweConfig }: { readonly stack: DemoStack; readonly siweConfig?: SiweConfig | undefined }) {
  const options = useMemo(() => {
    const token = stack.solana?.tokens[0]
    const { features, ...legal } = connectViewOptions(location.origin)
    return {
      ...legal,
      projectId: stack.projectId,
      networks: ofFamiliesAsked(networksOf(stack)),
      ...networkOptionsAsked(),
      ...(storedThemeMode() !== undefined ? { themeMode: storedThemeMode() } : {}),
      ...accentAsked(),
      metadata: { name: "Wallet Runtime demo", description: "The demo host app", url: location.origin, icons: [] },
      ...(token !== undefined ? { tokens: { [localSolana.caipNetworkId]: { address: token.address, symbol: token.symbol } } } : {}),
      ...(stack.nameSuffix !== undefined ? { nameSuffix: stack.nameSuffix } : {}),
      // "siwe": the demo's own legacy siweConfig (main.tsx loads it in that mode only); "on"/"required": the services'.
      ...(siweConfig !== undefined
        ? { siweConfig }
        : signInMode() === "on" || signInMode() === "required"
          ? { siwx: servicesSiwx({ required: signInMode() === "required" }) }
          : {}),
      // `?miniapp=ios|android|mac|other`: behave as inside a messenger's mini-app on that OS (social login by redirect).
      ...(miniAppParam() !== undefined ? { miniApp: miniAppParam() } : {}),
      // Email, passkey and social login need the stack's embedded wallet (its frame site and the local identity
      // providers); without it, the demo offers wallets only. The six providers the stack runs and Farcaster, in the
      // default order.
      features: {
        ...features,
        ...(typeof stack.frameUrl === "string"
          ? { passkey: true, socials: ["google", "x", "discord", "farcaster", "github", "apple", "facebook"] as const }
          : { email: false, socials: false as const })
      },
      endpoints: {
        rpcProxy: stack.servicesUrl,
        blockchainApi: stack.servicesUrl,
        walletCatalog: stack.servicesUrl,
        ...(stack.relayUrl !== null ? { relay: stack.relayUrl } : {}),
        ...(typeof stack.frameUrl === "string" ? { frame: stack.frameUrl } : {})
      }
    }
  }, [stack, siweConfig])
  return (
    <WalletRuntimeProvider options={options}>
      <div style={css.page}>
        <header style={css.header}>
          <h1 className="demo-title" style={css.title}>Wallet Runtime demo</h1>
          <div style={css.row}>
            <ThemeToggle />
            <NetworkButton />
            <AccountOrConnect />
          </div>
        </header>
        <main style={css.main}>
          <DevWalletSwitch />
          <SignIn />
          <ConnectViewSettings />
          <Balances />
          <SwapAndBuy />
          <SignMessage />
          <WalletRequest />
          <SendTransaction stack={stack} />
          <SendBatch />
          <SpendingPermission />
        </main>
      </div>
      <WalletModal />
    </WalletRuntimeProvider>
  )
}

// The page and the modal share one theme: the page's colours follow the mode the modal shows.
function ThemeToggle() {
  const { themeMode, setThemeMode } = useTheme()
  useEffect(() => {
    document.documentElement.dataset["theme"] = themeMode
  }, [themeMode])
  const next = themeMode === "dark" ? "light" : "dark"
  return (
    <button
      type="button"
      style={css.toggle}
      aria-pressed={themeMode === "dark"}
      aria-label="Dark theme"
      onClick={() => {
        storeThemeMode(next)
        void setThemeMode(next)
      }}
    >
      <span aria-hidden="true">{themeMode === "dark" ? "☾" : "☀"}</span>
      <span className="demo-wide-only"> Dark theme</span>
    </button>
  )
}

function AccountOrConnect() {
  const { isConnected } = useAccount()
  return isConnected ? <AccountButton /> : <ConnectButton />
}

/** A setting of the demo, kept on this browser; it takes effect on reload (the runtime reads its options once). */
function SettingCheckbox(props: { readonly initial: () => boolean; readonly keep: (on: boolean) => void; readonly label: string }) {
  const [on, setOn] = useState(props.initial)
  return (
    <label style={css.row}>
      <input
        type="checkbox"
        checked={on}
        onChange={(event) => {
          setOn(event.target.checked)
          props.keep(event.target.checked)
          location.reload()
        }}
      />
      {props.label}
    </label>
  )
}

/** A setting of the demo with a few choices, kept on this browser; it takes effect on reload. */
function SettingSelect<T extends string>(props: {
  readonly initial: () => T
  readonly keep: (value: T) => void
  readonly label: string
  readonly choices: ReadonlyArray<readonly [value: T, words: string]>
}) {
  const [value, setValue] = useState<T>(props.initial)
  return (
    <label style={css.row}>
      {props.label}
      <select
        value={value}
        style={css.input}
        onChange={(event) => {
          const next = event.target.value as T
          setValue(next)
          props.keep(next)
          location.reload()
        }}
      >
        {props.choices.map(([choice, words]) => (
          <option key={choice} value={choice}>
            {words}
          </option>
        ))}
      </select>
    </label>
  )
}

function DevWalletSwitch() {
  return (
    <section style={css.card} aria-labelledby="dev-wallet-title">
      <h2 id="dev-wallet-title" style={css.cardTitle}>Development wallet</h2>
      <p style={css.hint}>
        No wallet extension? Switch on the development wallet: one wallet for EVM and Solana holding the local stack's
        first dev keys (public, local chains only); it asks before it signs. The page reloads, as after installing an
        extension.
      </p>
      <SettingCheckbox initial={devWalletEnabled} keep={setDevWalletEnabled} label="Use the development wallet" />
    </section>
  )
}

/** How the host sets up the Connect view: its Terms and Privacy Policy, and wallets folded beside email. */
function ConnectViewSettings() {
  return (
    <section style={css.card} aria-labelledby="connect-view-title">
      <h2 id="connect-view-title" style={css.cardTitle}>The Connect view</h2>
      <p style={css.hint}>
        A host can link its Terms and Privacy Policy under the wallets, or ask visitors to tick a box agreeing to them
        before any way to connect can be used; and it can fold the wallets into one row beside email.
      </p>
      <SettingSelect<TermsMode>
        initial={termsMode}
        keep={setTermsMode}
        label="Terms and Privacy Policy"
        choices={[
          ["off", "Not linked"],
          ["notice", "Linked under the wallets"],
          ["agree", "A box to tick first"]
        ]}
      />
      <SettingCheckbox initial={walletsFolded} keep={setWalletsFolded} label="Fold the wallets beside email" />
    </section>
  )
}

const SESSION_TEXT: Readonly<Record<string, string>> = {
  disabled: "Sign-in is off.",
  signedOut: "Connect a wallet to sign in.",
  checking: "Checking for a session…",
  needed: "Not signed in: the account has no session yet.",
  signedIn: "Signed in."
}

/** Until when a session holds, in words ('Dec 7, 2026, 5:09 AM'); the message's own text if it is not a date. */
const untilText = (expirationTime: string | undefined): string => {
  if (expirationTime === undefined) return "revoked"
  const until = new Date(expirationTime)
  return Number.isNaN(until.getTime()) ? expirationTime : until.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })
}

function SignIn() {
  const session = useSession()
  return (
    <section style={css.card} aria-labelledby="sign-in-title">
      <h2 id="sign-in-title" style={css.cardTitle}>Sign in with the wallet</h2>
      <p style={css.hint}>
        After connecting, the visitor signs a message that proves the account is theirs; the local services check the
        signature and keep the session, so it survives a reload. Required: the modal cannot be closed without it.
      </p>
      <SettingSelect<SignInMode>
        initial={signInMode}
        keep={setSignInMode}
        label="Sign-in"
        choices={[
          ["off", "Off"],
          ["on", "On"],
          ["required", "Required"],
          ["siwe", "The site's own (siweConfig)"]
        ]}
      />
      <output data-testid="session" aria-live="polite" style={css.output}>
        {SESSION_TEXT[session.status]}
        {session.session !== undefined ? ` Until ${untilText(session.session.data.expirationTime)}.` : ""}
      </output>
      {session.status === "signedIn" && (
        <button type="button" style={css.button} onClick={() => void session.signOut()}>
          Sign out
        </button>
      )}
      {session.status === "needed" && (
        <button type="button" style={css.button} onClick={() => void session.signIn()}>
          Sign in
        </button>
      )}
    </section>
  )
}

const FAMILY: Readonly<Record<string, string>> = { eip155: "EVM", solana: "Solana", bip122: "Bitcoin", polkadot: "Polkadot" }

// A family without balances (Polkadot) says so: that is not an error of the page.
const isUnavailable = (error: Error): boolean => (error as { readonly _tag?: unknown })._tag === "FeatureUnavailable"

function Balances() {
  const { isConnected, namespace } = useAccount()
  const { network } = useNetwork()
  const balances = useBalances()
  return (
    <section style={css.card} aria-labelledby="balances-title">
      <h2 id="balances-title" style={css.cardTitle}>Balances</h2>
      {!isConnected && <p style={css.hint}>Connect a wallet first.</p>}
      {isConnected && (
        <p style={css.hint}>
          Read from {network?.name ?? "the network"} ({FAMILY[namespace ?? ""] ?? namespace}) through its RPC.
        </p>
      )}
      <output data-testid="balances" aria-live="polite" style={css.output}>
        {balances.status === "pending" && "Reading…"}
        {balances.status === "error" && (isUnavailable(balances.error) ? balances.error.message : `Error: ${balances.error.message}`)}
        {balances.status === "success" && (
          <ul style={css.list}>
            {balances.data.map((balance) => (
              <li key={balance.token ?? "native"} data-symbol={balance.symbol}>
                {balance.formatted} {balance.symbol}
              </li>
            ))}
          </ul>
        )}
      </output>
    </section>
  )
}

/** A host's own Swap and Buy buttons: `useSwap().open()` and `useOnramp().open()` open the modal on those views. */
function SwapAndBuy() {
  const { isConnected } = useAccount()
  const swap = useSwap()
  const onramp = useOnramp()
  return (
    <section style={css.card} aria-labelledby="swap-buy-title">
      <h2 id="swap-buy-title" style={css.cardTitle}>Swap and buy</h2>
      <p style={css.hint}>The page's own buttons, opening the modal on its Swap or Buy view.</p>
      {!isConnected && <p style={css.hint}>Connect a wallet first.</p>}
      <div style={css.row}>
        <button type="button" disabled={!isConnected} style={css.button} onClick={() => void swap.open()}>
          Swap from the page
        </button>
        <button type="button" disabled={!isConnected} style={css.button} onClick={() => void onramp.open()}>
          Buy from the page
        </button>
      </div>
    </section>
  )
}

function SignMessage() {
  const { isConnected, namespace } = useAccount()
  const sign = useSignMessage()
  const [message, setMessage] = useState("Hello from the Wallet Runtime demo")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void sign.signMessage(message).catch(() => undefined)
  }
  return (
    <section style={css.card} aria-labelledby="sign-title">
      <h2 id="sign-title" style={css.cardTitle}>Sign a message</h2>
      <form onSubmit={submit} style={css.form}>
        <label htmlFor="sign-message">Message</label>
        <textarea id="sign-message" value={message} onChange={(e) => setMessage(e.target.value)} rows={3} style={css.input} />
        <button type="submit" disabled={!isConnected || sign.status === "pending"} style={css.button}>
          {sign.status === "pending" ? "Waiting for the wallet…" : "Sign message"}
        </button>
      </form>
      {!isConnected && <p style={css.hint}>Connect a wallet first.</p>}
      {isConnected && <p style={css.hint}>Signed by the {FAMILY[namespace ?? ""] ?? namespace} account in front.</p>}
      <output data-testid="signature" aria-live="polite" style={css.output}>
        {sign.status === "success" ? sign.data : sign.status === "error" ? `Error: ${sign.error.message}` : ""}
      </output>
    </section>
  )
}

/** Any request a dapp may send the wallet in front: a method and its params as JSON. */
function WalletRequest() {
  const { isConnected } = useAccount()
  const call = useWalletRequest()
  const [method, setMethod] = useState("eth_blockNumber")
  const [params, setParams] = useState("[]")
  let parsed: { readonly ok: true; readonly value: unknown } | { readonly ok: false } = { ok: true, value: undefined }
  if (params.trim() !== "") {
    try {
      parsed = { ok: true, value: JSON.parse(params) as unknown }
    } catch {
      parsed = { ok: false }
    }
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (parsed.ok) void call.request(method.trim(), parsed.value).catch(() => undefined)
  }
  return (
    <section style={css.card} aria-labelledby="request-title">
      <h2 id="request-title" style={css.cardTitle}>Send a wallet request</h2>
      <form onSubmit={submit} style={css.form}>
        <label htmlFor="request-method">Method</label>
        <input id="request-method" value={method} onChange={(e) => setMethod(e.target.value)} style={css.input} spellCheck={false} />
        <label htmlFor="request-params">Params (JSON)</label>
        <textarea id="request-params" value={params} onChange={(e) => setParams(e.target.value)} rows={2} style={css.input} spellCheck={false} />
        <button type="submit" disabled={!isConnected || !parsed.ok || method.trim() === "" || call.status === "pending"} style={css.button}>
          {call.status === "pending" ? "Waiting for the wallet…" : "Send request"}
        </button>
      </form>
      {!parsed.ok && <p style={css.hint}>The params are not valid JSON.</p>}
      <output data-testid="request" aria-live="polite" style={css.output}>
        {call.status === "success" ? JSON.stringify(call.data) : call.status === "error" ? `Error: ${call.error.message}` : ""}
      </output>
    </section>
  )
}

function SendTransaction({ stack }: { readonly stack: DemoStack }) {
  const { isConnected, address, namespace } = useAccount()
  const { network } = useNetwork()
  const send = useSendTransaction()
  const solana = namespace === "solana"
  const bitcoin = namespace === "bip122"
  const tokens = solana ? (stack.solana?.tokens ?? []) : []
  const [to, setTo] = useState<string>("")
  const [amount, setAmount] = useState("0.01")
  const [tokenAddress, setTokenAddress] = useState("")
  const token = tokens.find((t) => t.address === tokenAddress)
  const symbol = token?.symbol ?? network?.nativeCurrency.symbol ?? ""
  const decimals = token?.decimals ?? network?.nativeCurrency.decimals ?? 18
  const value = parseUnits(amount, decimals)
  const receiver = to !== "" ? to : solana || bitcoin ? "" : "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (value === undefined || receiver === "") return
    void send.sendTransaction({ to: receiver, value, ...(token !== undefined ? { token: token.address } : {}) }).catch(() => undefined)
  }
  return (
    <section style={css.card} aria-labelledby="send-title">
      <h2 id="send-title" style={css.cardTitle}>Send a transaction</h2>
      <form onSubmit={submit} style={css.form}>
        <label htmlFor="send-to">To</label>
        <input
          id="send-to"
          value={to}
          placeholder={solana ? "A Solana address" : bitcoin ? "A Bitcoin address (bcrt1…)" : "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}
          onChange={(e) => setTo(e.target.value)}
          style={css.input}
          spellCheck={false}
        />
        {tokens.length > 0 && (
          <>
            <label htmlFor="send-token">Token</label>
            <select id="send-token" value={tokenAddress} onChange={(e) => setTokenAddress(e.target.value)} style={css.input}>
              <option value="">{network?.nativeCurrency.symbol ?? "Native"}</option>
              {tokens.map((t) => (
                <option key={t.address} value={t.address}>
                  {t.symbol}
                </option>
              ))}
            </select>
          </>
        )}
        <label htmlFor="send-amount">{symbol !== "" ? `Amount (${symbol})` : "Amount"}</label>
        <input id="send-amount" value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" style={css.input} />
        <button type="submit" disabled={!isConnected || value === undefined || receiver === "" || send.status === "pending"} style={css.button}>
          {send.status === "pending" ? (send.hash === undefined ? "Waiting for the wallet…" : "Waiting to be confirmed…") : "Send"}
        </button>
      </form>
      {value === undefined && <p style={css.hint}>Enter an amount in {symbol}, e.g. 0.01.</p>}
      <output data-testid="transaction" aria-live="polite" style={css.output}>
        {send.hash !== undefined && <span>{solana ? "Signature" : "Hash"}: {send.hash}</span>}
        {send.status === "success" && <span> · confirmed in {solana ? "slot" : "block"} {String(send.data.blockNumber)}</span>}
        {send.status === "error" && <span>Error: {send.error.message}</span>}
      </output>
      <p style={css.hint}>
        From {address ?? "the connected account"} on {network?.name ?? "the local chains"}
        {value !== undefined && value > 0n ? ` (${formatUnits(value, decimals)} ${symbol})` : ""}.
      </p>
    </section>
  )
}

/** Two transfers in one batch (EIP-5792 `wallet_sendCalls`), followed by `useSendCalls` to their final status. */
function SendBatch() {
  const { isConnected, namespace } = useAccount()
  const batch = useSendCalls()
  const [to, setTo] = useState("")
  const receiver = to !== "" ? to : "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const calls = [parseUnits("0.001", 18), parseUnits("0.002", 18)].map((value) => ({ to: receiver, value }))
    void batch.sendCalls({ calls }).catch(() => undefined)
  }
  return (
    <section style={css.card} aria-labelledby="batch-title">
      <h2 id="batch-title" style={css.cardTitle}>Send a batch</h2>
      <form onSubmit={submit} style={css.form}>
        <label htmlFor="batch-to">Batch receiver</label>
        <input id="batch-to" value={to} placeholder={receiver} onChange={(e) => setTo(e.target.value)} style={css.input} spellCheck={false} />
        <button type="submit" disabled={!isConnected || namespace !== "eip155" || batch.status === "pending"} style={css.button}>
          {batch.status === "pending" ? (batch.id === undefined ? "Waiting for the wallet…" : "Waiting to be confirmed…") : "Send 0.001 and 0.002 ETH together"}
        </button>
      </form>
      <output data-testid="batch" aria-live="polite" style={css.output}>
        {batch.status === "success" &&
          `Done in ${batch.data.receipts?.length ?? 0} transaction(s): ${(batch.data.receipts ?? []).map((receipt) => receipt.transactionHash).join(", ")}`}
        {batch.status === "error" && `Error: ${batch.error.message}`}
      </output>
      <p style={css.hint}>One transaction where the wallet can run calls together (the embedded wallet's smart account, a wallet with EIP-7702).</p>
    </section>
  )
}
