/**
 * The polkadot adapter over a signer backed by @polkadot/keyring dev accounts (sr25519 and ed25519, keys in this
 * process): a message is signed as `<Bytes>message</Bytes>` whether or not the signer wraps it itself, and the
 * signature verifies with @polkadot/util-crypto; a refusal is the visitor's; answers without a signature of the key
 * type's length are refused; transaction payloads go to `signPayload` with their params checked (an SS58 address);
 * switching network tells the wallet's connector; sending, fees, transaction status and balances say plainly that
 * they are not available.
 */
import { describe, expect, it } from "@effect/vitest"
import { Keyring } from "@polkadot/keyring"
import type { KeyringPair } from "@polkadot/keyring/types"
import { hexToU8a, u8aToHex, u8aWrapBytes } from "@polkadot/util"
import { cryptoWaitReady, ed25519Verify, signatureVerify, sr25519Verify } from "@polkadot/util-crypto"
import { Effect } from "effect"
import { beforeAll } from "vitest"
import type { CaipNetwork } from "../../../../src/domain/Network"
import { kusama, westend } from "../../../../src/domain/networks"
import type { AccountSession } from "../../../../src/services/ChainAdapter"
import { makePolkadotAdapter, wrappedMessageHex } from "../../../../src/services/polkadot/PolkadotAdapter"
import type { PolkadotProvider, PolkadotSignRawInput } from "../../../../src/services/polkadot/provider"

let alice: KeyringPair
let aliceEd: KeyringPair

beforeAll(async () => {
  await cryptoWaitReady()
  alice = new Keyring({ type: "sr25519" }).addFromUri("//Alice")
  aliceEd = new Keyring({ type: "ed25519" }).addFromUri("//Alice")
})

interface Signer {
  readonly provider: PolkadotProvider
  readonly raw: Array<PolkadotSignRawInput>
  readonly payloads: Array<unknown>
  readonly networks: Array<Pick<CaipNetwork, "id">>
}

/**
 * A signer over a keyring pair. `wraps`: it wraps the bytes in `<Bytes>…</Bytes>` itself unless they already are, as
 * polkadot-js's extension does; otherwise it signs the data exactly as given.
 */
const signerOf = (pair: KeyringPair, options: { readonly wraps?: boolean; readonly answer?: (input: PolkadotSignRawInput) => unknown } = {}): Signer => {
  const raw: Array<PolkadotSignRawInput> = []
  const payloads: Array<unknown> = []
  const networks: Array<Pick<CaipNetwork, "id">> = []
  return {
    raw,
    payloads,
    networks,
    provider: {
      keyTypeOf: () => pair.type as "sr25519",
      signRaw: async (input) => {
        raw.push(input)
        if (options.answer !== undefined) return options.answer(input)
        const bytes = hexToU8a(input.data)
        return { id: 1, signature: u8aToHex(pair.sign(options.wraps === false ? bytes : u8aWrapBytes(bytes))) }
      },
      signPayload: async (payload) => {
        payloads.push(payload)
        return { id: 2, signature: u8aToHex(pair.sign(hexToU8a(payload.method), { withType: true })) }
      },
      onNetwork: (network) => void networks.push(network)
    }
  }
}

const sessionOf = (pair: KeyringPair, signer: Signer, network: CaipNetwork = westend): AccountSession => ({
  provider: { namespace: "polkadot", provider: signer.provider },
  address: pair.address,
  network,
  walletName: "Test Extension"
})

const MESSAGE = "Hello from the Wallet Runtime demo ✓"
const wrapped = (message: string) => u8aWrapBytes(new TextEncoder().encode(message))

describe("the polkadot adapter", () => {
  const adapter = makePolkadotAdapter()

  it("asks the signer for the message's UTF-8 wrapped in <Bytes>…</Bytes>, as bytes", () => {
    expect(wrappedMessageHex("hi")).toBe("0x3c42797465733e68693c2f42797465733e")
    expect(hexToU8a(wrappedMessageHex(MESSAGE))).toEqual(wrapped(MESSAGE))
  })

  for (const [keyType, pair, verify] of [
    ["sr25519", () => alice, sr25519Verify],
    ["ed25519", () => aliceEd, ed25519Verify]
  ] as const) {
    it.effect(`signs a message with an ${keyType} account: the signature verifies over <Bytes>message</Bytes>`, () =>
      Effect.gen(function* () {
        for (const wraps of [true, false]) {
          const signer = signerOf(pair(), { wraps })
          const signature = yield* adapter.signMessage(sessionOf(pair(), signer), MESSAGE)
          expect(signer.raw).toEqual([{ address: pair().address, data: wrappedMessageHex(MESSAGE), type: "bytes" }])
          expect(signature).toMatch(/^0x[0-9a-f]{128}$/)
          expect(verify(wrapped(MESSAGE), signature, pair().publicKey)).toBe(true)
          expect(verify(new TextEncoder().encode(MESSAGE), signature, pair().publicKey)).toBe(false)
          const checked = signatureVerify(MESSAGE, signature, pair().address)
          expect([checked.isValid, checked.crypto]).toEqual([true, keyType])
        }
      })
    )
  }

  it.effect("the visitor's refusal ('Cancelled', polkadot-js's word) is UserRejected; other failures keep the wallet's words", () =>
    Effect.gen(function* () {
      const cancelled = signerOf(alice, {
        answer: () => {
          throw new Error("Cancelled")
        }
      })
      expect((yield* Effect.flip(adapter.signMessage(sessionOf(alice, cancelled), MESSAGE)))._tag).toBe("UserRejected")
      const locked = signerOf(alice, {
        answer: () => {
          throw new Error("Unable to find account")
        }
      })
      const error = yield* Effect.flip(adapter.signMessage(sessionOf(alice, locked), MESSAGE))
      expect([error._tag, (error as { reason?: string }).reason]).toEqual(["SignMessageFailed", "Unable to find account"])
    })
  )

  it.effect("refuses an answer without a signature of the key type's length", () =>
    Effect.gen(function* () {
      for (const answer of [null, "0x00", {}, { signature: "0x12" }, { signature: `0x${"ab".repeat(66)}` }, { signature: `zz${"ab".repeat(64)}` }]) {
        const error = yield* Effect.flip(adapter.signMessage(sessionOf(alice, signerOf(alice, { answer: () => answer })), MESSAGE))
        expect([error._tag, (error as { reason?: string }).reason]).toEqual(["SignMessageFailed", "The wallet answered without a signature."])
      }
      // 65 bytes is an ecdsa signature: taken.
      const ecdsa = signerOf(alice, { answer: () => ({ id: 1, signature: `0x${"ab".repeat(65)}` }) })
      expect(yield* adapter.signMessage(sessionOf(alice, ecdsa), MESSAGE)).toBe(`0x${"ab".repeat(65)}`)
    })
  )

  it.effect("a wallet without signRaw cannot sign messages, and says so", () =>
    Effect.gen(function* () {
      const signer = signerOf(alice)
      const session = sessionOf(alice, { ...signer, provider: { ...signer.provider, signRaw: undefined } })
      const error = yield* Effect.flip(adapter.signMessage(session, MESSAGE))
      expect([error._tag, error.message]).toEqual(["WalletMethodUnsupported", "This wallet cannot sign messages."])
    })
  )

  const payload = () => ({
    address: alice.address,
    blockHash: `0x${"11".repeat(32)}`,
    blockNumber: "0x00000010",
    era: "0x0500",
    genesisHash: `0x${"e143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e"}`,
    method: "0x0400",
    nonce: "0x00000000",
    specVersion: "0x000f4240",
    tip: "0x00000000000000000000000000000000",
    transactionVersion: "0x0000001a",
    signedExtensions: ["CheckSpecVersion", "CheckTxVersion", "CheckGenesis", "CheckMortality", "CheckNonce", "CheckWeight", "ChargeTransactionPayment"],
    version: 4
  })

  it.effect("polkadot_signTransaction and signPayload hand the payload to signPayload; the signature leads with its key type", () =>
    Effect.gen(function* () {
      const signer = signerOf(alice)
      const session = sessionOf(alice, signer)
      const answer = (yield* adapter.request(session, "polkadot_signTransaction", { address: alice.address, transactionPayload: payload() })) as {
        signature: string
      }
      expect(signer.payloads).toEqual([payload()])
      expect(answer.signature).toMatch(/^0x01[0-9a-f]{128}$/)
      expect(sr25519Verify(hexToU8a(payload().method), hexToU8a(answer.signature).slice(1), alice.publicKey)).toBe(true)
      const direct = (yield* adapter.request(session, "signPayload", payload())) as { id: number; signature: string }
      expect(direct.id).toBe(2)
      expect(sr25519Verify(hexToU8a(payload().method), hexToU8a(direct.signature).slice(1), alice.publicKey)).toBe(true)
      const message = (yield* adapter.request(session, "polkadot_signMessage", { address: alice.address, message: "hi" })) as { signature: string }
      expect(sr25519Verify(wrapped("hi"), message.signature, alice.publicKey)).toBe(true)
    })
  )

  it.effect("refuses malformed params before asking the wallet, with what is wrong", () =>
    Effect.gen(function* () {
      const signer = signerOf(alice)
      const session = sessionOf(alice, signer)
      const refusals = [
        ["polkadot_signTransaction", { address: alice.address }],
        ["polkadot_signTransaction", { address: alice.address, transactionPayload: { ...payload(), method: "not hex" } }],
        ["polkadot_signTransaction", { address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ", transactionPayload: payload() }],
        ["polkadot_signMessage", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", message: "hi" }],
        ["signRaw", { address: alice.address, data: "hi", type: "bytes" }],
        ["signPayload", "payload"]
      ] as const
      for (const [method, params] of refusals) {
        const error = yield* Effect.flip(adapter.request(session, method, params))
        expect([method, error._tag, error.message.startsWith(`${method}: `)]).toEqual([method, "InvalidWalletParams", true])
      }
      expect(signer.payloads).toEqual([])
      expect(signer.raw).toEqual([])
      const unknown = yield* Effect.flip(adapter.request(session, "eth_sendTransaction", {}))
      expect([unknown._tag, unknown.message]).toEqual(["WalletMethodUnsupported", "Polkadot wallets do not answer eth_sendTransaction."])
    })
  )

  it.effect("switching network tells the wallet's connector (the address is written for the new network)", () =>
    Effect.gen(function* () {
      const signer = signerOf(alice)
      yield* adapter.switchNetwork(sessionOf(alice, signer), kusama)
      expect(signer.networks).toEqual([kusama])
    })
  )

  it.effect("sending, fees, transaction status and balances say plainly that they are not available", () =>
    Effect.gen(function* () {
      const session = sessionOf(alice, signerOf(alice))
      const failures = [
        yield* Effect.flip(adapter.send(session, { to: alice.address, value: 1n })),
        yield* Effect.flip(adapter.estimateFee(alice.address, westend, { to: alice.address, value: 1n })),
        yield* Effect.flip(adapter.waitForTransaction("0x00", westend)),
        yield* Effect.flip(adapter.balances(alice.address, westend))
      ]
      expect(failures.map((error) => [error._tag, error.message])).toEqual([
        ["FeatureUnavailable", "Sending is not available for Polkadot accounts: this site does not read the Polkadot chain."],
        ["FeatureUnavailable", "Network fees are not available for Polkadot accounts: this site does not read the Polkadot chain."],
        ["FeatureUnavailable", "Transaction status is not available for Polkadot accounts: this site does not read the Polkadot chain."],
        ["FeatureUnavailable", "Balances are not available for Polkadot accounts: this site does not read the Polkadot chain."]
      ])
    })
  )
})
