/**
 * The bound on a request the visitor answers in the wallet (connect, switch network, sign, send, a raw request): a
 * wallet that never settles its promise ends the wait with WalletNoAnswer instead of leaving the flow and the host's
 * button waiting for ever. The wallet's pending request is abandoned; a late answer is ignored.
 */
import { Duration, Effect } from "effect"
import { WALLET_ANSWER_TIMEOUT_MS, WALLET_QUICK_ANSWER_MS } from "../domain/constants"
import { WalletNoAnswer } from "../domain/walletErrors"

/** `request`, failing with WalletNoAnswer when the wallet has not answered within WALLET_ANSWER_TIMEOUT_MS. */
export const withinWalletAnswerTime = <A, E, R>(request: Effect.Effect<A, E, R>): Effect.Effect<A, E | WalletNoAnswer, R> =>
  Effect.timeoutOrElse(request, {
    duration: Duration.millis(WALLET_ANSWER_TIMEOUT_MS),
    orElse: () => Effect.fail(new WalletNoAnswer({ waitedMs: WALLET_ANSWER_TIMEOUT_MS }))
  })

/**
 * `request` when it needs no visitor (a chain id, the accounts already granted): failing with WalletNoAnswer when the
 * wallet has not answered within WALLET_QUICK_ANSWER_MS, a few seconds, not the minutes a prompt is given.
 */
export const withinQuickAnswerTime = <A, E, R>(request: Effect.Effect<A, E, R>): Effect.Effect<A, E | WalletNoAnswer, R> =>
  Effect.timeoutOrElse(request, {
    duration: Duration.millis(WALLET_QUICK_ANSWER_MS),
    orElse: () => Effect.fail(new WalletNoAnswer({ waitedMs: WALLET_QUICK_ANSWER_MS }))
  })
