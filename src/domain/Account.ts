/**
 * Accounts (spec point 3): the accounts of a connected wallet, the account state kept per chain namespace, the
 * embedded-wallet user, the connected wallet's description, balance and profile.
 */
import { Schema } from "effect"
import { CaipAddress } from "./Caip"
import { ConnectorType } from "./Wallet"
import { TokenBalance } from "./Portfolio"
import { SOCIAL_PROVIDERS } from "./validation"

/**
 * Kind of account: externally owned, a Bitcoin payment address, a Bitcoin ordinals (inscriptions) address, or a
 * smart-contract account.
 */
export const AccountType = Schema.Literals(["eoa", "payment", "ordinals", "smartAccount"])
/** Kind of account. */
export type AccountType = typeof AccountType.Type

/** Account kinds the embedded wallet offers (no Bitcoin payment address there). */
export const EmbeddedAccountType = Schema.Literals(["eoa", "smartAccount"])
/** Account kinds the embedded wallet offers. */
export type EmbeddedAccountType = typeof EmbeddedAccountType.Type

/** An address of the connected wallet and its kind. */
export const Account = Schema.Struct({
  address: Schema.String,
  type: AccountType
})
/** An address of the connected wallet and its kind. */
export type Account = typeof Account.Type

/** Connection status of one chain namespace (spec point 4). */
export const ConnectionStatus = Schema.Literals(["disconnected", "connecting", "reconnecting", "connected"])
/** Connection status of one chain namespace. */
export type ConnectionStatus = typeof ConnectionStatus.Type

/** Social login providers (spec point 5). */
export const SocialProvider = Schema.Literals(SOCIAL_PROVIDERS)
/** A social login provider. */
export type SocialProvider = typeof SocialProvider.Type

/** How a social user logged in: a social provider, or the decentralised social app (farcaster). */
export const SocialLogin = Schema.Union([SocialProvider, Schema.Literal("farcaster")])
/** How a social user logged in. */
export type SocialLogin = typeof SocialLogin.Type

/** Light or dark appearance. */
export const ThemeMode = Schema.Literals(["light", "dark"])
/** Light or dark appearance. */
export type ThemeMode = typeof ThemeMode.Type

/** The user of the embedded (email/social) wallet, as the frame reports it. */
export const EmbeddedWalletUser = Schema.Struct({
  email: Schema.optionalKey(Schema.NullOr(Schema.String)),
  address: Schema.String,
  chainId: Schema.Union([Schema.String, Schema.Number]),
  accounts: Schema.Array(Schema.Struct({ address: Schema.String, type: EmbeddedAccountType })),
  userName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  smartAccountDeployed: Schema.optionalKey(Schema.Boolean),
  preferredAccountType: Schema.optionalKey(EmbeddedAccountType),
  username: Schema.optionalKey(Schema.NullOr(Schema.String)),
  /** The provider of a user who logged in with a social login (or farcaster). */
  socialProvider: Schema.optionalKey(SocialLogin),
  /** What opens the recovery share: a secret kept on this device only (not protected yet), a password or a passkey. */
  recovery: Schema.optional(Schema.Literals(["device", "password", "passkey"])),
  /**
   * True when this device holds no usable share of the user's split key (a new device, or one whose share a recovery
   * on another device retired): the visitor recovers here with the password or passkey, or, while `recovery` is
   * `device`, only the first device can protect the wallet first. Absent when the device can sign.
   */
  needsRecovery: Schema.optional(Schema.Boolean)
})
/** The user of the embedded wallet. */
export type EmbeddedWalletUser = typeof EmbeddedWalletUser.Type

/** Who is signed in to the embedded wallet, as far as the account view shows it. */
export const AccountUser = Schema.Struct({
  email: Schema.optionalKey(Schema.NullOr(Schema.String)),
  username: Schema.optionalKey(Schema.NullOr(Schema.String))
})
/** Who is signed in to the embedded wallet. */
export type AccountUser = typeof AccountUser.Type

/** Account state of one chain namespace. */
export const AccountState = Schema.Struct({
  caipAddress: Schema.optionalKey(CaipAddress),
  address: Schema.optionalKey(Schema.String),
  balance: Schema.optionalKey(Schema.String),
  balanceSymbol: Schema.optionalKey(Schema.String),
  profileName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  profileImage: Schema.optionalKey(Schema.NullOr(Schema.String)),
  status: ConnectionStatus,
  preferredAccountType: Schema.optionalKey(AccountType),
  socialProvider: Schema.optionalKey(SocialLogin),
  user: Schema.optionalKey(AccountUser),
  tokenBalance: Schema.optionalKey(Schema.Array(TokenBalance)),
  allAccounts: Schema.Array(Account)
})
/** Account state of one chain namespace. */
export type AccountState = typeof AccountState.Type

/** Account state before anything is connected (also what reset returns to). */
export const initialAccountState: AccountState = { status: "disconnected", allAccounts: [] }

/** What the account view says about the connected wallet. */
export const ConnectedWalletInfo = Schema.Struct({
  name: Schema.String,
  icon: Schema.optionalKey(Schema.String),
  type: Schema.optionalKey(ConnectorType),
  identifier: Schema.optionalKey(Schema.String),
  social: Schema.optionalKey(SocialProvider)
})
/** What the account view says about the connected wallet. */
export type ConnectedWalletInfo = typeof ConnectedWalletInfo.Type

/** A native balance: the amount as text and the currency symbol. */
export const Balance = Schema.Struct({
  balance: Schema.String,
  symbol: Schema.String
})
/** A native balance. */
export type Balance = typeof Balance.Type

/** The identity of an address: its name and avatar, when it has them. */
export const Profile = Schema.Struct({
  profileName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  profileImage: Schema.optionalKey(Schema.NullOr(Schema.String))
})
/** The identity of an address. */
export type Profile = typeof Profile.Type
