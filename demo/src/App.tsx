import { type FormEvent, useMemo, useState } from "react"
import { localChainA, localChainB, withDefaultRpcUrls } from "wallet-runtime"
import {
  AccountButton,
  ConnectButton,
  NetworkButton,
  useAccount,
  useSendTransaction,
  useSignMessage,
  WalletModal,
  WalletRuntimeProvider
} from "wallet-runtime/react"
import type { DemoStack } from "./config"
import { devWalletEnabled, setDevWalletEnabled } from "./devWalletSwitch"
import * as css from "./styles"

const networksOf = (stack: DemoStack) =>
  [localChainA, localChainB].flatMap((network) => {
    const chain = stack.chains.find((c) => c.chainId === network.id)
    return chain === undefined ? [] : [withDefaultRpcUrls(network, { http: [chain.rpcUrl] })]
  })

/** The demo host app: a header with the wallet buttons, and what a dapp does with a connected wallet. */
export function App({ stack }: { readonly stack: DemoStack }) {
  const options = useMemo(
    () => ({
      projectId: stack.projectId,
      networks: networksOf(stack),
      metadata: { name: "Wallet Runtime demo", description: "The demo host app", url: location.origin, icons: [] },
      endpoints: {
        rpcProxy: stack.servicesUrl,
        blockchainApi: stack.servicesUrl,
        walletCatalog: stack.servicesUrl,
        ...(stack.relayUrl !== null ? { relay: stack.relayUrl } : {})
      }
    }),
    [stack]
  )
  return (
    <WalletRuntimeProvider options={options}>
      <div style={css.page}>
        <header style={css.header}>
          <h1 style={css.title}>Wallet Runtime demo</h1>
          <div style={css.row}>
            <NetworkButton />
            <AccountOrConnect />
          </div>
        </header>
        <main style={css.main}>
          <DevWalletSwitch />
          <SignMessage />
          <SendTransaction stack={stack} />
        </main>
      </div>
      <WalletModal />
    </WalletRuntimeProvider>
  )
}

function AccountOrConnect() {
  const { isConnected } = useAccount()
  return isConnected ? <AccountButton /> : <ConnectButton />
}

function DevWalletSwitch() {
  const [on, setOn] = useState(devWalletEnabled)
  return (
    <section style={css.card} aria-labelledby="dev-wallet-title">
      <h2 id="dev-wallet-title" style={css.cardTitle}>Development wallet</h2>
      <p style={css.hint}>
        No wallet extension? Switch on the development wallet: it holds anvil's first dev key (public, local chains only)
        and asks before it signs. The page reloads, as after installing an extension.
      </p>
      <label style={css.row}>
        <input
          type="checkbox"
          checked={on}
          onChange={(event) => {
            setOn(event.target.checked)
            setDevWalletEnabled(event.target.checked)
            location.reload()
          }}
        />
        Use the development wallet
      </label>
    </section>
  )
}

function SignMessage() {
  const { isConnected } = useAccount()
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
      <output data-testid="signature" aria-live="polite" style={css.output}>
        {sign.status === "success" ? sign.data : sign.status === "error" ? `Error: ${sign.error.message}` : ""}
      </output>
    </section>
  )
}

const parseEther = (text: string): bigint | undefined => {
  const match = /^(\d*)(?:\.(\d{0,18}))?$/.exec(text.trim())
  if (match === null || (match[1] === "" && (match[2] ?? "") === "")) return undefined
  return BigInt(`${match[1] || "0"}${(match[2] ?? "").padEnd(18, "0")}`)
}

function SendTransaction({ stack }: { readonly stack: DemoStack }) {
  const { isConnected, address } = useAccount()
  const send = useSendTransaction()
  const [to, setTo] = useState<string>("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
  const [amount, setAmount] = useState("0.01")
  const value = parseEther(amount)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (value === undefined) return
    void send.sendTransaction({ to, value }).catch(() => undefined)
  }
  return (
    <section style={css.card} aria-labelledby="send-title">
      <h2 id="send-title" style={css.cardTitle}>Send a transaction</h2>
      <form onSubmit={submit} style={css.form}>
        <label htmlFor="send-to">To</label>
        <input id="send-to" value={to} onChange={(e) => setTo(e.target.value)} style={css.input} spellCheck={false} />
        <label htmlFor="send-amount">Amount (ETH)</label>
        <input id="send-amount" value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" style={css.input} />
        <button type="submit" disabled={!isConnected || value === undefined || send.status === "pending"} style={css.button}>
          {send.status === "pending" ? (send.hash === undefined ? "Waiting for the wallet…" : "Waiting to be mined…") : "Send"}
        </button>
      </form>
      {value === undefined && <p style={css.hint}>Enter an amount in ETH, e.g. 0.01.</p>}
      <output data-testid="transaction" aria-live="polite" style={css.output}>
        {send.hash !== undefined && <span>Hash: {send.hash}</span>}
        {send.status === "success" && <span> · mined in block {String(send.data.blockNumber)}</span>}
        {send.status === "error" && <span>Error: {send.error.message}</span>}
      </output>
      <p style={css.hint}>
        From {address ?? "the connected account"} on the local chains ({stack.chains.map((c) => c.chainId).join(", ")}).
      </p>
    </section>
  )
}
