// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A minimal contract account owned by one key: ERC-1271 signatures are its owner's ECDSA signatures of the hash,
/// and the owner may make it call anything (so it can hold and move funds in tests).
contract SmartAccount {
    address public immutable owner;

    // ERC-1271's magic value, `isValidSignature.selector`, and its answer for a bad signature.
    bytes4 internal constant VALID = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;
    // Half the secp256k1 order: a larger `s` is the malleable twin of a valid signature (EIP-2).
    uint256 internal constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    constructor(address owner_) {
        owner = owner_;
    }

    receive() external payable {}

    /// ERC-1271: `VALID` when `signature` (65 bytes r, s, v) is the owner's signature of `hash`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) return INVALID;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? VALID : INVALID;
    }

    /// Calls `to` with `value` and `data` on the owner's behalf; reverts with the callee's reason.
    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "not the owner");
        (bool ok, bytes memory result) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        return result;
    }
}

/// Deploys SmartAccounts with CREATE2: an account's address follows from its owner and salt alone, so it can sign
/// (ERC-6492) before it exists.
contract SmartAccountFactory {
    event AccountCreated(address indexed account, address indexed owner, bytes32 salt);

    /// Deploys the account of `owner` and `salt`, or returns it when it exists already (ERC-6492 may call twice).
    function createAccount(address owner, bytes32 salt) external returns (address account) {
        account = accountAddress(owner, salt);
        if (account.code.length > 0) return account;
        new SmartAccount{salt: salt}(owner);
        emit AccountCreated(account, owner, salt);
    }

    /// The address the account of `owner` and `salt` has, deployed or not.
    function accountAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(SmartAccount).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}
