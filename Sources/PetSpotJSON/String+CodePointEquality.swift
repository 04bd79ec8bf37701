extension String {
    /// Whether the two strings have the same code points (byte-equal UTF-8).
    ///
    /// Swift's `==` on `String` is canonical equivalence (`"é" == "e\u{301}"`), but JSON and
    /// JSON Schema compare strings code point by code point; object keys, `const`, `enum` and
    /// `uniqueItems` must use this. Lengths are compared first, then the bytes in place.
    @inlinable
    package func hasSameCodePoints(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        let sameBytes = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
                if left == right { return true }
                var index = 0
                while index < count {
                    if left[index] != right[index] { return false }
                    index += 1
                }
                return true
            }
        }
        if let sameBytes, let sameBytes { return sameBytes }
        return utf8.elementsEqual(other.utf8)
    }

    /// Whether every code point is ASCII (a scan; meant for compile-time precomputation).
    package var isASCIIOnly: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// ``hasSameCodePoints(as:)`` when `self` is known to be ASCII: no non-ASCII string is
    /// canonically equivalent to an ASCII string of the same UTF-8 length (the only
    /// non-ASCII code points that decompose to ASCII are singletons of 2+ bytes), so equal
    /// length plus `==` (fast for ASCII) is enough.
    @inlinable
    package func hasSameCodePoints(asASCII asciiSelfLength: Int, _ other: String) -> Bool {
        other.utf8.count == asciiSelfLength && self == other
    }
}
