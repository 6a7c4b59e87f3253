// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/core/BasePaymaster.sol";
import "@account-abstraction/contracts/core/Helpers.sol";
import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// Pays the gas of the user operations a key off-chain approved (the host's sponsoring policy decides which):
/// `paymasterData` is `abi.encode(uint48 validUntil, uint48 validAfter)` followed by the approving key's 65-byte
/// EIP-191 signature of `approvalHash(op, validUntil, validAfter)`. The audited package (v0.8) ships BasePaymaster
/// but no verifying paymaster, so this is the small rest on top of it.
contract VerifyingPaymaster is BasePaymaster {
    /// The key whose approval makes this paymaster pay.
    address public immutable signer;

    // The times (64 bytes) and the signature (65 bytes) after the paymaster's address and gas limits.
    uint256 internal constant DATA_LENGTH = 64 + 65;

    constructor(IEntryPoint entryPoint_, address signer_) BasePaymaster(entryPoint_) {
        signer = signer_;
    }

    /// What `signer` signs for `op`: everything of the op but its signatures, the paymaster's gas limits, this
    /// chain, this paymaster and the approval's time window.
    function approvalHash(PackedUserOperation calldata op, uint48 validUntil, uint48 validAfter) public view returns (bytes32) {
        return keccak256(
            abi.encode(
                op.sender,
                op.nonce,
                keccak256(op.initCode),
                keccak256(op.callData),
                op.accountGasLimits,
                uint256(bytes32(op.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:PAYMASTER_DATA_OFFSET])),
                op.preVerificationGas,
                op.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    /// A bad signature is a validation failure (not a revert), so that a bundler can estimate with a stub one.
    function _validatePaymasterUserOp(PackedUserOperation calldata op, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        bytes calldata data = op.paymasterAndData[PAYMASTER_DATA_OFFSET:];
        require(data.length == DATA_LENGTH, "VerifyingPaymaster: data is 64 bytes of times and a 65-byte signature");
        (uint48 validUntil, uint48 validAfter) = abi.decode(data[:64], (uint48, uint48));
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(approvalHash(op, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError problem,) = ECDSA.tryRecover(digest, data[64:]);
        bool approved = problem == ECDSA.RecoverError.NoError && recovered == signer;
        return ("", _packValidationData(!approved, validUntil, validAfter));
    }
}
