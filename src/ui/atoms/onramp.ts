/**
 * Atoms of the Buy view: the Buy form's state (from the Onramp service) and its actions — open it, prepare it, choose
 * the asset and the currency, type the amount, tell it the provider's page was opened, check again.
 */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { Onramp } from "../../services/Onramp"
import type { OnrampState } from "../../services/onrampState"
import { laterServiceRuntime, laterStateAtom } from "./laterServices"
import { mapAtom } from "./runtime"

// The form's service is built when one of these atoms is first read, not with the runtime.
const onrampRuntime = laterServiceRuntime(Onramp.layer)

const onrampStateAtom = laterStateAtom(onrampRuntime, Effect.map(Onramp, (onramp) => onramp.state))

/** The Buy form, or `undefined` while the runtime starts. */
export const onrampAtom: Atom.Atom<OnrampState | undefined> = mapAtom(onrampStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))

/** Opens a fresh Buy form for the account in front. */
export const openOnrampFn = onrampRuntime.fn((_: void) => Effect.flatMap(Onramp, (onramp) => onramp.open))

/** Starts the form when it is not the account in front's. */
export const prepareOnrampFn = onrampRuntime.fn((_: void) => Effect.flatMap(Onramp, (onramp) => onramp.prepare))

/** Chooses the asset bought. */
export const chooseOnrampAssetFn = onrampRuntime.fn((symbol: string) => Effect.flatMap(Onramp, (onramp) => onramp.chooseAsset(symbol)))

/** Chooses the fiat currency paid. */
export const chooseOnrampCurrencyFn = onrampRuntime.fn((currency: string) => Effect.flatMap(Onramp, (onramp) => onramp.chooseCurrency(currency)))

/** The fiat amount as typed. */
export const setOnrampAmountFn = onrampRuntime.fn((text: string) => Effect.flatMap(Onramp, (onramp) => onramp.setAmount(text)))

/** The visitor opened the provider's page: watch for the purchase. */
export const onrampStartedFn = onrampRuntime.fn((_: void) => Effect.flatMap(Onramp, (onramp) => onramp.started))

/** Watch again after 'Not received yet'. */
export const onrampCheckAgainFn = onrampRuntime.fn((_: void) => Effect.flatMap(Onramp, (onramp) => onramp.checkAgain))
