/**
 * Who sells crypto for fiat (`/v1/onramp/*`, `/v1/generators/onrampurl`, spec 7.4): an `OnrampProvider` says what can
 * be paid with and bought, quotes a purchase, and makes the URL of its page where the visitor pays, its key (a hosted
 * provider's URL signing, session tokens) kept on the server. The services decode the requests and answer in the
 * declared shapes. One implementation is here and tested: the local stack's (`local.ts`), whose page
 * (`devstack/onramp/`) takes a card form without a real payment and sends the coins from a funded account.
 */
import { Context, Data, type Effect } from "effect"
import type { OnrampOptions, OnrampQuote, OnrampQuoteBody, OnrampUrlBody } from "../../../../src/domain/Api"

/** The provider refuses the request as asked (an amount outside the limits, an asset it does not sell): a 400. */
export class OnrampRefused extends Data.TaggedError("OnrampRefused")<{ readonly reason: string }> {}

/** The interface every on-ramp provider implements. */
export interface OnrampProviderShape {
  /** What can be paid with (and the limits per payment method), what can be bought on which networks, the fee range. */
  readonly options: Effect.Effect<OnrampOptions>
  /** What a purchase of `amount` (fiat) costs in all and brings. */
  readonly quote: (body: OnrampQuoteBody) => Effect.Effect<OnrampQuote, OnrampRefused>
  /** The provider's page for the purchase (http(s)), opened by the visitor in a new window. */
  readonly url: (body: OnrampUrlBody) => Effect.Effect<string, OnrampRefused>
  /**
   * The accounts the provider delivers from (EVM addresses in lower case, Solana addresses as they are): a transfer
   * from one of them is an on-ramp deposit in the history (`operationType: "deposit"`, and what `?onramp=` keeps).
   */
  readonly depositors: ReadonlyArray<string>
}

/** The services' on-ramp provider. */
export class OnrampProvider extends Context.Service<OnrampProvider, OnrampProviderShape>()("wallet-runtime-server/OnrampProvider") {}
