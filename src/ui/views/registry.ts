/**
 * Every view of the modal: its title, the sentence that describes it to assistive technology, and its component,
 * loaded on first use so that a page pays nothing for the modal's views until it opens. Views are loaded by us, not
 * by `React.lazy`: a Suspense fallback, once shown, holds the new view back for React's 300 ms reveal throttle,
 * while our loader shows the view the moment its chunk arrives, and lets views be fetched ahead of need.
 */
import type { ModalView } from "../../domain/rules"
import { type AccountFormView, lazyView, registered, type ViewEntry } from "./viewEntries"

export { type LazyView, lazyView, type ViewEntry } from "./viewEntries"

const Connect = lazyView(() => import("./Connect/Connect").then((m) => m.Connect))
const WhatIsAWallet = lazyView(() => import("./WhatIsAWallet/WhatIsAWallet").then((m) => m.WhatIsAWallet))
const AllWallets = lazyView(() => import("./AllWallets/AllWallets").then((m) => m.AllWallets))
const ConnectingExternal = lazyView(() => import("./ConnectingExternal/ConnectingExternal").then((m) => m.ConnectingExternal))
const Account = lazyView(() => import("./Account/Account").then((m) => m.Account))
const Networks = lazyView(() => import("./Networks/Networks").then((m) => m.Networks))
const UnsupportedChain = lazyView(() => import("./UnsupportedChain/UnsupportedChain").then((m) => m.UnsupportedChain))
const WalletConnectBasic = lazyView(() => import("./WalletConnect/WalletConnectBasic").then((m) => m.WalletConnectBasic))
const ConnectingWalletConnect = lazyView(() =>
  import("./WalletConnect/ConnectingWalletConnect").then((m) => m.ConnectingWalletConnect)
)
const ConnectingFarcaster = lazyView(() => import("./ConnectingFarcaster/ConnectingFarcaster").then((m) => m.ConnectingFarcaster))
const Send = lazyView(() => import("./Send/Send").then((m) => m.Send))
const SendReview = lazyView(() => import("./Send/SendReview").then((m) => m.SendReview))
const SendResult = lazyView(() => import("./Send/SendResult").then((m) => m.SendResult))
const Receive = lazyView(() => import("./Receive/Receive").then((m) => m.Receive))
const SIWXSignMessage = lazyView(() => import("./SIWXSignMessage/SIWXSignMessage").then((m) => m.SIWXSignMessage))
const RegisterAccountName = lazyView(() => import("./RegisterAccountName/RegisterAccountName").then((m) => m.RegisterAccountName))
const RegisterAccountNameSuccess = lazyView(() =>
  import("./RegisterAccountNameSuccess/RegisterAccountNameSuccess").then((m) => m.RegisterAccountNameSuccess)
)
// The five email views come in one chunk: one import site, one preload list in the start chunk.
const emailViews = () => import("./EmailLogin/emailViews")
const EmailVerifyOtp = lazyView(() => emailViews().then((m) => m.EmailVerifyOtp))
const EmailVerifyDevice = lazyView(() => emailViews().then((m) => m.EmailVerifyDevice))
const UpdateEmail = lazyView(() => emailViews().then((m) => m.UpdateEmail))
const UpdateEmailPrimaryOtp = lazyView(() => emailViews().then((m) => m.UpdateEmailPrimaryOtp))
const UpdateEmailSecondaryOtp = lazyView(() => emailViews().then((m) => m.UpdateEmailSecondaryOtp))
const ApproveTransaction = lazyView(() => import("./ApproveTransaction/ApproveTransaction").then((m) => m.ApproveTransaction))
/** Every view, by name, but those the Account view's chunk registers (`viewEntries.ts`). */
export const VIEWS: { readonly [V in Exclude<ModalView, AccountFormView>]: ViewEntry<V> } = {
  Connect: { title: "Connect a wallet", description: "Choose the wallet to connect to this site.", Component: Connect },
  AllWallets: { title: "All wallets", description: "Search the wallets you can connect and choose one.", Component: AllWallets },
  WhatIsAWallet: {
    title: "What is a wallet?",
    description: "What a wallet is for, and where to get one.",
    Component: WhatIsAWallet
  },
  ConnectingExternal: {
    title: "Connect wallet",
    description: "Approve the connection in your wallet.",
    Component: ConnectingExternal
  },
  Account: { title: "Account", description: "Your connected wallet: address, balance and network.", Component: Account },
  Networks: { title: "Choose network", description: "Choose the network your wallet uses on this site.", Component: Networks },
  UnsupportedChain: {
    title: "Switch network",
    description: "Your wallet is on a network this site does not support. Choose a supported network or disconnect.",
    Component: UnsupportedChain
  },
  WalletConnectBasic: {
    title: "WalletConnect",
    description: "Scan the QR code with a WalletConnect wallet, or copy the link into it.",
    Component: WalletConnectBasic
  },
  ConnectingWalletConnect: {
    title: "Connect wallet",
    description: "Open your wallet or scan the QR code, then approve the connection.",
    Component: ConnectingWalletConnect
  },
  ConnectingFarcaster: {
    title: "Farcaster",
    description: "Scan the QR code with the Farcaster app, or open the link on this device, then approve the sign-in.",
    Component: ConnectingFarcaster
  },
  SIWXSignMessage: {
    title: "Sign in",
    description: "Sign a free message to prove the account is yours.",
    Component: SIWXSignMessage
  },
  ApproveTransaction: {
    title: "Approve request",
    description: "Check what this site asks your wallet to sign or send, then approve or reject it.",
    Component: ApproveTransaction
  },
  RegisterAccountName: {
    title: "Choose a name",
    description: "Type a name for your account, then register it with your wallet.",
    Component: RegisterAccountName
  },
  RegisterAccountNameSuccess: {
    title: "Register name",
    description: "Sign in your wallet to register the name.",
    Component: RegisterAccountNameSuccess
  },
  Send: { title: "Send", description: "Choose what to send, how much and to whom.", Component: Send },
  SendReview: {
    title: "Review",
    description: "Check the transfer and its network fee, then confirm it in your wallet.",
    Component: SendReview
  },
  SendResult: { title: "Send", description: "How your transfer is going.", Component: SendResult },
  Receive: {
    title: "Receive",
    description: "Your address as a QR code, to copy or scan, and the networks it receives on.",
    Component: Receive
  },
  EmailVerifyOtp: {
    title: "Confirm your email",
    description: "Enter the 6-digit code we emailed you.",
    Component: EmailVerifyOtp
  },
  EmailVerifyDevice: {
    title: "Verify this device",
    description: "Open the link we emailed you to approve this browser.",
    Component: EmailVerifyDevice
  },
  UpdateEmail: { title: "Update email", description: "Type the new email address of your wallet.", Component: UpdateEmail },
  UpdateEmailPrimaryOtp: {
    title: "Confirm your current email",
    description: "Enter the 6-digit code we sent to your current email address.",
    Component: UpdateEmailPrimaryOtp
  },
  UpdateEmailSecondaryOtp: {
    title: "Confirm your new email",
    description: "Enter the 6-digit code we sent to your new email address.",
    Component: UpdateEmailSecondaryOtp
  }
}

// What stands for a view whose chunk has not registered it yet.
const awaited: { [V in ModalView]?: ViewEntry } = {}

// A view opened before the chunk that registers it arrived (a host's own Swap button, a route a host opened by name):
// that chunk, then the view, are fetched, and the dialog takes the view's title once they are there.
const awaitedView = (view: ModalView): ViewEntry => ({
  title: "",
  description: "",
  Component: lazyView(() => VIEWS.Account.Component.load().then(() => viewOf(view).Component.load()))
})

/**
 * The view of a route, typed for any route: each entry of VIEWS takes exactly its own route, which TypeScript
 * cannot follow through an index by `route.view`, hence the one widening here.
 */
export const viewOf = (view: ModalView): ViewEntry =>
  ((VIEWS as { readonly [V in ModalView]?: ViewEntry<V> })[view] ?? registered[view] ?? (awaited[view] ??= awaitedView(view))) as unknown as ViewEntry

/** The views a visitor is likely to reach next from each view: fetched once the page is idle after it shows. */
export const NEXT_VIEWS: { readonly [V in ModalView]?: ReadonlyArray<ModalView> } = {
  Connect: ["ConnectingExternal", "AllWallets", "WalletConnectBasic", "WhatIsAWallet"],
  WhatIsAWallet: ["AllWallets"],
  AllWallets: ["ConnectingExternal", "ConnectingWalletConnect"],
  Account: ["Networks", "Connect", "Send", "Receive"],
  Send: ["SendReview"],
  SendReview: ["SendResult"],
  RegisterAccountName: ["RegisterAccountNameSuccess"],
  Networks: ["UnsupportedChain"],
  UnsupportedChain: ["Networks", "Connect"],
  UpdateEmail: ["UpdateEmailPrimaryOtp"],
  UpdateEmailPrimaryOtp: ["UpdateEmailSecondaryOtp"]
}

const OPENING_VIEWS_DISCONNECTED: ReadonlyArray<ModalView> = ["Connect"]
const OPENING_VIEWS_CONNECTED: ReadonlyArray<ModalView> = ["Account"]

/**
 * The views fetched when the page is idle, or on a visitor's intent: what the next click opens. A visitor who is not
 * connected gets Connect (what choosing a wallet there shows comes once Connect is shown: NEXT_VIEWS); a connected one
 * (or one whose session is being restored) gets Account. The Account view of a first visit is fetched once it connects, so
 * a first visit's page does not fetch a view its first click cannot open. The same array each time (a hook's
 * dependency).
 */
export const openingViews = (connected: boolean): ReadonlyArray<ModalView> =>
  connected ? OPENING_VIEWS_CONNECTED : OPENING_VIEWS_DISCONNECTED

/** Fetches views ahead of need (a failure is left for the moment the view is really opened). */
export const preloadViews = (views: ReadonlyArray<ModalView>): void => {
  for (const view of views) viewOf(view).Component.load().catch(() => undefined)
}
