/**
 * WalletConnect's one-click sign-in, its pure part: when a pairing may use `wc_sessionAuthenticate` (eip155 only), what
 * the universal provider's `authenticate` is given, and the messages read from the wallet's CACAOs — formatted here
 * with WalletConnect's own `formatMessage` (the sign client's `formatAuthMessage`), as the connector does.
 */
import { describe, expect, it } from "@effect/vitest"
import type { AuthTypes } from "@walletconnect/types"
import { buildAuthObject, createEncodedRecap, formatMessage, populateAuthPayload } from "@walletconnect/utils"
import { Result } from "effect"
import { localChainA, localChainB, localSolana } from "../../../src/domain/networks"
import { formatSiwxMessage } from "../../../src/domain/siwxMessage"
import { EIP155_METHODS, proposalNamespaces } from "../../../src/services/walletconnect/namespaces"
import { authenticateRequest, type CacaoLike, messageDataOf, oneClickChains, signedMessages } from "../../../src/services/walletconnect/oneClick"
import { formatAuthMessage } from "../../../src/services/walletconnect/protocol/cacao"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

describe("oneClickChains", () => {
  it("a session of eip155 only may sign in while pairing, on its chains, the one to start on first", () => {
    expect(oneClickChains(proposalNamespaces({ networks: [localChainA, localChainB] }, localChainB))).toEqual([
      localChainB.caipNetworkId,
      localChainA.caipNetworkId
    ])
  })

  it("a session that also serves Solana pairs the usual way (WalletConnect authenticates eip155 sessions only)", () => {
    expect(oneClickChains(proposalNamespaces({ networks: [localChainA, localSolana] }, localChainA))).toBeUndefined()
    expect(oneClickChains(proposalNamespaces({ networks: [localSolana] }))).toBeUndefined()
    expect(oneClickChains({})).toBeUndefined()
  })
})

describe("authenticateRequest", () => {
  const namespaces = proposalNamespaces({ networks: [localChainA, localChainB] }, localChainA)
  const chains = [localChainA.caipNetworkId, localChainB.caipNetworkId]

  it("carries the site's fields, the times under WalletConnect's names, the session's methods, and the namespaces with their rpcMap", () => {
    const request = authenticateRequest(
      { domain: "shop.test", uri: "https://shop.test", nonce: "abcd1234", statement: "Sign in to Shop", expirationTime: "2030-01-01T00:00:00.000Z" },
      namespaces,
      chains
    )
    expect(request).toMatchObject({
      chains,
      domain: "shop.test",
      uri: "https://shop.test",
      nonce: "abcd1234",
      methods: [...EIP155_METHODS],
      statement: "Sign in to Shop",
      exp: "2030-01-01T00:00:00.000Z",
      nbf: undefined,
      optionalNamespaces: namespaces
    })
    expect(request.optionalNamespaces["eip155"]?.rpcMap[String(localChainA.id)]).toBe(localChainA.rpcUrls.default.http[0])
  })

  it("what the site did not give is absent from what goes to the wallet (no empty statement, no times)", () => {
    const request = authenticateRequest({ domain: "shop.test", uri: "https://shop.test", nonce: "abcd1234" }, namespaces, chains)
    const sent = JSON.parse(JSON.stringify(request)) as Record<string, unknown>
    expect(Object.keys(sent).sort()).toEqual(["chains", "domain", "methods", "nonce", "optionalNamespaces", "uri"])
  })
})

describe("signedMessages", () => {
  /** A wallet's CACAO for ALICE on `chain`, from the payload the dapp's request gives, as WalletKit builds it. */
  const cacaoOn = (chain: string, signature = "0x5161", address = ALICE): AuthTypes.Cacao => {
    const request: AuthTypes.PayloadParams = {
      type: "caip122",
      chains: [chain],
      statement: "Sign in to Shop",
      aud: "https://shop.test",
      domain: "shop.test",
      version: "1",
      nonce: "abcd1234",
      iat: "2030-01-01T00:00:00.000Z",
      exp: "2030-01-08T00:00:00.000Z",
      resources: [createEncodedRecap("eip155", "request", ["personal_sign"])]
    }
    const payload = populateAuthPayload({ authPayload: request, chains: [chain], methods: ["personal_sign"] })
    return buildAuthObject(payload, { t: "eip191", s: signature }, `did:pkh:${chain}:${address}`)
  }
  // The connector formats with our own formatter; WalletConnect's (2.21.8) must write the very same text.
  const format = (cacao: CacaoLike) => formatAuthMessage(cacao.p)
  const theirs = (cacao: CacaoLike) => formatMessage(cacao.p as AuthTypes.CacaoPayload, cacao.p.iss)

  it("gives each CACAO's data, signed text and signature: the text WalletConnect formats is exactly the EIP-4361 text of that data", () => {
    const cacaos = [cacaoOn(localChainA.caipNetworkId, "0xaa"), cacaoOn(localChainB.caipNetworkId, "0xbb")]
    const signed = signedMessages(cacaos, format)
    expect(signed.map((one) => one.message)).toEqual(cacaos.map(theirs))
    expect(signed.map((one) => one.signature)).toEqual(["0xaa", "0xbb"])
    expect(signed.map((one) => one.data.chainId)).toEqual([localChainA.caipNetworkId, localChainB.caipNetworkId])
    expect(signed[0]?.data).toMatchObject({
      domain: "shop.test",
      uri: "https://shop.test",
      version: "1",
      accountAddress: ALICE,
      nonce: "abcd1234",
      issuedAt: "2030-01-01T00:00:00.000Z",
      expirationTime: "2030-01-08T00:00:00.000Z",
      statement: "Sign in to Shop I further authorize the stated URI to perform the following actions on my behalf: (1) 'request': 'personal_sign' for 'eip155'."
    })
    for (const one of signed) expect(formatSiwxMessage(one.data as Parameters<typeof formatSiwxMessage>[0])).toEqual(Result.succeed(one.message))
  })

  it("an address written in lower case in iss makes a text that is not EIP-4361 (the site's sign-in will not keep it)", () => {
    const [lower] = signedMessages([cacaoOn(localChainA.caipNetworkId, "0xaa", ALICE.toLowerCase())], format)
    const ours = formatSiwxMessage(lower?.data as Parameters<typeof formatSiwxMessage>[0])
    expect(Result.isSuccess(ours) && ours.success === lower?.message).toBe(false)
  })

  it("reads iss and aud (else uri); what the payload leaves out or empty (a statement of '') is absent", () => {
    const cacao: CacaoLike = {
      p: { iss: "did:pkh:eip155:1:0xabc", domain: "d", aud: "https://d", version: "1", nonce: "n", iat: "t", statement: "" },
      s: { t: "eip191", s: "0x1" }
    }
    expect(messageDataOf(cacao)).toEqual({ domain: "d", uri: "https://d", version: "1", chainId: "eip155:1", accountAddress: "0xabc", nonce: "n", issuedAt: "t" })
    const { aud: _aud, ...withoutAud } = cacao.p
    expect(messageDataOf({ ...cacao, p: { ...withoutAud, uri: "https://u" } }).uri).toBe("https://u")
  })

  it("leaves out a CACAO whose text cannot be made or that carries no signature; no answer is no messages", () => {
    const broken = { ...cacaoOn(localChainA.caipNetworkId), p: { ...cacaoOn(localChainA.caipNetworkId).p, iss: "" } }
    expect(signedMessages([broken, cacaoOn(localChainB.caipNetworkId, "")], format)).toEqual([])
    expect(signedMessages(undefined, format)).toEqual([])
  })
})
