/**
 * The name endpoints of spec 7.4: look a name up, list an address's names, suggest free names, and register a name
 * with a signed message, checked on the chain it names (EOA, ERC-1271 and ERC-6492 signatures).
 *
 * Rules of this service (the contract is `src/domain/http/names.ts`, with `src/domain/Api.ts` and `src/domain/Names.ts`):
 * - A name is `label` + the server's suffix (`NamesConfig`: `.wallet-runtime.id` by default, `.wallet.test` in the
 *   local stack); the message's `name` is that full name; the label follows spec 5. Suggestions take the suffix's
 *   zone (`?zone=wallet-runtime.id`), or none.
 * - A name signed by an EOA points to its address on every chain served; one signed by a contract account
 *   (ERC-1271, ERC-6492) only on the chain of its coin type, where its signature was checked.
 * - `coin_type` is `0x80000000 | chainId` of an EVM chain served; `timestamp` (s) at most 10 minutes old and
 *   at most 60 s ahead of the service's clock.
 * - An address may hold several names; the newest registered is its name (`GET /v1/identity/{address}`) and comes
 *   first in `GET /v1/profile/reverse/{address}`, a seed name (the local stack's alice…dave) last.
 * - Failures answer `{ reasons: [{ description }] }` with 400 (bad request), 401 (signature), 404 (no such name) or
 *   409 (name taken).
 */
import { Effect, Result, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
  isHex,
  type PublicClient,
  recoverMessageAddress
} from "viem"
import type { NameRecord, RegisterNameBody } from "../../../src/domain/Api"
import { validateAccountName } from "../../../src/domain/accountName"
import { NameBadRequest, NameConflict, NameNotFound, nameRefusal, NameUnauthorized } from "../../../src/domain/http/names"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { NameMessageJson } from "../../../src/domain/Names"
import { upstreamTransport } from "../lib/jsonRpc"
import { evmChain } from "./chains"
import {
  avatarImageId,
  chainIdOfCoinType,
  coinTypeOfChain,
  lookupName,
  nameZone,
  registrableName,
  type SeedName,
  suggestionsFor
} from "./names"
import { findName, insertName, namesOfAddress, registeredAmong, type StoredName } from "./namesStore"
import { type EvmChainState, ServicesContext, type ServicesState } from "./state"

/** How old a registration message may be, in seconds. */
export const NAME_MESSAGE_MAX_AGE_S = 600
/** How far ahead of the service's clock a registration message may be dated, in seconds (the wallet's clock may run fast). */
export const NAME_MESSAGE_MAX_SKEW_S = 60

const decodeMessage = Schema.decodeUnknownResult(NameMessageJson)

const seedRecord = (state: ServicesState, seed: SeedName): NameRecord => ({
  name: seed.name,
  // A seed name is its account's on every chain served.
  addresses: Object.fromEntries(state.evm.map((chain) => [coinTypeOfChain(chain.chainId), { address: seed.address }])),
  attributes: {}
})

/**
 * The record of a registered name. Signed by the address's own key (an EOA), the name points to that address on every
 * chain of the stack, as the key holds it on each; signed by a contract account, only on the chain that checked it.
 */
const storedRecord = async (state: ServicesState, row: StoredName): Promise<NameRecord> => {
  const byKey = await recoverMessageAddress({ message: row.message, signature: row.signature as Hex }).then(
    (signer) => isAddressEqual(signer, row.address as Address),
    // An ERC-6492 wrapping or a contract's own format is no ECDSA signature.
    () => false
  )
  const coinTypes = byKey ? state.evm.map((chain) => coinTypeOfChain(chain.chainId)) : [String(row.coin_type)]
  return {
    name: row.name,
    addresses: Object.fromEntries(coinTypes.map((coinType) => [coinType, { address: row.address }])),
    attributes: row.attributes
  }
}

const seedNamed = (state: ServicesState, name: string) => state.names.seeds.find((seed) => seed.name === name)

/** The record of the full normalised `name`, registered or seed, if anyone holds it. */
const recordOf = async (state: ServicesState, name: string): Promise<NameRecord | undefined> => {
  const seed = seedNamed(state, name)
  if (seed !== undefined) return seedRecord(state, seed)
  const row = await state.db.run(findName(name))
  return row === undefined ? undefined : storedRecord(state, row)
}

/** The names of `address` (any case), its own name first: the newest registered, then its seed name. */
export const accountNames = async (state: ServicesState, address: string): Promise<ReadonlyArray<NameRecord>> => {
  const rows = await state.db.run(namesOfAddress(address))
  const seeds = state.names.seeds.filter((seed) => seed.address.toLowerCase() === address.toLowerCase())
  return [...(await Promise.all(rows.map((row) => storedRecord(state, row)))), ...seeds.map((seed) => seedRecord(state, seed))]
}

/** The name and avatar `GET /v1/identity/{address}` answers: the account's own name (see {@link accountNames}). */
export const identityOf = async (
  state: ServicesState,
  address: string
): Promise<{ readonly name: string | null; readonly avatar: string | null }> => {
  const name = (await accountNames(state, address))[0]?.name
  return name === undefined
    ? { name: null, avatar: null }
    : { name, avatar: `${state.baseUrl}/public/getAssetImage/${avatarImageId(state.names, name)}` }
}

const takenAmong = async (state: ServicesState, names: ReadonlyArray<string>): Promise<ReadonlySet<string>> => {
  const registered = await state.db.run(registeredAmong(names))
  return new Set([...registered, ...names.filter((name) => seedNamed(state, name) !== undefined)])
}

/** The names group (`src/domain/http/names.ts`), served from the seed table and the database. */
export const NamesGroupLive = HttpApiBuilder.group(ServicesApi, "names", (handlers) =>
  Effect.gen(function* () {
    const state = yield* ServicesContext
    const clients = new Map<number, PublicClient>()
    const clientOf = (chain: EvmChainState): PublicClient => {
      const known = clients.get(chain.chainId)
      if (known !== undefined) return known
      const client = createPublicClient({ chain: evmChain(chain.chainId, chain.rpc.urls), transport: upstreamTransport(chain.rpc) }) as PublicClient
      clients.set(chain.chainId, client)
      return client
    }
    const invalid = (description: string) => new NameBadRequest(nameRefusal(description))

    const register = Effect.fn("names.register")(function* (body: RegisterNameBody) {
      const { coin_type, address, message, signature } = body
      const chainId = chainIdOfCoinType(coin_type)
      if (Result.isFailure(chainId)) return yield* invalid(chainId.failure)
      const chain = state.evm.find((c) => c.chainId === chainId.success)
      if (chain === undefined) {
        return yield* invalid(`Unknown chain ${chainId.success}: this service registers names on chains ${state.evm.map((c) => c.chainId).join(", ")}`)
      }
      if (!isAddress(address, { strict: false })) return yield* invalid(`Invalid address ${address}: an EVM address is 0x and 40 hex digits`)
      const decoded = decodeMessage(message)
      if (Result.isFailure(decoded)) return yield* invalid("Invalid message: the JSON of { name, attributes, timestamp } is expected")
      const now = Math.floor(state.now() / 1000)
      const { timestamp, attributes } = decoded.success
      if (timestamp > now + NAME_MESSAGE_MAX_SKEW_S) return yield* invalid("Message timestamp is in the future: check the device's clock")
      if (timestamp < now - NAME_MESSAGE_MAX_AGE_S) return yield* invalid("Message expired: sign a new registration message")
      const name = registrableName(state.names, decoded.success.name)
      if (Result.isFailure(name)) return yield* invalid(name.failure)
      if ((yield* Effect.promise(() => recordOf(state, name.success))) !== undefined) return yield* new NameConflict(nameRefusal("Name already taken"))
      const valid =
        isHex(signature) &&
        (yield* Effect.promise(() => clientOf(chain).verifyMessage({ address: getAddress(address), message, signature: signature as Hex })))
      if (!valid) return yield* new NameUnauthorized(nameRefusal("Invalid signature"))
      const record = {
        name: name.success,
        address: getAddress(address),
        coinType: coin_type,
        attributes,
        message,
        signature,
        registeredAt: new Date(state.now())
      }
      // Another registration of the same name may have won since the check above: the insert decides.
      if (!(yield* Effect.promise(() => state.db.run(insertName(record))))) return yield* new NameConflict(nameRefusal("Name already taken"))
      return yield* Effect.promise(() => storedRecord(state, { ...record, coin_type: BigInt(coin_type), registered_at: record.registeredAt }))
    })

    return handlers
      .handle("record", ({ params }) =>
        Effect.gen(function* () {
          const name = lookupName(state.names, params.name)
          const record = name === undefined ? undefined : yield* Effect.promise(() => recordOf(state, name))
          return record ?? (yield* new NameNotFound(nameRefusal(`Name ${params.name} is not registered`)))
        })
      )
      .handle("reverse", ({ params }) => Effect.promise(async () => ({ names: await accountNames(state, params.address) })))
      .handle("suggestions", ({ params, query }) => {
        const { suffix } = state.names
        const zone = (query.zone ?? nameZone(state.names)).replace(/^\./, "").toLowerCase()
        if (zone !== nameZone(state.names)) return Effect.fail(invalid(`Unknown zone ${query.zone}: this service's names end with ${suffix}`))
        const input = params.name.trim()
        const label = validateAccountName(input.toLowerCase().endsWith(suffix) ? input.slice(0, -suffix.length) : input)
        if (Result.isFailure(label)) return Effect.fail(invalid(`Invalid name ${params.name}: ${label.failure}`))
        return Effect.promise(async () => ({
          suggestions: await suggestionsFor(state.names, label.success, (names) => takenAmong(state, names))
        }))
      })
      .handle("register", ({ payload }) => register(payload))
  })
)
