/**
 * The paymaster's approvals (ERC-7677 `pm_getPaymasterStubData` / `pm_getPaymasterData`): the host's key signs, for
 * an operation the sponsoring policy accepts, what `VerifyingPaymaster.approvalHash` computes on-chain, and the
 * paymaster contract then pays its gas. The stub has the same length with an empty signature, so estimates measure
 * the real validation.
 */
import { concat, encodeAbiParameters, type Hex, keccak256, type LocalAccount, numberToHex, pad, slice, toHex } from "viem"
import type { UserOperation } from "viem/account-abstraction"
import { getInitCode } from "viem/account-abstraction"

/** Gas the paymaster's validation gets when the estimate has not measured it yet (a recovery and a few reads). */
export const PAYMASTER_STUB_VERIFICATION_GAS = 100_000n

// A 65-byte signature that recovers to no one: validation fails softly (no revert), as the contract promises.
const STUB_SIGNATURE: Hex = `0x${"00".repeat(64)}1b`

/** `abi.encode(uint48 validUntil, uint48 validAfter)`: the first 64 bytes of the paymaster's data. */
const times = (validUntil: number, validAfter: number): Hex =>
  encodeAbiParameters([{ type: "uint48" }, { type: "uint48" }], [validUntil, validAfter])

/** The paymaster's data with a signature that approves nothing, for estimates. */
export const stubPaymasterData = (validUntil: number): Hex => concat([times(validUntil, 0), STUB_SIGNATURE])

/** What the paymaster contract's `approvalHash(op, validUntil, validAfter)` returns, computed here. */
export const approvalHash = (opts: {
  readonly op: UserOperation<"0.8">
  readonly paymaster: Hex
  readonly chainId: number
  readonly validUntil: number
  readonly validAfter: number
}): Hex => {
  const { op } = opts
  const accountGasLimits = concat([pad(toHex(op.verificationGasLimit), { size: 16 }), pad(toHex(op.callGasLimit), { size: 16 })])
  const gasFees = concat([pad(toHex(op.maxPriorityFeePerGas), { size: 16 }), pad(toHex(op.maxFeePerGas), { size: 16 })])
  const paymasterGas = concat([
    pad(toHex(op.paymasterVerificationGasLimit ?? 0n), { size: 16 }),
    pad(toHex(op.paymasterPostOpGasLimit ?? 0n), { size: 16 })
  ])
  return keccak256(
    encodeAbiParameters(
      [
        { type: "address" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "uint256" },
        { type: "address" },
        { type: "uint48" },
        { type: "uint48" }
      ],
      [
        op.sender,
        op.nonce,
        keccak256(getInitCode(op)),
        keccak256(op.callData),
        accountGasLimits,
        BigInt(slice(paymasterGas, 0, 32)),
        op.preVerificationGas,
        gasFees,
        BigInt(opts.chainId),
        opts.paymaster,
        opts.validUntil,
        opts.validAfter
      ]
    )
  )
}

/** The paymaster's data approving `op` until `validUntil` (seconds): the times and `signer`'s EIP-191 signature. */
export const signPaymasterData = async (opts: {
  readonly op: UserOperation<"0.8">
  readonly paymaster: Hex
  readonly chainId: number
  readonly validUntil: number
  readonly signer: LocalAccount
}): Promise<Hex> => {
  const hash = approvalHash({ ...opts, validAfter: 0 })
  const signature = await opts.signer.signMessage({ message: { raw: hash } })
  return concat([times(opts.validUntil, 0), signature])
}

/** A quantity in JSON-RPC. */
export const quantity = (value: bigint | number): Hex => numberToHex(value)
