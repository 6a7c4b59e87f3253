/**
 * wallet-runtime: the Effect-native API — domain Schemas, errors and rules, the services and their layers, and
 * `makeWalletRuntime`. React hosts use `wallet-runtime/react`; tests use `wallet-runtime/testing`.
 */

export {
  Account,
  AccountState,
  AccountType,
  AccountUser,
  Balance,
  ConnectedWalletInfo,
  ConnectionStatus,
  EmbeddedAccountType,
  EmbeddedWalletUser,
  initialAccountState,
  Profile,
  SocialProvider,
  ThemeMode
} from "./domain/Account"

export {
  Alert,
  alertForServiceError,
  AlertId,
  Alerts
} from "./domain/alerts"

export {
  CaipAddress,
  caipAddressOn,
  type CaipAddressParts,
  CaipNetworkId,
  caipNetworkIdOfAddress,
  type CaipNetworkIdParts,
  CHAIN_NAMESPACES,
  ChainNamespace,
  formatCaipAddress,
  formatCaipNetworkId,
  isCaipAccountAddress,
  isCaipAddress,
  isCaipNetworkId,
  isCaipReference,
  isChainNamespace,
  parseCaipAddress,
  parseCaipNetworkId,
  plainAddressOf,
  toCaipAddress,
  toCaipNetworkId
} from "./domain/Caip"

export {
  ACCOUNT_NAME_MIN_LENGTH,
  ADD_CHAIN_ON_SWITCH_ERROR_CODES,
  ADDRESS_TRUNCATE_END,
  ADDRESS_TRUNCATE_START,
  AMOUNT_DISPLAY_DECIMALS,
  BALANCE_CACHE_MS,
  BALANCE_RETRY_BLOCK_MS,
  BITCOIN_DECIMALS,
  CONNECT_METHOD_ORDER,
  type ConnectMethod,
  CONNECTOR_ORDER,
  type ConnectorGroup,
  DEFAULT_FEATURES,
  DEFAULT_LOG_LEVEL,
  DEFAULT_SOCIALS,
  EMAIL_LOGIN_COOLDOWN_MS,
  FEATURED_WALLETS_COUNT,
  FRAME_Z_INDEX,
  IDENTITY_CACHE_MS,
  IMAGE_PRELOAD_TIMEOUT_MS,
  LOGIN_STEP_TIMEOUT_MS,
  MODAL_SHAKE_MS,
  MODAL_WIDTH_PX,
  MODAL_Z_INDEX,
  NAME_COIN_TYPE_CHAIN_ID_LIMIT,
  NAME_COIN_TYPE_EVM_FLAG,
  NOT_ALLOWED_MESSAGE_DELAY_MS,
  NUMBER_DISPLAY_DECIMALS,
  NUMBER_LOCALE,
  ONRAMP_FALLBACK_CURRENCIES,
  ONRAMP_FALLBACK_FEE_PERCENT,
  ONRAMP_FALLBACK_LIMITS,
  PAIRING_EXPIRY_MARGIN_MS,
  PAIRING_LIFETIME_MS,
  PENDING_TRANSACTIONS_MAX,
  RECENT_WALLETS_MAX,
  RPC_ERROR_CODES,
  RPC_PING_TIMEOUT_MS,
  RPC_RANKING_INTERVAL_MS,
  RPC_RANKING_SAMPLE_COUNT,
  RPC_RANKING_WEIGHTS,
  SECURE_SDK_VERSION_DEFAULT,
  SNACKBAR_REPLACE_DELAY_MS,
  SOLANA_DECIMALS,
  SWAP_SLIPPAGE_PERCENT,
  TRANSACTION_CONFIRMATION_MS,
  WALLET_FEATURE_ORDER,
  WALLET_SEARCH_DEBOUNCE_MS,
  type WalletFeature,
  WALLETS_PAGE_SIZE,
  WALLETS_SEARCH_SIZE,
  ZERO_BALANCE_DISPLAY
} from "./domain/constants"

export {
  AdapterForNamespaceMissing,
  AuthInitFailed,
  CaipNetworkOrAddressUndefined,
  CannotRemoveConnectedNetwork,
  CannotRemoveLastNetwork,
  CatalogueError,
  ChainNotSupported,
  ClientsNotSet,
  DisconnectFailed,
  EmailLoginDependencyFailed,
  EmailRateLimited,
  FrameError,
  FrameNotSet,
  GasEstimationFailed,
  GasPriceNetworkNotSupported,
  HttpStatusError,
  InvalidCaip10Address,
  InvalidCaip2NetworkId,
  InvalidCaipAddress,
  InvalidChainId,
  InvalidOptions,
  NameError,
  NameOperation,
  NetworkNotFound,
  ProgrammaticSwitchUnsupported,
  ProviderNotFound,
  RequestAborted,
  RequestRejectedByModal,
  RpcMethodNotAllowed,
  SendFormInvalid,
  SignatureDeclined,
  SignInFailed,
  SignMessageFailed,
  SiweSiwxConflict,
  SomethingWentWrong,
  SwapsNetworkNotSupported,
  TransactionReverted,
  UserRejected,
  WalletCapabilitiesInvalid,
  WalletConnectConnectorMissing
} from "./domain/errors"
export { FeatureUnavailable } from "./domain/featureUnavailable"

export {
  formatAmount,
  formatNumber,
  formatUnits,
  formatUsd,
  parseUnits,
  truncateAddress
} from "./domain/format"

export {
  classifyEmbeddedRpcMethod,
  decodeFrameRequest,
  decodeFrameResponse,
  EmailUpdateStep,
  EMBEDDED_SAFE_RPC_METHODS,
  EMBEDDED_UNSAFE_RPC_METHODS,
  type EmbeddedRpcClass,
  FRAME_APP_PREFIX,
  FRAME_ERROR_TYPES,
  FRAME_PREFIX,
  FRAME_REQUEST_NAMES,
  FrameErrorReply,
  FrameMessageId,
  FrameReady,
  type FrameReplyKind,
  frameReplyTypes,
  FrameRequest,
  type FrameRequestName,
  frameRequestNameOf,
  type FrameRequestPayload,
  frameRequestType,
  type FrameRequestType,
  FrameResponse,
  FrameSessionUpdate,
  FrameSuccess,
  type FrameSuccessPayload,
  LoginStep,
  makeFrameRequest,
  replyKind
} from "./domain/Frame"

export {
  NameMessage,
  NameMessageJson,
  NameRegistrationPayload
} from "./domain/Names"

export {
  BlockExplorer,
  CaipNetwork,
  caipNetworkIdOf,
  expectedCaipNetworkId,
  findNetwork,
  isSameNetwork,
  isUnsupportedNetwork,
  NativeCurrency,
  NetworkAssets,
  NetworkChainId,
  RpcUrls,
  RpcUrlSet,
  UNSUPPORTED_NETWORK_NAME,
  unsupportedNetwork
} from "./domain/Network"
export {
  bitcoin,
  bitcoinRegtest,
  bitcoinTestnet,
  ethereum,
  kusama,
  localChainA,
  localChainB,
  localSolana,
  polkadot,
  solana,
  solanaDevnet,
  WELL_KNOWN_NETWORKS,
  westend,
  withDefaultRpcUrls
} from "./domain/networks"

export {
  AllWalletsOption,
  analyticsEnabled,
  CustomRpcUrl,
  type DecodedOptions,
  decodeOptions,
  decodeOptionsSync,
  DEFAULT_ENDPOINTS,
  DefaultAccountTypes,
  Endpoints,
  Features,
  HostOptions,
  type HostOptionsInput,
  Metadata,
  SocialOption,
  THEME_VARIABLE_NAMES,
  type ThemeVariableName,
  ThemeVariables,
  TokenOption
} from "./domain/Options"

export {
  FungibleInfo,
  ImageRef,
  Nft,
  NftInfo,
  NftStandard,
  OPERATION_TYPES,
  OperationType,
  Quantity,
  TokenBalance,
  Transaction,
  TransactionMetadata,
  TransactionStatus,
  Transfer,
  TransferDirection,
  withoutSpamNfts
} from "./domain/Portfolio"

export {
  BITCOIN_METHODS,
  BitcoinGetAccountAddressesRequest,
  BitcoinMethod,
  BitcoinSendTransferRequest,
  BitcoinSignMessageRequest,
  BitcoinSignPsbtRequest,
  POLKADOT_METHODS,
  PolkadotMethod,
  SendCall,
  SendCallsRequest,
  SolanaCommitment,
  SolanaSendOptions,
  SolanaSignAllTransactionsRequest,
  SolanaSignAndSendTransactionRequest,
  SolanaSignMessageRequest,
  SolanaSignTransactionRequest
} from "./domain/Requests"

export {
  type AccountTypeName,
  backClosesModal,
  balanceDisplay,
  defaultAccountType,
  ModalView,
  type Namespace,
  type OpeningContext,
  openingView,
  orderConnectMethods,
  orderConnectors,
  orderWalletFeatures,
  showsTransferImagesAsPair,
  showsUnsupportedChain,
  supportsBalance,
  supportsNames,
  transactionSign,
  type TransferKind,
  type UnsupportedChainContext
} from "./domain/rules"

export { type ServicesSiwx, servicesSiwx } from "./domain/servicesSiwx"

export {
  type SiweConfig,
  type SiweCreateMessageArgs,
  type SiweMessageParams,
  type SiwxConfig,
  type SiwxMessage,
  SiwxMessageData,
  type SiwxMessageInput,
  SiwxSession
} from "./domain/Siwx"

export { formatSiwxMessage, parseSiwxMessage, siwxTimesHold } from "./domain/siwxMessage"

export {
  Siwx,
  sessionOf,
  type SiwxAccount,
  type SiwxError,
  type SiwxService,
  type SiwxState,
  type SiwxStep
} from "./services/Siwx/Siwx"

export {
  coinTypeForChainId,
  filterSocialsForMiniApp,
  type GasCheckInput,
  hasInsufficientGas,
  isEvmAddress,
  isPreferredAccountType,
  isSignedMessage,
  isSocialProvider,
  isSolanaAddress,
  isSolanaSignAllTransactionsRequest,
  isSolanaSignMessageRequest,
  isSolanaSignTransactionRequest,
  isThemeMode,
  isTransactionHash,
  isValidSendCall,
  type MiniAppPlatform,
  type SendForm,
  SOCIAL_PROVIDERS,
  type SocialProviderName,
  toChecksumAddress,
  validateEmail,
  validateEvmAddress,
  validateOtp,
  validateSendForm,
  validateSolanaAddress,
  type ValidSendForm
} from "./domain/validation"

export {
  addRecentWallet,
  ConnectorInfo,
  ConnectorType,
  CustomWallet,
  INSTALLED_CONNECTOR_TYPES,
  installedConnectorFor,
  isSameWallet,
  RecentWallets,
  WalletCatalogEntry,
  walletKeyOf
} from "./domain/Wallet"

export {
  fromWalletError,
  InsufficientFunds,
  InvalidWalletParams,
  RequestAlreadyPending,
  TransactionRejected,
  WalletDisconnected,
  WalletError,
  walletErrorOf,
  type WalletRequestError,
  WalletMethodUnsupported,
  WalletNoAnswer,
  WalletUnauthorized
} from "./domain/walletErrors"

export { fromBase58, fromBase64, toBase58, toBase64 } from "./domain/encoding"

export {
  type AccountSession,
  type BalancesError,
  type ChainAdapter,
  ChainAdapters,
  type ChainBalance,
  lazyAdapter,
  type ReadRpc,
  type RequestError,
  type SendError,
  type SendingNamespace,
  type SendRequest,
  type SendRequests,
  type SignError,
  type SwitchError,
  type TransactionConfirmation,
  type WaitError
} from "./services/ChainAdapter"

export {
  type ConnectError,
  type Connector,
  type FamilyProvider,
  type FamilySession,
  namespaceOf,
  type ProvidedNamespace,
  type WalletEvent
} from "./services/connectors/Connector"

export { answersTo, type ConnectorSource, Connectors, multiChainConnector } from "./services/connectors/Connectors"

export { browserEip155Source, INJECTED_CONNECTOR_ID, makeEip1193Connector, staticEip155Source } from "./services/connectors/eip6963"

export {
  browserSolanaSource,
  makeWalletStandardConnector,
  walletStandardConnectorId,
  walletStandardProvider
} from "./services/connectors/walletStandard"

export { type SolanaProvider, walletStandardChainOf } from "./services/solana/provider"

export {
  ConnectCancelled,
  ConnectFlow,
  type ConnectFlowError,
  type ConnectProgress,
  type ConnectResult,
  routeForChoice,
  SignInStep,
  type WalletChoice
} from "./services/ConnectFlow"

export {
  Config,
  namespacesOf,
  networksOf
} from "./services/Config"

export {
  accountStateOf,
  coalesceEvents,
  type ConnectedWallet,
  Connection,
  type ConnectionState,
  type ConnectRequest,
  type LiveSession,
  type NamespaceConnection,
  type WalletChainChange
} from "./services/Connection"

export {
  currentEntry,
  currentRoute,
  type HistoryEntry,
  Modal,
  type ModalState,
  type Route,
  type RouteOf,
  type StepOutcome,
  type TransactionStep
} from "./services/Modal"

export {
  findRequested,
  initialActiveNetwork,
  type InitialNetworkContext,
  Networks,
  type NetworksState
} from "./services/Networks"

export {
  Notifications,
  type NotificationsState,
  type Snackbar,
  SNACKBAR_AUTO_HIDE_MS,
  type SnackbarVariant
} from "./services/Notifications"

export { Theme, type ThemeState } from "./services/Theme"

export {
  detectPlatform,
  Platform,
  type PlatformInfo
} from "./services/Platform"

export {
  cacheKey,
  type CacheKey,
  cachePath,
  Storage,
  STORAGE_MAX_VALUE_LENGTH,
  STORAGE_PREFIX,
  STORAGE_VERSION,
  STORAGE_VERSION_PREFIX,
  StorageCorruption,
  StorageCorruptionReason,
  storageKey,
  type StorageKey,
  storagePath,
  type StorageService
} from "./services/Storage/Storage"

export {
  DEFAULT_RPC_TRANSPORT_SETTINGS,
  type EndpointSource,
  endpointsOf,
  type RankedEndpoint,
  type RpcCall,
  type RpcEndpoint,
  type RpcRequestOptions,
  RpcTransport,
  type RpcTransportSettings
} from "./services/RpcTransport/RpcTransport"
export { PING_METHODS } from "./services/RpcTransport/pinging"

export {
  type RpcError,
  RpcInvalidResponse,
  RpcNetworkError,
  RpcNoEndpoint,
  RpcResponseError,
  RpcTimeout
} from "./services/RpcTransport/errors"

export {
  BALANCE_NAMESPACES,
  type BalanceOptions,
  BlockchainApi,
  type BuildApproveRequest,
  type BuildSwapTransactionRequest,
  ONRAMP_FALLBACK_OPTIONS,
  type OnrampUrlRequest,
  type SwapAllowanceRequest,
  type SwapQuoteRequest,
  FAILED_TO_FETCH_NFTS,
  FAILED_TO_FETCH_TRANSACTIONS,
  type HistoryOptions,
  isNativeToken,
  type NftsOptions,
  NftsUnavailable,
  TOKEN_BALANCE_UNAVAILABLE,
  TokenBalanceUnavailable,
  TransactionsUnavailable
} from "./services/BlockchainApi"

export {
  type CatalogSource,
  customWalletEntry,
  initialWalletCatalogState,
  WalletCatalog,
  type WalletCatalogState,
  type WalletListing,
  type WalletSearchState
} from "./services/WalletCatalog"

export { Analytics, type AnalyticsProperties } from "./services/Analytics"

export { type ServiceError, ServiceAnswerInvalid, ServiceUnreachable } from "./services/serviceHttp"

export { Portfolio } from "./services/Portfolio"

export { type NoAccount, WalletActions } from "./services/WalletActions"

export { CALLS_POLL_MS, CALLS_TIMEOUT_MS, type SendCallsCall, type SendCallsInput, sendCalls, waitForCalls } from "./services/sendCalls"

export { batchStatus, CALLS_ERROR_CODES, readBatch } from "./domain/Calls"
export {
  CALLS_STATUS,
  CALLS_VERSION,
  CallsFailed,
  callsOutcome,
  type CallsOutcome,
  CallsReceipt,
  CallsStatus,
  CallsTimedOut
} from "./domain/callsWire"

export { decodeAbiText, estimateGas, makeEip155Adapter } from "./services/eip155/Eip155Adapter"

export { type Eip1193Provider, type Eip6963Info } from "./services/eip155/eip1193"

export {
  makeWalletConnect,
  type PairingState,
  WALLET_CONNECT_CONNECTOR_ID,
  WalletConnect,
  WalletConnectRequestFailed,
  type WalletConnectSettings
} from "./services/walletconnect/WalletConnect"

export { walletLink } from "./services/walletconnect/links"

/** The stored keys of the product, for hosts that inspect or clear what wallet-runtime keeps. */
export * as StorageKeys from "./services/Storage/keys"

export {
  coreLayer,
  liveLayer,
  type WalletServices
} from "./layers/Core"

export { type EnvironmentOverrides } from "./layers/Live"

export { type WalletRuntime, type WalletRuntimeSettings } from "./runtime"

export { makeWalletRuntime } from "./walletRuntime"

export { Swap } from "./services/Swap"

export { Onramp } from "./services/Onramp"

export { initialOnrampState, type OnrampService, type OnrampState } from "./services/onrampState"

export { checkOnrampAmount, ONRAMP_WATCH_MS } from "./domain/onramp"

export {
  initialSwapState,
  type SwapFailure,
  type SwapQuoteState,
  type SwapService,
  type SwapState,
  type SwapStep,
  type SwapTokensState
} from "./services/swapState"

export {
  ApprovalDeclined,
  OnrampUnavailable,
  SwapAmountInvalid,
  type SwapFormError,
  SwapNoLiquidity,
  SwapQuoteExpired,
  SwapUnavailable
} from "./domain/swapErrors"

export { checkSwapAmount, minimumReceived, type QuoteSummary, searchSwapChoices, type SwapChoice, summarizeQuote } from "./domain/swap"
