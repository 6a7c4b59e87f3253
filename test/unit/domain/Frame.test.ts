import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import {
  classifyEmbeddedRpcMethod,
  decodeFrameRequest,
  decodeFrameResponse,
  EMBEDDED_SAFE_RPC_METHODS,
  EMBEDDED_UNSAFE_RPC_METHODS,
  FRAME_ERROR_TYPES,
  FRAME_REQUEST_NAMES,
  SECRET_BEARING_TYPE,
  type FrameRequest,
  type FrameRequestName,
  type FrameResponse,
  frameReplyTypes,
  frameRequestNameOf,
  makeFrameRequest,
  replyKind
} from "../../../src/domain/Frame"

const user = {
  email: "ada@example.com",
  address: "0x52908400098527886E0F7030069857D2E4169EE7",
  chainId: 31337,
  accounts: [{ address: "0x52908400098527886E0F7030069857D2E4169EE7", type: "eoa" }],
  smartAccountDeployed: false,
  preferredAccountType: "eoa"
}

// One realistic payload per request (undefined: the request carries none).
const requestPayloads: Record<FrameRequestName, unknown> = {
  SWITCH_NETWORK: { chainId: 31338 },
  CONNECT_EMAIL: { email: "ada@example.com" },
  CONNECT_DEVICE: undefined,
  CONNECT_OTP: { otp: "123456" },
  CONNECT_SOCIAL: { uri: "https://frame.example/callback?code=abc" },
  GET_SOCIAL_REDIRECT_URI: { provider: "github" },
  GET_FARCASTER_URI: undefined,
  CONNECT_FARCASTER: undefined,
  GET_PASSKEY_URI: { mode: "create" },
  CONNECT_PASSKEY: undefined,
  GET_USER: { chainId: "eip155:31337" },
  SIGN_OUT: undefined,
  IS_CONNECTED: undefined,
  GET_CHAIN_ID: undefined,
  GET_SMART_ACCOUNT_ENABLED_NETWORKS: undefined,
  INIT_SMART_ACCOUNT: undefined,
  SET_PREFERRED_ACCOUNT: { type: "smartAccount" },
  RPC_REQUEST: { method: "personal_sign", params: ["0x68656c6c6f", user.address] },
  UPDATE_EMAIL: { email: "new@example.com" },
  UPDATE_EMAIL_PRIMARY_OTP: { otp: "654321" },
  UPDATE_EMAIL_SECONDARY_OTP: { otp: "111111" },
  AWAIT_UPDATE_EMAIL: undefined,
  SYNC_THEME: { themeMode: "dark", themeVariables: { "--wr-accent": "#47a1ff" }, w3mThemeVariables: {} },
  SYNC_DAPP_DATA: {
    metadata: { name: "Demo", description: "A demo", url: "http://127.0.0.1:5173", icons: [] },
    sdkVersion: "react-wallet-runtime-0.1.0",
    projectId: "demo-project",
    sdkType: "wr"
  },
  RELOAD: undefined,
  OPEN_SECURE_VIEW: { kind: "export", themeMode: "dark" },
  CLOSE_SECURE_VIEW: undefined
}

const successPayloads: Record<FrameRequestName, unknown> = {
  SWITCH_NETWORK: { chainId: 31338 },
  CONNECT_EMAIL: { action: "VERIFY_OTP" },
  CONNECT_DEVICE: undefined,
  CONNECT_OTP: undefined,
  CONNECT_SOCIAL: { ...user, userName: "ada" },
  GET_SOCIAL_REDIRECT_URI: { uri: "https://github.com/login/oauth/authorize?client_id=x" },
  GET_FARCASTER_URI: { url: "https://warpcast.com/~/siwf?channelToken=abc" },
  CONNECT_FARCASTER: { userName: "ada" },
  GET_PASSKEY_URI: { uri: "https://frame.example/frame/passkey?projectId=p&state=s" },
  CONNECT_PASSKEY: user,
  GET_USER: user,
  SIGN_OUT: undefined,
  IS_CONNECTED: { isConnected: true },
  GET_CHAIN_ID: { chainId: 31337 },
  GET_SMART_ACCOUNT_ENABLED_NETWORKS: { smartAccountEnabledNetworks: [31337, 31338] },
  INIT_SMART_ACCOUNT: undefined,
  SET_PREFERRED_ACCOUNT: { type: "smartAccount", address: user.address },
  RPC_REQUEST: `0x${"ab".repeat(65)}`,
  UPDATE_EMAIL: { action: "VERIFY_PRIMARY_OTP" },
  UPDATE_EMAIL_PRIMARY_OTP: undefined,
  UPDATE_EMAIL_SECONDARY_OTP: { newEmail: "new@example.com" },
  AWAIT_UPDATE_EMAIL: { email: "new@example.com" },
  SYNC_THEME: undefined,
  SYNC_DAPP_DATA: undefined,
  RELOAD: undefined,
  OPEN_SECURE_VIEW: { outcome: "cancelled" },
  CLOSE_SECURE_VIEW: undefined
}

const message = (type: string, payload: unknown, id: string | undefined = "req-1") => ({
  ...(id === undefined ? {} : { id }),
  type,
  ...(payload === undefined ? {} : { payload })
})

const decodedRequest = (input: unknown): FrameRequest => {
  const result = decodeFrameRequest(input)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const decodedResponse = (input: unknown): FrameResponse => {
  const result = decodeFrameResponse(input)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

describe("frame requests", () => {
  it("cover every request of spec 7.1", () => {
    expect([...FRAME_REQUEST_NAMES].sort()).toEqual(Object.keys(requestPayloads).sort())
  })

  it.each(FRAME_REQUEST_NAMES)("%s decodes with its payload", (name) => {
    const input = message(`@wr-app/${name}`, requestPayloads[name])
    expect(decodedRequest(input)).toEqual(input)
  })

  it("payload-less requests built by makeFrameRequest carry no payload key", () => {
    expect(makeFrameRequest("SIGN_OUT", "abc")).toEqual({ id: "abc", type: "@wr-app/SIGN_OUT" })
    expect(makeFrameRequest("CONNECT_EMAIL", "abc", { email: "ada@example.com" })).toEqual({
      id: "abc",
      type: "@wr-app/CONNECT_EMAIL",
      payload: { email: "ada@example.com" }
    })
  })

  it.each([
    ["an invalid email", { type: "@wr-app/CONNECT_EMAIL", payload: { email: "not-an-email" } }],
    ["an untrimmed email", { type: "@wr-app/CONNECT_EMAIL", payload: { email: " ada@example.com" } }],
    ["an otp that is a number", { type: "@wr-app/CONNECT_OTP", payload: { otp: 123456 } }],
    ["an unknown social provider", { type: "@wr-app/GET_SOCIAL_REDIRECT_URI", payload: { provider: "myspace" } }],
    ["a payment account as preferred type", { type: "@wr-app/SET_PREFERRED_ACCOUNT", payload: { type: "payment" } }],
    ["an RPC request without method", { type: "@wr-app/RPC_REQUEST", payload: { params: [] } }],
    ["an unknown theme variable", { type: "@wr-app/SYNC_THEME", payload: { themeVariables: { "--x": "1" } } }],
    ["a missing payload", { type: "@wr-app/SWITCH_NETWORK" }]
  ])("refuse %s", (_label, input) => {
    expect(Result.isFailure(decodeFrameRequest({ id: "req-1", ...input }))).toBe(true)
  })
})

describe("frame replies", () => {
  it.each(FRAME_REQUEST_NAMES)("%s_SUCCESS and %s_ERROR decode with the same id", (name) => {
    const ok = message(`@wr-frame/${name}_SUCCESS`, successPayloads[name])
    expect(decodedResponse(ok)).toEqual(ok)
    const failed = message(`@wr-frame/${name}_ERROR`, { message: "Invalid OTP" })
    expect(decodedResponse(failed)).toEqual(failed)
  })

  it("READY (with or without version) and SESSION_UPDATE decode without id", () => {
    expect(decodedResponse({ type: "@wr-frame/READY" })).toEqual({ type: "@wr-frame/READY" })
    expect(decodedResponse({ type: "@wr-frame/READY", payload: { version: "4" } })).toEqual({
      type: "@wr-frame/READY",
      payload: { version: "4" }
    })
    expect(decodedResponse({ type: "@wr-frame/SESSION_UPDATE", payload: { token: "jwt" } })).toEqual({
      type: "@wr-frame/SESSION_UPDATE",
      payload: { token: "jwt" }
    })
  })

  it.each([
    ["a login step that is not a CONNECT_EMAIL answer", { type: "@wr-frame/CONNECT_EMAIL_SUCCESS", payload: { action: "CONNECT" } }],
    ["an email-update step it does not know", { type: "@wr-frame/UPDATE_EMAIL_SUCCESS", payload: { action: "VERIFY_OTP" } }],
    ["isConnected as text", { type: "@wr-frame/IS_CONNECTED_SUCCESS", payload: { isConnected: "true" } }],
    ["a user without address", { type: "@wr-frame/GET_USER_SUCCESS", payload: { chainId: 1, accounts: [] } }],
    ["an error whose message is not text", { type: "@wr-frame/SIGN_OUT_ERROR", payload: { message: 7 } }],
    ["an error of an unknown request", { type: "@wr-frame/MINE_BITCOIN_ERROR", payload: { message: "x" } }],
    ["an error with a code the protocol does not define", { type: "@wr-frame/CONNECT_EMAIL_ERROR", payload: { message: "x", code: "cooldown", retryAfterSeconds: 3 } }],
    ["an error whose wait is not a whole positive number of seconds", { type: "@wr-frame/CONNECT_EMAIL_ERROR", payload: { message: "x", code: "busy", retryAfterSeconds: 0 } }],
    ["SESSION_UPDATE without token", { type: "@wr-frame/SESSION_UPDATE", payload: {} }]
  ])("refuse %s", (_label, input) => {
    expect(Result.isFailure(decodeFrameResponse({ id: "req-1", ...input }))).toBe(true)
  })

  it("accept an error reply's refusal for now: its code and how many seconds to wait", () => {
    for (const code of ["email_rate_limited", "rate_limited", "busy"]) {
      const refused = { id: "req-1", type: "@wr-frame/CONNECT_EMAIL_ERROR", payload: { message: "Please try again after 9 seconds", code, retryAfterSeconds: 9 } }
      expect(decodedResponse(refused)).toEqual(refused)
    }
  })

  it("accept an error reply without a message, or without a payload (the visitor then reads 'An error occurred')", () => {
    expect(decodedResponse({ id: "req-1", type: "@wr-frame/SIGN_OUT_ERROR", payload: {} })).toEqual({
      id: "req-1",
      type: "@wr-frame/SIGN_OUT_ERROR",
      payload: {}
    })
    expect(decodedResponse({ id: "req-1", type: "@wr-frame/SIGN_OUT_ERROR" })).toEqual({ id: "req-1", type: "@wr-frame/SIGN_OUT_ERROR" })
  })

  it("refuse a success reply without id", () => {
    expect(Result.isFailure(decodeFrameResponse({ type: "@wr-frame/SIGN_OUT_SUCCESS" }))).toBe(true)
  })
})

describe("hostile messages are refused", () => {
  const valid = { id: "req-1", type: "@wr-app/CONNECT_EMAIL", payload: { email: "ada@example.com" } }

  it.each([
    ["the peer's prefix", { ...valid, type: "@w3m-app/CONNECT_EMAIL" }],
    ["the frame prefix on a request", { ...valid, type: "@wr-frame/CONNECT_EMAIL" }],
    ["an unknown type", { ...valid, type: "@wr-app/DRAIN_WALLET" }],
    ["a missing id", { type: valid.type, payload: valid.payload }],
    ["an empty id", { ...valid, id: "" }],
    ["a numeric id", { ...valid, id: 7 }],
    ["an id with markup", { ...valid, id: "<img src=x onerror=alert(1)>" }],
    ["an overlong id", { ...valid, id: "a".repeat(65) }],
    ["an extra huge payload", { ...valid, extra: "x".repeat(1_000_000) }],
    ["an extra payload key", { ...valid, payload: { ...valid.payload, redirect: "https://evil.example" } }],
    ["a payload on a payload-less request", { id: "req-1", type: "@wr-app/SIGN_OUT", payload: { all: true } }]
  ])("with %s", (_label, input) => {
    expect(Result.isFailure(decodeFrameRequest(input))).toBe(true)
  })

  it.each([null, undefined, 42, "@wr-app/SIGN_OUT", [valid], true])("that are not objects: %j", (input) => {
    expect(Result.isFailure(decodeFrameRequest(input))).toBe(true)
    expect(Result.isFailure(decodeFrameResponse(input))).toBe(true)
  })

  it("with prototype-pollution keys, and nothing is polluted", () => {
    const attacks = [
      '{"id":"req-1","type":"@wr-app/SIGN_OUT","__proto__":{"polluted":true}}',
      '{"id":"req-1","type":"@wr-app/CONNECT_EMAIL","payload":{"email":"ada@example.com","__proto__":{"polluted":true}}}',
      '{"id":"req-1","type":"@wr-app/SIGN_OUT","constructor":{"prototype":{"polluted":true}}}'
    ]
    for (const text of attacks) {
      expect(Result.isFailure(decodeFrameRequest(JSON.parse(text)))).toBe(true)
    }
    const reply = '{"id":"req-1","type":"@wr-frame/IS_CONNECTED_SUCCESS","payload":{"isConnected":true,"__proto__":{"polluted":true}}}'
    expect(Result.isFailure(decodeFrameResponse(JSON.parse(reply)))).toBe(true)
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })

  it("a reply carrying a request type is not a reply", () => {
    expect(Result.isFailure(decodeFrameResponse(valid))).toBe(true)
  })
})

describe("no message carries a key, a share or a recovery secret", () => {
  it("no request or reply type names one", () => {
    for (const name of FRAME_REQUEST_NAMES) expect(name).not.toMatch(SECRET_BEARING_TYPE)
    for (const type of FRAME_ERROR_TYPES) expect(type).not.toMatch(SECRET_BEARING_TYPE)
    // The words are whole words of a type: a passkey is not a key.
    for (const type of ["@wr-app/EXPORT_PRIVATE_KEY", "@wr-app/GET_SERVER_SHARE", "@wr-frame/RECOVERY_SECRET_SUCCESS", "@wr-app/KEYS"]) {
      expect(type).toMatch(SECRET_BEARING_TYPE)
    }
  })

  it.each([
    ["a key request", { id: "req-1", type: "@wr-app/EXPORT_PRIVATE_KEY" }],
    ["a share request", { id: "req-1", type: "@wr-app/GET_SERVER_SHARE", payload: { family: "eip155" } }],
    ["a secure view that carries a password", { id: "req-1", type: "@wr-app/OPEN_SECURE_VIEW", payload: { kind: "protect", password: "hunter2hunter2" } }],
    ["a secure view of an unknown kind", { id: "req-1", type: "@wr-app/OPEN_SECURE_VIEW", payload: { kind: "reveal-seed" } }]
  ])("the frame refuses %s", (_label, input) => {
    expect(Result.isFailure(decodeFrameRequest(input))).toBe(true)
  })

  it.each([
    ["an outcome with the key", { id: "req-1", type: "@wr-frame/OPEN_SECURE_VIEW_SUCCESS", payload: { outcome: "done", key: `0x${"11".repeat(32)}` } }],
    ["an outcome with a share", { id: "req-1", type: "@wr-frame/OPEN_SECURE_VIEW_SUCCESS", payload: { outcome: "done", share: "AQID" } }],
    ["an unknown outcome", { id: "req-1", type: "@wr-frame/OPEN_SECURE_VIEW_SUCCESS", payload: { outcome: `0x${"11".repeat(32)}` } }],
    ["a key reply", { id: "req-1", type: "@wr-frame/EXPORT_PRIVATE_KEY_SUCCESS", payload: { key: `0x${"11".repeat(32)}` } }]
  ])("the bridge refuses %s", (_label, input) => {
    expect(Result.isFailure(decodeFrameResponse(input))).toBe(true)
  })
})

describe("request → reply mapping", () => {
  it("names both replies of each request", () => {
    expect(frameReplyTypes("CONNECT_EMAIL")).toEqual({
      success: "@wr-frame/CONNECT_EMAIL_SUCCESS",
      error: "@wr-frame/CONNECT_EMAIL_ERROR"
    })
    for (const name of FRAME_REQUEST_NAMES) {
      expect(frameRequestNameOf(`@wr-app/${name}`)).toBe(name)
      const { success, error } = frameReplyTypes(name)
      expect(Result.isSuccess(decodeFrameResponse(message(success, successPayloads[name])))).toBe(true)
      expect(Result.isSuccess(decodeFrameResponse(message(error, { message: "no" })))).toBe(true)
    }
  })

  it("matches a reply to its request by id and type only", () => {
    const request = makeFrameRequest("IS_CONNECTED", "req-7")
    const reply = (input: unknown) => replyKind(request, decodedResponse(input))
    expect(reply({ id: "req-7", type: "@wr-frame/IS_CONNECTED_SUCCESS", payload: { isConnected: false } })).toBe("success")
    expect(reply({ id: "req-7", type: "@wr-frame/IS_CONNECTED_ERROR", payload: { message: "no" } })).toBe("error")
    expect(reply({ id: "req-8", type: "@wr-frame/IS_CONNECTED_SUCCESS", payload: { isConnected: true } })).toBe(
      "unrelated"
    )
    expect(reply({ id: "req-7", type: "@wr-frame/GET_CHAIN_ID_SUCCESS", payload: { chainId: 1 } })).toBe("unrelated")
    expect(reply({ type: "@wr-frame/READY" })).toBe("unrelated")
  })
})

describe("embedded-wallet RPC methods", () => {
  it.each([
    ["eth_call", "safe"],
    ["eth_getBalance", "safe"],
    ["eth_sendRawTransaction", "safe"],
    ["wallet_getCapabilities", "safe"],
    ["wallet_getCallsStatus", "safe"],
    ["personal_sign", "unsafe"],
    ["eth_signTypedData_v4", "unsafe"],
    ["eth_sendTransaction", "unsafe"],
    ["solana_signAndSendTransaction", "unsafe"],
    ["wallet_sendCalls", "unsafe"],
    ["eth_sendUserOperation", "unsafe"],
    ["eth_sign", "rejected"],
    ["wallet_switchEthereumChain", "rejected"],
    ["", "rejected"],
    ["__proto__", "rejected"]
  ])("%s is %s", (method, expected) => {
    expect(classifyEmbeddedRpcMethod(method)).toBe(expected)
  })

  it("no method is both safe and unsafe", () => {
    const unsafe: ReadonlyArray<string> = EMBEDDED_UNSAFE_RPC_METHODS
    expect(EMBEDDED_SAFE_RPC_METHODS.filter((method) => unsafe.includes(method))).toEqual([])
  })
})
