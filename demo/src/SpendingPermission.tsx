/**
 * A host asking the embedded wallet's smart account for an ERC-7715 spending permission (0.01 a day for a week), then
 * spending with it without asking again (an eth_sendTransaction carrying the permission's context: no approval view,
 * the wallet server checks the grant), and revoking it.
 */
import { type FormEvent, useState } from "react"
import { parseUnits } from "wallet-runtime"
import { useAccount, useNetwork, useWalletRequest } from "wallet-runtime/react"
import * as css from "./styles"

const DAY = 86_400

/** The demo's card: Grant, Spend with it, Revoke. */
export function SpendingPermission() {
  const { isConnected, namespace } = useAccount()
  const { network } = useNetwork()
  const grant = useWalletRequest()
  const use = useWalletRequest()
  const revoke = useWalletRequest()
  const [amount, setAmount] = useState("0.006")
  const [to, setTo] = useState("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
  const evm = isConnected && namespace === "eip155" && network !== undefined
  const granted = grant.status === "success" && Array.isArray(grant.data) ? (grant.data[0] as { readonly context?: string } | undefined)?.context : undefined
  const value = parseUnits(amount, network?.nativeCurrency.decimals ?? 18)
  const ask = () => {
    if (network === undefined) return
    const request = {
      chainId: `0x${Number(network.id).toString(16)}`,
      // The host's own clock: a week from now.
      expiry: Math.floor(Date.now() / 1000) + 7 * DAY,
      permission: {
        type: "native-token-periodic",
        data: { periodAmount: `0x${(10n ** BigInt(network.nativeCurrency.decimals) / 100n).toString(16)}`, periodDuration: DAY, justification: "Demo: a small daily allowance" }
      }
    }
    void grant.request("wallet_requestExecutionPermissions", [[request]]).catch(() => undefined)
  }
  const spend = (event: FormEvent) => {
    event.preventDefault()
    if (granted === undefined || value === undefined) return
    void use.request("eth_sendTransaction", [{ to, value: `0x${value.toString(16)}`, permissionsContext: granted }]).catch(() => undefined)
  }
  const result = (call: ReturnType<typeof useWalletRequest>, ok: (data: unknown) => string) =>
    call.status === "success" ? ok(call.data) : call.status === "error" ? `Error: ${call.error.message}` : ""
  return (
    <section style={css.card} aria-labelledby="permission-title">
      <h2 id="permission-title" style={css.cardTitle}>Spending permission (ERC-7715)</h2>
      <p style={css.hint}>With the embedded wallet's smart account: the site may spend up to 0.01 {network?.nativeCurrency.symbol ?? "ETH"} a day for a week without asking again.</p>
      <button type="button" disabled={!evm || grant.status === "pending"} style={css.button} onClick={ask}>
        {grant.status === "pending" ? "Waiting for the wallet…" : "Grant a spending permission"}
      </button>
      <output data-testid="permission" aria-live="polite" style={css.output}>
        {result(grant, () => (granted === undefined ? "The wallet granted nothing" : `Granted: ${granted}`))}
      </output>
      <form onSubmit={spend} style={css.form}>
        <label htmlFor="permission-to">Receiver of the spend</label>
        <input id="permission-to" value={to} onChange={(e) => setTo(e.target.value)} style={css.input} spellCheck={false} />
        <label htmlFor="permission-amount">Spend with the permission ({network?.nativeCurrency.symbol ?? "ETH"})</label>
        <input id="permission-amount" value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" style={css.input} />
        <button type="submit" disabled={granted === undefined || value === undefined || use.status === "pending"} style={css.button}>
          {use.status === "pending" ? "Spending…" : "Spend with the permission"}
        </button>
      </form>
      <output data-testid="permission-use" aria-live="polite" style={css.output}>
        {result(use, (hash) => `Spent: ${String(hash)}`)}
      </output>
      <button
        type="button"
        disabled={granted === undefined || revoke.status === "pending"}
        style={css.button}
        onClick={() => void revoke.request("wallet_revokeExecutionPermission", [{ permissionContext: granted }]).catch(() => undefined)}
      >
        Revoke the permission
      </button>
      <output data-testid="permission-revoke" aria-live="polite" style={css.output}>
        {result(revoke, () => "Revoked")}
      </output>
    </section>
  )
}
