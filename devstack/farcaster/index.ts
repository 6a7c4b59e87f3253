/**
 * The local stack's Farcaster stand-in: an id registry on an anvil chain (fid → custody address, the contract of
 * `../contracts/FarcasterIdRegistry.sol`, deployed from a key of its own so the dev accounts' nonces stay as they
 * were) holding a few test users, and a test Farcaster client: a page where the visitor pastes (or is sent with) a
 * Sign In With Farcaster link, picks a test user, and the client signs the channel's EIP-4361 message with that
 * user's custody key and posts it to the channel's relay (the wallet server's `POST /v1/channel/authenticate`).
 *
 * The client builds its message with viem's `createSiweMessage`, not with the verifier's library: the two sides of
 * the channel are written apart.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { type Address, createWalletClient, type Hex, http, keccak256, publicActions, toHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import { escapeHtml, HTML_CONTENT_TYPE, htmlDocument } from "../../server/src/lib/html"
import type { Started } from "../../server/src/lib/Started"
import { loadArtifacts } from "../contracts/artifacts"
import { devChain } from "../evm/chains"

/** A test Farcaster user: its fid, names, and the custody key that holds the fid in the registry. */
export interface FarcasterTestUser {
  readonly fid: number
  readonly username: string
  readonly displayName: string
  readonly custodyKey: Hex
}

const keyOf = (label: string): Hex => keccak256(toHex(`wallet-runtime devstack farcaster ${label}`))

/** The test users the registry holds (public keys of a local chain: never use them elsewhere). */
export const FARCASTER_TEST_USERS: ReadonlyArray<FarcasterTestUser> = [
  { fid: 20001, username: "alice", displayName: "Alice", custodyKey: keyOf("custody 20001") },
  { fid: 20002, username: "bob", displayName: "Bob", custodyKey: keyOf("custody 20002") }
]

/** A key that holds no fid: signing with it is refused (the tests' wrong key). */
export const FARCASTER_STRANGER_KEY: Hex = keyOf("stranger")

/** Where the registry is: the wallet server's `farcaster` option. */
export interface FarcasterRegistryInfo {
  readonly rpcUrl: string
  readonly idRegistry: Address
}

/** Deploys the id registry on the anvil of `rpcUrl` and registers the test users (same address on a fresh chain). */
export const deployFarcasterRegistry = async (chainId: number, rpcUrl: string): Promise<FarcasterRegistryInfo> => {
  const deployer = privateKeyToAccount(keyOf("registry deployer"))
  const client = createWalletClient({ account: deployer, chain: devChain(chainId, rpcUrl), transport: http(rpcUrl) }).extend(publicActions)
  await client.request({ method: "anvil_setBalance" as never, params: [deployer.address, "0x8ac7230489e80000"] as never })
  const { abi, bytecode } = loadArtifacts().FarcasterIdRegistry
  const deployed = await client.waitForTransactionReceipt({ hash: await client.deployContract({ abi, bytecode }) })
  const idRegistry = deployed.contractAddress
  if (idRegistry === null || idRegistry === undefined) throw new Error("the Farcaster id registry was not deployed")
  for (const user of FARCASTER_TEST_USERS) {
    const custody = privateKeyToAccount(user.custodyKey).address
    const hash = await client.writeContract({ address: idRegistry, abi, functionName: "register", args: [BigInt(user.fid), custody] })
    await client.waitForTransactionReceipt({ hash })
  }
  return { rpcUrl, idRegistry }
}

/** What a Sign In With Farcaster link asks to sign. */
export interface ChannelRequest {
  readonly channelToken: string
  readonly nonce: string
  readonly domain: string
  readonly siweUri: string
  readonly expirationTime: string | undefined
}

/** Reads a `farcaster://connect?channelToken=…&nonce=…&domain=…&siweUri=…` link; `undefined` when it is not one. */
export const readChannelLink = (link: string): ChannelRequest | undefined => {
  let url: URL
  try {
    url = new URL(link.trim())
  } catch {
    return undefined
  }
  const get = (name: string) => url.searchParams.get(name) ?? ""
  if (url.protocol !== "farcaster:" || get("channelToken") === "" || get("nonce") === "" || get("domain") === "" || get("siweUri") === "") return undefined
  return { channelToken: get("channelToken"), nonce: get("nonce"), domain: get("domain"), siweUri: get("siweUri"), expirationTime: url.searchParams.get("expirationTime") ?? undefined }
}

/** The Sign In With Farcaster message of `request` for `fid`, signed by `key`. */
export const signChannel = async (request: ChannelRequest, fid: number, key: Hex, now = new Date()) => {
  const account = privateKeyToAccount(key)
  const message = createSiweMessage({
    domain: request.domain,
    address: account.address,
    statement: "Farcaster Auth",
    uri: request.siweUri,
    version: "1",
    chainId: 10,
    nonce: request.nonce,
    issuedAt: now,
    ...(request.expirationTime === undefined ? {} : { expirationTime: new Date(request.expirationTime) }),
    resources: [`farcaster://fid/${fid}`]
  })
  return { message, signature: await account.signMessage({ message }) }
}

/** Posts a signed message to the channel's relay; the relay's status and body. */
export const postToRelay = async (
  relayUrl: string,
  body: { readonly channelToken: string; readonly message: string; readonly signature: string; readonly fid: number; readonly username?: string; readonly displayName?: string }
): Promise<{ readonly status: number; readonly body: Record<string, unknown> }> => {
  const response = await fetch(new URL("/v1/channel/authenticate", relayUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000)
  })
  const text = await response.text()
  let parsed: Record<string, unknown> = {}
  try {
    parsed = JSON.parse(text) as Record<string, unknown>
  } catch {
    parsed = { error: text }
  }
  return { status: response.status, body: parsed }
}

/** What the test client exposes. */
export interface FarcasterClientInfo {
  /** The client's page; `{url}?uri=<link>` opens it with a link filled in. */
  readonly url: string
  /** The relay the client posts to (the wallet server); set once it runs. */
  readonly setRelayUrl: (url: string) => void
}

const send = (res: ServerResponse, status: number, html: string) => {
  res.writeHead(status, {
    "content-type": HTML_CONTENT_TYPE,
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
  })
  res.end(html)
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => {
      text += chunk
      if (text.length > 16_384) req.destroy(new Error("body too large"))
    })
    req.on("end", () => resolve(text))
    req.on("error", reject)
  })

const CSS =
  "label{display:block;margin:.75rem 0 .25rem;font-weight:600}textarea,select{width:100%;font:inherit;padding:.4rem}button{margin-top:1rem;font:inherit;padding:.5rem 1rem;border-radius:8px;border:0;background:#855dcd;color:#fff}.error{color:#b00020}.note{color:#555}"

const formPage = (link: string, problem?: string) =>
  htmlDocument(
    "Farcaster test client",
    `<p class="note">The local stack's stand-in for a Farcaster app: it signs in with a test user's custody key. Paste the
link the modal shows (or scan it into this page's address as <code>?uri=…</code>).</p>
${problem === undefined ? "" : `<p class="error" role="alert">${escapeHtml(problem)}</p>`}
<form method="post" action="./sign">
<label for="uri">Sign-in link</label><textarea id="uri" name="uri" rows="4" required>${escapeHtml(link)}</textarea>
<label for="fid">Sign in as</label><select id="fid" name="fid">${FARCASTER_TEST_USERS.map(
      (user) => `<option value="${user.fid}">@${escapeHtml(user.username)} (fid ${user.fid})</option>`
    ).join("")}</select>
<button type="submit">Sign in with Farcaster</button></form>`,
    { css: CSS }
  )

/** Starts the test Farcaster client's page on loopback. */
export const startFarcasterClient = async (opts: { readonly relayUrl?: string } = {}): Promise<Started<FarcasterClientInfo>> => {
  let relayUrl = opts.relayUrl
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://farcaster-client")
    if (req.method === "GET" && url.pathname === "/") return send(res, 200, formPage(url.searchParams.get("uri") ?? ""))
    if (req.method === "POST" && url.pathname === "/sign") {
      void readBody(req)
        .then(async (text) => {
          const fields = new URLSearchParams(text)
          const link = fields.get("uri") ?? ""
          const request = readChannelLink(link)
          const user = FARCASTER_TEST_USERS.find((candidate) => String(candidate.fid) === fields.get("fid"))
          if (request === undefined) return send(res, 400, formPage(link, "This is not a Sign In With Farcaster link (farcaster://connect?channelToken=…)."))
          if (user === undefined) return send(res, 400, formPage(link, "Choose a test user."))
          if (relayUrl === undefined) return send(res, 503, formPage(link, "The client does not know the relay yet: try again in a moment."))
          const signed = await signChannel(request, user.fid, user.custodyKey)
          const answer = await postToRelay(relayUrl, { channelToken: request.channelToken, ...signed, fid: user.fid, username: user.username, displayName: user.displayName })
          if (answer.status !== 200) {
            return send(res, 400, formPage(link, typeof answer.body["error"] === "string" ? answer.body["error"] : `The relay answered HTTP ${answer.status}`))
          }
          send(
            res,
            200,
            htmlDocument(
              "Signed in",
              `<p role="status">You signed in as @${escapeHtml(user.username)} (fid ${user.fid}). Go back to the app: it logs you in.</p>`,
              { css: CSS }
            )
          )
        })
        .catch((error: unknown) => send(res, 500, formPage("", `The sign-in failed: ${error instanceof Error ? error.message : String(error)}`)))
      return
    }
    send(res, 404, htmlDocument("Not found", "<p>Not found</p>"))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    info: { url: `http://127.0.0.1:${port}/`, setRelayUrl: (next) => void (relayUrl = next) },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
