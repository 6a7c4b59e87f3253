/**
 * Business constants and limits (spec point 9), in one place so a reader finds them by name. Durations are in
 * milliseconds unless the name says otherwise.
 */

/** Portfolio and native balance cache lifetime. */
export const BALANCE_CACHE_MS = 30_000
/** Name and identity cache lifetime. */
export const IDENTITY_CACHE_MS = 5 * 60_000
/** After a balance failure, no new balance request for this long. */
export const BALANCE_RETRY_BLOCK_MS = 30_000

/** A WalletConnect pairing URI lives this long. */
export const PAIRING_LIFETIME_MS = 4 * 60_000
/** A pairing URI is treated as expired this much before its real expiry. */
export const PAIRING_EXPIRY_MARGIN_MS = 10_000

/** Wallets shown as featured or recommended on the Connect view. */
export const FEATURED_WALLETS_COUNT = 4
/** Wallets per catalogue page. */
export const WALLETS_PAGE_SIZE = 40
/** Wallets per catalogue search. */
export const WALLETS_SEARCH_SIZE = 100
/** Wait after the last keystroke before a wallet search is sent. */
export const WALLET_SEARCH_DEBOUNCE_MS = 300
/** Recent wallets kept. */
export const RECENT_WALLETS_MAX = 2

/** Swap slippage tolerance, in percent. */
export const SWAP_SLIPPAGE_PERCENT = 1
/** How long to wait for a transaction receipt. */
export const TRANSACTION_CONFIRMATION_MS = 25_000

/** How long a restore waits for a stored wallet to announce itself as the page loads (ours: not in the spec). */
export const WALLET_ANNOUNCE_WAIT_MS = 1_000

/**
 * How long restoring a stored session may take before the family shows disconnected (spec 4: a failed sync gives
 * disconnected); a wallet that never answers must not leave the page "Reconnecting…" for ever. Ours: not in the spec.
 */
export const SESSION_RESTORE_TIMEOUT_MS = 10_000
/**
 * How long a request no visitor answers (`eth_chainId`, `eth_accounts` asked of a wallet that has just given its
 * accounts) may wait: a wallet that hangs there is not waiting on anyone. Ours: not in the spec.
 */
export const WALLET_QUICK_ANSWER_MS = 5_000
/**
 * How long a request the visitor answers in the wallet (connect, switch network, sign, send) may wait: long enough to
 * find the wallet, unlock it and read a transaction, and longer than a WalletConnect pairing (4 min), so the flow
 * never stays on "Continue in…" or the button on "Connecting…" for ever. Ours: not in the spec.
 */
export const WALLET_ANSWER_TIMEOUT_MS = 5 * 60_000
/** Pending-transaction watching stops after this many notifications. */
export const PENDING_TRANSACTIONS_MAX = 99

/** A new snackbar replaces the shown one after this delay. */
export const SNACKBAR_REPLACE_DELAY_MS = 150
/** Image preload gives up after this long. */
export const IMAGE_PRELOAD_TIMEOUT_MS = 2_000
/** The modal shakes for this long. */
export const MODAL_SHAKE_MS = 500
/** Email login cool-down between codes. */
export const EMAIL_LOGIN_COOLDOWN_MS = 30_000
/** Each embedded-wallet login step (email, device, OTP, social, social redirect URI) times out after this. */
export const LOGIN_STEP_TIMEOUT_MS = 30_000
/** A disallowed method shows its message this long after the modal opened. */
export const NOT_ALLOWED_MESSAGE_DELAY_MS = 300

/** On-ramp limits used when the service offers none, per payment method, in fiat units. */
export const ONRAMP_FALLBACK_LIMITS = {
  card: { min: 10, max: 7_500 },
  bankAccount: { min: 10, max: 25_000 }
} as const
/** On-ramp fiat currencies used when the service offers none. */
export const ONRAMP_FALLBACK_CURRENCIES = ["USD", "EUR"] as const
/** On-ramp provider fee range when the service offers none, in percent. */
export const ONRAMP_FALLBACK_FEE_PERCENT = { min: 1, max: 2 } as const

/** Decimals of token amounts shown. */
export const AMOUNT_DISPLAY_DECIMALS = 3
/** Decimals of general numbers shown. */
export const NUMBER_DISPLAY_DECIMALS = 2
/** Locale of every number shown. */
export const NUMBER_LOCALE = "en-US"
/** Characters kept at the start of a truncated address. */
export const ADDRESS_TRUNCATE_START = 4
/** Characters kept at the end of a truncated address. */
export const ADDRESS_TRUNCATE_END = 6

/** Log level unless the host sets `logLevel` (a production build logs nothing unless it does). */
export const DEFAULT_LOG_LEVEL = "error"
/** Stacking order of the modal. */
export const MODAL_Z_INDEX = 999
/** Stacking order of the embedded-wallet frame. */
export const FRAME_Z_INDEX = 999_999
/** Width of the modal, in CSS pixels. */
export const MODAL_WIDTH_PX = 360

/** RPC endpoint ranking: how often every endpoint is pinged. */
export const RPC_RANKING_INTERVAL_MS = 4_000
/** RPC endpoint ranking: samples kept per endpoint. */
export const RPC_RANKING_SAMPLE_COUNT = 10
/** RPC endpoint ranking: a ping slower than this counts as failed. */
export const RPC_PING_TIMEOUT_MS = 1_000
/** RPC endpoint ranking: weight of stability and of latency in an endpoint's score. */
export const RPC_RANKING_WEIGHTS = { stability: 0.7, latency: 0.3 } as const

/** Embedded-frame protocol version sent when the host gives none. */
export const SECURE_SDK_VERSION_DEFAULT = 4
/** Native decimals of Solana mainnet. */
export const SOLANA_DECIMALS = 9
/** Native decimals of Bitcoin. */
export const BITCOIN_DECIMALS = 8
/** Balance shown on testnets and chains without balance support. */
export const ZERO_BALANCE_DISPLAY = "0.00"
/** Largest chain id usable in a name coin type (`0x80000000 | chainId` must stay within 32 bits). */
export const NAME_COIN_TYPE_CHAIN_ID_LIMIT = 2_147_483_648
/** High bit that marks an EVM coin type of a name (ENSIP-11). */
export const NAME_COIN_TYPE_EVM_FLAG = 0x8000_0000

/** Minimum length of an account name. */
export const ACCOUNT_NAME_MIN_LENGTH = 4

/** Features on unless the host turns them off (spec point 9, "Default features"). */
export const DEFAULT_FEATURES = {
  swaps: true,
  onramp: true,
  receive: true,
  send: true,
  email: true,
  passkey: false,
  emailShowWallets: true,
  history: true,
  analytics: true,
  allWallets: true,
  legalCheckbox: false,
  smartSessions: false,
  collapseWallets: false
} as const

/** Social logins offered unless the host chooses others, in this order. */
export const DEFAULT_SOCIALS = ["google", "x", "discord", "farcaster", "github", "apple", "facebook"] as const

/** Order of connector groups on the Connect view. */
export const CONNECTOR_ORDER = [
  "walletConnect",
  "recent",
  "injected",
  "featured",
  "custom",
  "external",
  "recommended"
] as const
/** A group of connectors on the Connect view. */
export type ConnectorGroup = (typeof CONNECTOR_ORDER)[number]

/** Order of the wallet features on the Account view. */
export const WALLET_FEATURE_ORDER = ["onramp", "swaps", "receive", "send"] as const
/** A wallet feature of the Account view. */
export type WalletFeature = (typeof WALLET_FEATURE_ORDER)[number]

/** Order of the connect methods unless injected wallets exist. */
export const CONNECT_METHOD_ORDER = ["email", "social", "wallet"] as const
/** A connect method. */
export type ConnectMethod = (typeof CONNECT_METHOD_ORDER)[number]

/** EIP-1193 / WalletConnect error codes the product reacts to. */
export const RPC_ERROR_CODES = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  unrecognizedChain: 4902,
  walletConnectUserRejected: 5000,
  invalidParams: -32602,
  internalError: -32603,
  limitExceeded: -32005,
  requestPending: -32002,
  transactionRejected: -32003
} as const

/** Codes with which a wallet says it does not know a chain, so it is asked to add it (spec point 4). */
export const ADD_CHAIN_ON_SWITCH_ERROR_CODES: ReadonlyArray<number> = [4902, 5000, 32603, -32603]

/** Account type used first on each chain family (spec point 6): EVM smartAccount, Bitcoin payment, Solana and Polkadot eoa. */
export const DEFAULT_ACCOUNT_TYPES = {
  eip155: "smartAccount",
  solana: "eoa",
  bip122: "payment",
  polkadot: "eoa"
} as const
