// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/accounts/SimpleAccount.sol";
import "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import "@openzeppelin/contracts/utils/Create2.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ERC7739} from "@openzeppelin/contracts/utils/cryptography/signers/draft-ERC7739.sol";

/// The embedded wallet's smart account: the audited SimpleAccount (EntryPoint v0.8, from the package account-abstraction/contracts)
/// with OpenZeppelin's ERC-7739 `isValidSignature`. A signature the account accepts is its owner's signature of the
/// message nested in this account's own EIP-712 domain (name, version, chain id, this address), so a signature the
/// owner made as an EOA, or for another of their accounts or chains, is never taken as this account's (ERC-7739's
/// defensive rehashing). User operations are checked as SimpleAccount checks them.
contract WalletAccount is SimpleAccount, ERC7739 {
    constructor(IEntryPoint anEntryPoint) SimpleAccount(anEntryPoint) EIP712("WalletAccount", "1") {}

    /// The owner's ECDSA signature of `hash` (the ERC-7739 nested hash); a malformed one is false, not a revert.
    function _rawSignatureValidation(bytes32 hash, bytes calldata signature) internal view override returns (bool) {
        (address recovered, ECDSA.RecoverError problem,) = ECDSA.tryRecover(hash, signature);
        return problem == ECDSA.RecoverError.NoError && recovered == owner;
    }
}

/// Deploys WalletAccounts (an ERC-1967 proxy of one implementation per owner and salt) with CREATE2. Unlike
/// SimpleAccountFactory v0.8, `createAccount` may be called by anyone, not only the EntryPoint's SenderCreator: an
/// ERC-6492 verifier deploys the account in a simulated call to check a signature made before it exists. That is
/// harmless: the address commits to the owner, so whoever deploys it deploys the owner's account.
contract WalletAccountFactory {
    WalletAccount public immutable accountImplementation;

    constructor(IEntryPoint anEntryPoint) {
        accountImplementation = new WalletAccount(anEntryPoint);
    }

    /// Deploys the account of `owner` and `salt`, or returns it when it exists already (ERC-6492 may call twice).
    function createAccount(address owner, uint256 salt) public returns (WalletAccount account) {
        address existing = getAddress(owner, salt);
        if (existing.code.length > 0) return WalletAccount(payable(existing));
        account = WalletAccount(
            payable(new ERC1967Proxy{salt: bytes32(salt)}(address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner))))
        );
    }

    /// The address the account of `owner` and `salt` has, deployed or not.
    function getAddress(address owner, uint256 salt) public view returns (address) {
        return Create2.computeAddress(
            bytes32(salt),
            keccak256(
                abi.encodePacked(
                    type(ERC1967Proxy).creationCode,
                    abi.encode(address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner)))
                )
            )
        );
    }
}
