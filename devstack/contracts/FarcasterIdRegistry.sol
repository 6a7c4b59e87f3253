// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A stand-in for Farcaster's id registry on the local chain: which custody address holds each fid. Only the
/// owner (the devstack's deployer) registers; a fid moved to a new custody address forgets the old one.
contract FarcasterIdRegistry {
    address public immutable owner;
    mapping(uint256 => address) public custodyOf;
    mapping(address => uint256) public idOf;

    event Register(address indexed to, uint256 indexed id);

    constructor() {
        owner = msg.sender;
    }

    function register(uint256 fid, address custody) external {
        require(msg.sender == owner, "only the owner registers");
        require(fid != 0 && custody != address(0), "fid and custody required");
        require(idOf[custody] == 0 || idOf[custody] == fid, "custody holds another fid");
        address previous = custodyOf[fid];
        if (previous != address(0)) idOf[previous] = 0;
        custodyOf[fid] = custody;
        idOf[custody] = fid;
        emit Register(custody, fid);
    }
}
