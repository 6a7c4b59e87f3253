// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Balances, allowances and events shared by the two fungible tokens of the local stack.
abstract contract Ledger {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256 amount) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        for (uint256 i = 0; i < holders.length; i++) {
            balanceOf[holders[i]] += amount;
            totalSupply += amount;
            emit Transfer(address(0), holders[i], amount);
        }
    }

    function _move(address from, address to, uint256 value) internal {
        require(to != address(0), "transfer to the zero address");
        require(balanceOf[from] >= value, "transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _spend(address owner, uint256 value) internal {
        uint256 allowed = allowance[owner][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "insufficient allowance");
            allowance[owner][msg.sender] = allowed - value;
        }
    }

    function _approve(address spender, uint256 value) internal {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }
}

/// An ERC-20 token that follows the standard: transfer, transferFrom and approve return true.
contract StandardToken is Ledger {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256 amount)
        Ledger(name_, symbol_, decimals_, holders, amount)
    {}

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spend(from, value);
        _move(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(spender, value);
        return true;
    }
}

/// A token in the style of early Tether: transfer, transferFrom and approve return nothing,
/// so a client decoding a bool from their return data fails; wallets must cope with both kinds.
contract NoReturnToken is Ledger {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256 amount)
        Ledger(name_, symbol_, decimals_, holders, amount)
    {}

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        _spend(from, value);
        _move(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        _approve(spender, value);
    }
}
