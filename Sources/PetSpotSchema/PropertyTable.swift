/// The `properties` keyword's table, scanned linearly: comparing UTF-8 lengths first makes most
/// misses O(1), and a hint (the slot after the previous hit) makes payloads that follow the
/// schema's key order find each key on the first probe.
final class PropertyTable: Sendable {
    let names: [String]
    /// The entries' schemas, read on the fast path without reference counting.
    let nodes: Subschemas
    /// UTF-8 length of each name: a mismatch here rejects a probe without touching the strings.
    let lengths: [Int]
    /// Whether each name is ASCII (then `==` after a length match is exact: canonical
    /// equivalence and code-point equality agree on ASCII).
    let ascii: [Bool]

    init(_ entries: [(name: String, node: SchemaNode)]) {
        names = entries.map(\.name)
        nodes = Subschemas(entries.map(\.node))
        lengths = entries.map { $0.name.utf8.count }
        ascii = entries.map { $0.name.isASCIIOnly }
    }

    /// Whether the entry at `position` is named `name`, code point by code point.
    @inline(__always)
    func entry(_ position: Int, isNamed name: String, length: Int) -> Bool {
        lengths[position] == length && (ascii[position] ? names[position] == name : names[position].hasSameCodePoints(as: name))
    }

    /// The index of the entry named `name`, probing from `hint` on; updates `hint` on a hit.
    @inline(__always)
    func position(of name: String, hint: inout Int) -> Int? {
        let length = name.utf8.count
        let count = names.count
        guard count > 0 else { return nil }
        var position = hint < count ? hint : 0
        for _ in 0..<count {
            if entry(position, isNamed: name, length: length) {
                hint = position + 1
                return position
            }
            position += 1
            if position == count { position = 0 }
        }
        return nil
    }
}

/// Property names for `required`, with their UTF-8 lengths and ASCII-ness precomputed.
final class PropertyNameList: Sendable {
    let names: [String]
    let lengths: [Int]
    let ascii: [Bool]

    init(_ names: [String]) {
        self.names = names
        lengths = names.map { $0.utf8.count }
        ascii = names.map { $0.isASCIIOnly }
    }

    /// Whether every name is among `keys` (scans resume after the previous hit).
    @inline(__always)
    func allPresent(in keys: [String]) -> Bool {
        var hint = 0
        for position in names.indices where !find(position, in: keys, hint: &hint) { return false }
        return true
    }

    /// Whether `keys` contains the name at `position`; the scan starts at `hint` (just after the
    /// previous hit), so names listed in the payload's order are found on the first probe.
    @inline(__always)
    func find(_ position: Int, in keys: [String], hint: inout Int) -> Bool {
        let length = lengths[position]
        let isASCII = ascii[position]
        let name = names[position]
        let count = keys.count
        guard count > 0 else { return false }
        var index = hint < count ? hint : 0
        for _ in 0..<count {
            let key = keys[index]
            if key.utf8.count == length && (isASCII ? key == name : key.hasSameCodePoints(as: name)) {
                hint = index + 1
                return true
            }
            index += 1
            if index == count { index = 0 }
        }
        return false
    }
}
