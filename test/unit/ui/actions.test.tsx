// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Effect, SubscriptionRef } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { ChainNamespace } from "../../../src/domain/Caip"
import { UserRejected } from "../../../src/domain/errors"
import { localChainA, solanaDevnet } from "../../../src/domain/networks"
import { InsufficientFunds } from "../../../src/domain/walletErrors"
import { testLayer } from "../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../src/runtime"
import { Connection } from "../../../src/services/Connection"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Notifications } from "../../../src/services/Notifications"
import { useBalances, useSendTransaction, useSignMessage, useWalletRequest } from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { loadCore } from "../../../src/ui/react/shell"

// The runtime's code is on the page before these tests render (test/unit/ui/lazyCore*.test.tsx cover the page before it).
await loadCore()

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const SOL_ALICE = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const SOL_BOB = "GdnSyH3YtwcxFvQrVVJMm1JhTS4QVX7MFsX56uJLUfiZ"

let runtime: WalletRuntime | undefined
afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const errorText = (error: Error) => `error:${error.message}`

function Signer(props: { readonly namespace?: ChainNamespace }) {
  const sign = useSignMessage(props.namespace)
  const name = props.namespace ?? "front"
  return (
    <div>
      <button onClick={() => void sign.signMessage("hello").catch(() => undefined)}>sign {name}</button>
      <p data-testid={`sign-${name}`}>{sign.status === "success" ? sign.data : sign.status === "error" ? errorText(sign.error) : sign.status}</p>
    </div>
  )
}

function SolanaSender() {
  const send = useSendTransaction("solana")
  return (
    <div>
      <button onClick={() => void send.sendTransaction({ to: SOL_BOB, value: 1_000_000n }).catch(() => undefined)}>send solana</button>
      <p data-testid="send-solana">
        {send.status === "success" ? `${send.data.namespace} ${send.data.hash === send.hash}` : send.status === "error" ? errorText(send.error) : send.status}
      </p>
    </div>
  )
}

function EvmSender() {
  const send = useSendTransaction("eip155")
  return (
    <div>
      <button onClick={() => void send.sendTransaction({ to: BOB, value: 10n ** 18n }).catch(() => undefined)}>send eip155</button>
      <p data-testid="send-eip155">{send.status === "success" ? send.data.hash : send.status === "error" ? errorText(send.error) : send.status}</p>
    </div>
  )
}

function Balances() {
  const balances = useBalances()
  return <p data-testid="balances">{balances.status === "success" ? balances.data.map((b) => `${b.formatted} ${b.symbol}`).join(",") : balances.status}</p>
}

function Requester() {
  const wallet = useWalletRequest()
  return (
    <div>
      <button onClick={() => void wallet.request("eth_signTypedData_v4", [ALICE, "{}"]).catch(() => undefined)}>request</button>
      <p data-testid="request">{wallet.status === "success" ? `answered:${String(wallet.data)}` : wallet.status}</p>
    </div>
  )
}

const evmWallet = () =>
  Effect.runSync(makeFakeWallet({ id: "evm-wallet", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } }))
const solanaWallet = () =>
  Effect.runSync(makeFakeWallet({ id: "sol-wallet", families: { solana: { accounts: [{ address: SOL_ALICE, type: "eoa" }], chainId: solanaDevnet.id } } }))

/** Both families' wallets; `connected` are connected in that order (the last one is in front). */
const setup = async (connected: ReadonlyArray<FakeWallet>, wallets: ReadonlyArray<FakeWallet>) => {
  const wallet = makeWalletRuntime(
    { projectId: "p", networks: [localChainA, solanaDevnet] },
    { layer: (o) => testLayer(o, { wallets }) }
  )
  runtime = wallet
  for (const fake of connected) {
    await wallet.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: fake.connector.info.id, networks: [localChainA, solanaDevnet] })))
  }
  render(
    <WalletRuntimeProvider runtime={wallet}>
      <Signer />
      <Signer namespace="solana" />
      <SolanaSender />
      <EvmSender />
      <Balances />
      <Requester />
    </WalletRuntimeProvider>
  )
  return wallet
}

const click = (name: string) => act(async () => fireEvent.click(screen.getByRole("button", { name })))

describe("useSignMessage", () => {
  it("signs with the wallet of the family in front, or of the family named", async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    await setup([sol, evm], [evm, sol])
    await click("sign front")
    expect(await screen.findByText(`signed(${ALICE}):hello`)).toBeTruthy()
    await click("sign solana")
    expect(await screen.findByText(`signed(${SOL_ALICE}):hello`)).toBeTruthy()
    expect([evm.calls, sol.calls]).toEqual([
      ["connect:evm-wallet", "sign:hello"],
      ["connect:sol-wallet", "sign:hello"]
    ])
  })

  it("shows the refusal", async () => {
    const evm = evmWallet()
    await setup([evm], [evm])
    evm.script.signError = new UserRejected({ code: 4001 })
    await click("sign front")
    expect(await screen.findByText("error:User rejected the request.")).toBeTruthy()
  })

  it("says nothing is connected rather than calling a wallet", async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    await setup([evm], [evm, sol])
    await click("sign solana")
    expect(await screen.findByText("error:CaipNetwork or CaipAddress is undefined")).toBeTruthy()
    expect(sol.calls).toEqual([])
  })
})

describe("useSendTransaction", () => {
  it("sends lamports from the Solana wallet and follows the transaction until it is final", async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    const wallet = await setup([sol, evm], [evm, sol])
    await click("send solana")
    expect(await screen.findByText("solana true")).toBeTruthy()
    expect(sol.calls).toContain(`send:${SOL_BOB}:1000000`)
    expect(evm.calls).toEqual(["connect:evm-wallet"])
    // 'Transaction started' once sent, then the result once final (replacing it).
    await waitFor(async () => {
      const notifications = await wallet.run(Effect.flatMap(Notifications, (n) => SubscriptionRef.get(n.state)))
      expect(notifications.snackbar).toMatchObject({ variant: "success", message: "Transaction confirmed" })
    })
  })

  it("a failure shows the wallet's own words, in the hook and in the snackbar", async () => {
    const words = "insufficient funds for gas * price + value: have 0 want 1000000000000000000"
    const evm = evmWallet()
    evm.script.sendError = new InsufficientFunds({ details: words })
    const wallet = await setup([evm], [evm])
    await click("send eip155")
    expect(await screen.findByText(`error:${words}`)).toBeTruthy()
    const notifications = await wallet.run(Effect.flatMap(Notifications, (n) => SubscriptionRef.get(n.state)))
    expect(notifications.snackbar).toMatchObject({ variant: "error", message: words })
    expect(document.body.textContent).not.toContain("Something went wrong")
  })

  it("a refusal is no error to announce: the hook says so, the snackbar does not", async () => {
    const evm = evmWallet()
    evm.script.sendError = new UserRejected({ code: 4001 })
    const wallet = await setup([evm], [evm])
    await click("send eip155")
    expect(await screen.findByText("error:User rejected the request.")).toBeTruthy()
    const notifications = await wallet.run(Effect.flatMap(Notifications, (n) => SubscriptionRef.get(n.state)))
    expect(notifications.snackbar).toBeUndefined()
  })
})

describe("useBalances and useWalletRequest", () => {
  it("read the balances of the account in front and pass raw requests to its wallet", async () => {
    const evm = evmWallet()
    await setup([evm], [evm])
    expect(await screen.findByText("0 ETH")).toBeTruthy()
    await click("request")
    expect(await screen.findByText("answered:null")).toBeTruthy()
    expect(evm.calls).toContain("request:eth_signTypedData_v4")
  })
})
