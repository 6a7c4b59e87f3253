import type { Address } from "@solana/kit"
import { createAccountInstruction, namedDevKey } from "./keys"
import type { Ledger } from "./Ledger"
import {
  createAssociatedTokenIdempotentInstruction,
  findAssociatedTokenAddress,
  initializeMint2Instruction,
  MINT_SIZE,
  mintToInstruction,
  TOKEN_PROGRAM
} from "./token"

/** An SPL token the local Solana RPC creates at start. */
export interface SolanaTokenInfo {
  /** The mint's address (base58), the same on every run. */
  readonly address: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
}

/** The test token: its mint key comes from a fixed seed, so its address is the same on every run. */
const WSUSD = { name: "Wallet Runtime Solana USD", symbol: "WSUSD", decimals: 6 } as const
// Whole tokens minted at start to every funded dev key.
const MINTED_PER_HOLDER = 10_000n

/**
 * Creates the test token in real transactions paid by the faucet (so they show in every holder's history, as the
 * EVM tokens' mints do): the mint, then for each holder its associated token account and 10000 WSUSD.
 */
export const createDevToken = async (ledger: Ledger, holders: ReadonlyArray<Address>): Promise<SolanaTokenInfo> => {
  const mint = namedDevKey(`mint ${WSUSD.symbol}`)
  const authority = namedDevKey("mint authority")
  await ledger.execute(
    (faucet) => [
      createAccountInstruction({
        payer: faucet,
        newAccount: mint.address,
        lamports: ledger.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)),
        space: BigInt(MINT_SIZE),
        owner: TOKEN_PROGRAM
      }),
      initializeMint2Instruction({ mint: mint.address, decimals: WSUSD.decimals, mintAuthority: authority.address })
    ],
    [mint]
  )
  for (const holder of holders) {
    const associatedToken = await findAssociatedTokenAddress(holder, mint.address)
    await ledger.execute(
      (faucet) => [
        createAssociatedTokenIdempotentInstruction({ payer: faucet, associatedToken, owner: holder, mint: mint.address }),
        mintToInstruction({
          mint: mint.address,
          destination: associatedToken,
          mintAuthority: authority.address,
          amount: MINTED_PER_HOLDER * 10n ** BigInt(WSUSD.decimals)
        })
      ],
      [authority]
    )
  }
  return { address: mint.address, ...WSUSD }
}
