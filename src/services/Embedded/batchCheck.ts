/**
 * The embedded wallet's checks of a `wallet_sendCalls` before the visitor is asked (issue 29's bad input): the
 * request's shape, version and chain, then what the chain says (data sent to an address without code, values past
 * the balance), and atomicity the account in front cannot give. A batch refused here never reaches ApproveTransaction
 * nor the wallet server. The server checks again: a host may call the frame without this code.
 */
import { Effect } from "effect"
import type { AccountType } from "../../domain/Account"
import { batchChainProblem, CALLS_ERROR_CODES, readBatch } from "../../domain/Calls"
import type { CaipNetwork } from "../../domain/Network"

/** A refusal as the provider answers it: an EIP-5792 or JSON-RPC code and words a visitor reads. */
export interface BatchRefusal {
  readonly code: number
  readonly message: string
}

/**
 * `params` checked for the account in front (`from` filled in with it when missing), or the refusal. `ask` is a safe
 * read of the frame (eth_getCode, eth_getBalance).
 */
export const checkBatch = <E>(
  params: unknown,
  network: CaipNetwork,
  front: { readonly address: string; readonly type: AccountType | undefined },
  ask: (method: string, params: ReadonlyArray<unknown>) => Effect.Effect<unknown, E>
): Effect.Effect<ReadonlyArray<unknown>, BatchRefusal | E> =>
  Effect.gen(function* () {
    const smart = front.type === "smartAccount"
    // The paymaster is the host's, on the wallet server: a dApp's paymasterService is honoured by it.
    const checked = readBatch(params, Number(network.id), smart ? ["paymasterService"] : [])
    if (!checked.ok) return yield* Effect.fail(checked.problem)
    const { batch } = checked
    const sender = batch.from ?? front.address
    if (sender.toLowerCase() !== front.address.toLowerCase()) {
      return yield* Effect.fail({ code: 4100, message: `The address ${sender} is not the account in front of this wallet` })
    }
    if (!smart && batch.atomicRequired) {
      return yield* Effect.fail({
        code: CALLS_ERROR_CODES.atomicityNotSupported,
        message: "This account cannot run calls together in one transaction: switch to the smart account, or send them one by one"
      })
    }
    const [codes, balance] = yield* Effect.all(
      [
        Effect.forEach(batch.calls, (call) => (call.data === undefined ? Effect.succeed("0x") : ask("eth_getCode", [call.to, "latest"])), { concurrency: "unbounded" }),
        ask("eth_getBalance", [sender, "latest"])
      ],
      { concurrency: "unbounded" }
    )
    const problem = batchChainProblem(batch, {
      hasCode: codes.map((code) => typeof code === "string" && code !== "0x"),
      balance: typeof balance === "string" && /^0x[0-9a-fA-F]+$/.test(balance) ? BigInt(balance) : 0n,
      currency: network.nativeCurrency
    })
    if (problem !== undefined) return yield* Effect.fail(problem)
    const request = (Array.isArray(params) ? params[0] : params) as Readonly<Record<string, unknown>>
    return [{ ...request, from: sender }]
  })
