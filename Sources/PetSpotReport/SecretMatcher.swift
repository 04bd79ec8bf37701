import Foundation

/// The long secrets of a redactor, compiled for finding them in text whatever their encoding,
/// by canonical form: a span of text matches a secret when it decodes, one character at a time,
/// to the secret's bytes.
///
/// Each character of a span may be written literally or in any of these forms, mixed freely
/// within one span (a JSON encoder escapes some characters, `html.escape` others):
/// - JSON and JavaScript escapes: `\u00e9` (surrogate pairs too), `\"`, `\\`, `\/`, `\'`, `\n`,
///   `\r`, `\t`, `\b`, `\f`, `\xHH` (as a byte and as U+00HH), and octal `\ooo` (printf);
/// - HTML and XML references: `&#39;`, `&#039;`, `&#x27;` (`;` optional), and the named
///   references of the ASCII punctuation (`&apos;`, `&quot;`, `&sol;`, ...) and `&nbsp;`;
/// - percent-encoding with either case of hex digits (`%2F`, `%2f`), `+` for a space, and `%%`
///   (printf) for `%`;
/// - ASCII letters in either case (a server that upper-cases a token still shows it; other
///   letters when the whole secret is upper- or lower-cased).
///
/// Base64 and base64url (with or without padding, and inside a longer base64 text at any of the
/// three byte alignments, as in `Basic base64(user:secret)`) and hexadecimal (either case) are
/// matched through extra patterns computed from each secret; a base64 match masks the whole
/// base64 word around it, since its first and last characters carry bits of the secret too.
///
/// Cost: the text is scanned once; a position is looked at further only when its byte (or the
/// byte an escape there decodes to) starts some pattern, and a candidate is usually refused at
/// its second byte. Immutable after init, so sharing it between threads is safe.
final class SecretMatcher: Sendable {
    /// One form of one secret, in canonical bytes (plain values only, so that reading one
    /// costs no reference counting).
    struct Pattern: Sendable {
        /// Where its bytes start in ``SecretMatcher/bytes``: the bytes to find after decoding
        /// (ASCII letters lower-cased when ``foldsCase``).
        let start: Int
        /// How many bytes it has.
        let length: Int
        /// Letters match in either case (the secret itself, hexadecimal); base64 is exact.
        let foldsCase: Bool
        /// Leading bytes of the secret left visible: the scheme of `Basic <credential>`, the
        /// user part (an announcement id) of `id:password`.
        let kept: Int
        /// The first byte is a digit: no match right after another digit.
        let digitFirst: Bool
        /// The last byte is a digit: no match right before another digit.
        let digitLast: Bool
        /// A base64 core: the match is widened to the whole base64 word.
        let widensToWord: Bool
    }

    /// The patterns.
    let patterns: [Pattern]
    /// The bytes of every pattern, one after the other.
    let bytes: [UInt8]
    /// Pattern indexes by their first byte (lower-cased): where an escape may start.
    private let byFirstByte: [[Int]]
    /// Pattern indexes by their first two bytes (lower-cased, the first in the high byte): where
    /// the text is literal, most positions have no candidate at all.
    private let byFirstPair: [Int: [Int]]
    /// A bit per key of ``byFirstPair``: most positions are ruled out without a dictionary look-up
    /// (and building a matcher costs 8 KB, not a table of 65,536 entries).
    private let pairBits: [UInt64]
    /// The longest pattern, in bytes.
    let longest: Int

    /// Compiles `secrets` (each already long enough to be masked anywhere); `kept` gives, for a
    /// secret, how many of its leading bytes stay visible.
    init(_ secrets: [String], kept: (String) -> Int = { _ in 0 }) {
        var patterns: [Pattern] = []
        var allBytes: [UInt8] = []
        var seen: Set<[UInt8]> = []
        func add(_ bytes: [UInt8], foldsCase: Bool, kept: Int = 0, digitBounded: Bool = false, widens: Bool = false) {
            let canonical = foldsCase ? bytes.map(Self.lowercased) : bytes
            guard canonical.count >= 4, kept < canonical.count, seen.insert(canonical + [foldsCase ? 1 : 0, widens ? 1 : 0]).inserted else {
                return
            }
            patterns.append(Pattern(
                start: allBytes.count, length: canonical.count, foldsCase: foldsCase, kept: kept,
                digitFirst: digitBounded && Self.isDigit(canonical[0]), digitLast: digitBounded && Self.isDigit(canonical[canonical.count - 1]),
                widensToWord: widens))
            allBytes += canonical
        }
        for secret in secrets {
            let bytes = Array(secret.utf8)
            add(bytes, foldsCase: true, kept: kept(secret), digitBounded: true)
            // Letters beyond ASCII in another case: the secret upper- and lower-cased whole.
            if secret.unicodeScalars.contains(where: { !$0.isASCII }) {
                for changed in [secret.uppercased(), secret.lowercased()] where changed.utf8.count == bytes.count {
                    add(Array(changed.utf8), foldsCase: true, kept: kept(secret), digitBounded: true)
                }
            }
            add(Array(Self.hex(bytes).utf8), foldsCase: true)
            for core in Self.base64Cores(of: bytes) {
                add(Array(core.utf8), foldsCase: false, widens: true)
                let url = String(core.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
                add(Array(url.utf8), foldsCase: false, widens: true)
            }
        }
        var byFirstByte = [[Int]](repeating: [], count: 256)
        var byFirstPair: [Int: [Int]] = [:]
        var pairBits = [UInt64](repeating: 0, count: 1024)
        for (index, pattern) in patterns.enumerated() {
            let first = Int(Self.lowercased(allBytes[pattern.start])), second = Int(Self.lowercased(allBytes[pattern.start + 1]))
            byFirstByte[first].append(index)
            byFirstPair[first << 8 | second, default: []].append(index)
            pairBits[(first << 8 | second) >> 6] |= 1 << UInt64(second & 63)
        }
        self.pairBits = pairBits
        bytes = allBytes
        self.patterns = patterns
        self.byFirstByte = byFirstByte
        self.byFirstPair = byFirstPair
        longest = patterns.map(\.length).max() ?? 0
    }

    // MARK: Forms computed from a secret

    /// `bytes` in lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 15)])
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The base64 characters that depend on `bytes` alone when they are encoded at each of the
    /// three alignments inside a longer text (6 characters at least; the secret alone is the
    /// alignment 0 form, without its padding).
    static func base64Cores(of bytes: [UInt8]) -> [String] {
        var cores: [String] = []
        for offset in 0..<3 {
            let encoded = Array(Data([UInt8](repeating: 0, count: offset) + bytes).base64EncodedString().utf8)
            let first = (8 * offset + 5) / 6
            let end = (8 * (offset + bytes.count)) / 6
            guard end - first >= 6 else { continue }
            cores.append(String(decoding: encoded[first..<end], as: UTF8.self))
        }
        return cores
    }

    // MARK: Matching

    /// The ranges of `bytes` to mask (sorted, merged), each an encoded secret without its kept
    /// prefix; empty when there is none.
    func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        let count = bytes.count
        guard !patterns.isEmpty, count >= 4 else { return [] }
        let byFirstByte = self.byFirstByte, byFirstPair = self.byFirstPair, pairBits = self.pairBits
        var found: [Range<Int>] = []
        var index = 0
        while index < count {
            let byte = bytes[index]
            var best = (start: index, end: -1)
            func consider(_ candidates: [Int]) {
                for candidate in candidates {
                    guard let match = match(candidate, in: bytes, at: index), match.end > best.end else { continue }
                    best = patterns[candidate].widensToWord ? Self.word(around: index..<match.end, in: bytes) : (match.visibleEnd, match.end)
                }
            }
            if Self.isEscapeStart(byte) {
                // The byte here may be an escape: any pattern whose first byte it decodes to.
                consider(byFirstByte[Int(Self.lowercased(byte))])
                Self.forEachUnit(bytes, at: index) { unit in consider(byFirstByte[Int(Self.lowercased(unit.b0))]) }
            } else {
                // A literal first byte: the pair of bytes picks the candidates, unless the second
                // may be an escape.
                let next = index + 1 < count ? bytes[index + 1] : 0
                let key = Int(Self.lowercased(byte)) << 8 | Int(Self.lowercased(next))
                if Self.isEscapeStart(next) {
                    consider(byFirstByte[Int(Self.lowercased(byte))])
                } else if pairBits[key >> 6] & (1 << UInt64(key & 63)) != 0, let candidates = byFirstPair[key] {
                    consider(candidates)
                }
            }
            if best.end > best.start { found.append(best.start..<best.end) }
            index += 1
        }
        return Self.merged(found)
    }

    /// `ranges` sorted, overlapping or touching ones merged.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, last.upperBound >= range.lowerBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// A match of `pattern` starting at `start`: where it ends, and where its masked part begins
    /// (after the kept prefix).
    private func match(_ candidate: Int, in bytes: [UInt8], at start: Int) -> (visibleEnd: Int, end: Int)? {
        let pattern = patterns[candidate]
        let count = bytes.count
        if pattern.digitFirst, start > 0, Self.isDigit(bytes[start - 1]) { return nil }
        // Fast path: the literal text, refused at the first difference unless an escape could
        // be there.
        var position = start
        var offset = 0
        var keptAt = pattern.kept == 0 ? start : -1
        while offset < pattern.length, position < count {
            let byte = bytes[position]
            if Self.isEscapeStart(byte) { break }
            if (pattern.foldsCase ? Self.lowercased(byte) : byte) != self.bytes[pattern.start + offset] { return nil }
            position += 1
            offset += 1
            if offset == pattern.kept { keptAt = position }
        }
        var result: (visibleEnd: Int, end: Int)?
        if offset == pattern.length {
            result = (keptAt, position)
        } else if position < count {
            // An escape (or a `+`, `%`, `&`) at `position`: decode from there, trying every
            // reading of each unit, within a budget.
            var budget = 64 * pattern.length
            result = decodeMatch(pattern, bytes, position: position, offset: offset, keptAt: keptAt, budget: &budget)
        }
        guard let found = result else { return nil }
        if pattern.digitLast, found.end < count, Self.isDigit(bytes[found.end]) { return nil }
        return found
    }

    /// The longest rest of a match from `position` in the text and `offset` in the pattern,
    /// depth first (`\\` ends a secret ending in `\` after both bytes, not after the first).
    private func decodeMatch(
        _ pattern: Pattern, _ bytes: [UInt8], position: Int, offset: Int, keptAt: Int, budget: inout Int
    ) -> (visibleEnd: Int, end: Int)? {
        if offset == pattern.length { return (keptAt, position) }
        guard position < bytes.count, budget > 0 else { return nil }
        budget -= 1
        var found: (visibleEnd: Int, end: Int)?
        Self.forEachUnit(bytes, at: position, literal: true) { unit in
            guard offset + unit.count <= pattern.length else { return }
            for index in 0..<unit.count where (pattern.foldsCase ? Self.lowercased(unit[index]) : unit[index]) != self.bytes[pattern.start + offset + index] {
                return
            }
            let next = unit.next
            let reached = offset + unit.count
            var kept = keptAt
            if kept < 0, reached >= pattern.kept { kept = reached == pattern.kept ? next : position }
            if let match = decodeMatch(pattern, bytes, position: next, offset: reached, keptAt: kept, budget: &budget),
                match.end > found?.end ?? -1
            {
                found = match
            }
        }
        return found
    }

    /// One reading of the text as one character: its bytes (1 to 4, UTF-8) and the index after it.
    struct Unit {
        var b0: UInt8
        var b1: UInt8 = 0
        var b2: UInt8 = 0
        var b3: UInt8 = 0
        var count = 1
        var next: Int

        /// One byte.
        init(byte: UInt8, next: Int) {
            b0 = byte
            self.next = next
        }

        /// A character, as UTF-8.
        init?(scalar value: UInt32, next: Int) {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            self.next = next
            let value = scalar.value
            switch value {
            case ..<0x80:
                b0 = UInt8(value)
            case ..<0x800:
                (b0, b1, count) = (UInt8(0xC0 | value >> 6), UInt8(0x80 | value & 0x3F), 2)
            case ..<0x10000:
                (b0, b1, b2, count) = (UInt8(0xE0 | value >> 12), UInt8(0x80 | value >> 6 & 0x3F), UInt8(0x80 | value & 0x3F), 3)
            default:
                (b0, b1, b2, b3, count) = (
                    UInt8(0xF0 | value >> 18), UInt8(0x80 | value >> 12 & 0x3F), UInt8(0x80 | value >> 6 & 0x3F), UInt8(0x80 | value & 0x3F), 4
                )
            }
        }

        subscript(index: Int) -> UInt8 {
            switch index {
            case 0: b0
            case 1: b1
            case 2: b2
            default: b3
            }
        }
    }

    /// Calls `body` with each reading of the text at `index` as one character. The literal byte
    /// comes first when `literal` is set.
    static func forEachUnit(_ bytes: [UInt8], at index: Int, literal: Bool = false, _ body: (Unit) -> Void) {
        let count = bytes.count
        let byte = bytes[index]
        if literal { body(Unit(byte: byte, next: index + 1)) }
        switch byte {
        case UInt8(ascii: "%"):
            if index + 2 < count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                body(Unit(byte: high << 4 | low, next: index + 3))
            }
            if index + 1 < count, bytes[index + 1] == UInt8(ascii: "%") { body(Unit(byte: byte, next: index + 2)) }
        case UInt8(ascii: "+"):
            body(Unit(byte: 0x20, next: index + 1))
        case UInt8(ascii: "\\"):
            guard index + 1 < count else { return }
            let next = bytes[index + 1]
            switch next {
            case UInt8(ascii: "u"):
                guard let unit = hexNumber(bytes, from: index + 2, digits: 4) else { return }
                if (0xD800..<0xDC00).contains(unit), index + 11 < count, bytes[index + 6] == UInt8(ascii: "\\"),
                    bytes[index + 7] == UInt8(ascii: "u"), let low = hexNumber(bytes, from: index + 8, digits: 4), (0xDC00..<0xE000).contains(low)
                {
                    if let decoded = Unit(scalar: 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), next: index + 12) { body(decoded) }
                } else if let decoded = Unit(scalar: unit, next: index + 6) {
                    body(decoded)
                }
            case UInt8(ascii: "x"):
                guard let value = hexNumber(bytes, from: index + 2, digits: 2) else { return }
                body(Unit(byte: UInt8(value), next: index + 4))
                if value >= 0x80, let decoded = Unit(scalar: value, next: index + 4) { body(decoded) }
            case UInt8(ascii: "0")...UInt8(ascii: "3"):
                if index + 3 < count, isOctal(bytes[index + 2]), isOctal(bytes[index + 3]) {
                    body(Unit(byte: (next - 48) << 6 | (bytes[index + 2] - 48) << 3 | (bytes[index + 3] - 48), next: index + 4))
                }
            case UInt8(ascii: "n"): body(Unit(byte: 0x0A, next: index + 2))
            case UInt8(ascii: "r"): body(Unit(byte: 0x0D, next: index + 2))
            case UInt8(ascii: "t"): body(Unit(byte: 0x09, next: index + 2))
            case UInt8(ascii: "b"): body(Unit(byte: 0x08, next: index + 2))
            case UInt8(ascii: "f"): body(Unit(byte: 0x0C, next: index + 2))
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "'"): body(Unit(byte: next, next: index + 2))
            default: return
            }
        case UInt8(ascii: "&"):
            guard let (scalar, end) = reference(bytes, at: index), let decoded = Unit(scalar: scalar.value, next: end) else { return }
            body(decoded)
        default:
            return
        }
    }

    /// The character reference (`&#39;`, `&#x27;`, `&apos;`) at `index` and the index after it.
    static func reference(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let count = bytes.count
        var position = index + 1
        guard position < count else { return nil }
        if bytes[position] == UInt8(ascii: "#") {
            position += 1
            let hexadecimal = position < count && (bytes[position] | 0x20) == UInt8(ascii: "x")
            if hexadecimal { position += 1 }
            var value: UInt32 = 0
            var digits = 0
            while position < count, digits < 8 {
                let digit: UInt8? = hexadecimal ? hexValue(bytes[position]) : (isDigit(bytes[position]) ? bytes[position] - 48 : nil)
                guard let digit else { break }
                value = value * (hexadecimal ? 16 : 10) + UInt32(digit)
                digits += 1
                position += 1
            }
            guard digits > 0, let scalar = Unicode.Scalar(value) else { return nil }
            if position < count, bytes[position] == UInt8(ascii: ";") { position += 1 }
            return (scalar, position)
        }
        var name: [UInt8] = []
        while position < count, name.count < 8, bytes[position] != UInt8(ascii: ";") {
            name.append(bytes[position])
            position += 1
        }
        guard position < count, bytes[position] == UInt8(ascii: ";"),
            let scalar = namedReferences[String(decoding: name, as: UTF8.self).lowercased()]
        else { return nil }
        return (scalar, position + 1)
    }

    /// The named references of ASCII punctuation (HTML 5), and `&nbsp;`.
    static let namedReferences: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "excl": "!", "num": "#", "dollar": "$",
        "percnt": "%", "lpar": "(", "rpar": ")", "ast": "*", "plus": "+", "comma": ",", "period": ".", "sol": "/", "colon": ":",
        "semi": ";", "equals": "=", "quest": "?", "commat": "@", "lsqb": "[", "lbrack": "[", "bsol": "\\", "rsqb": "]",
        "rbrack": "]", "hat": "^", "lowbar": "_", "grave": "`", "lcub": "{", "lbrace": "{", "verbar": "|", "vert": "|",
        "rcub": "}", "rbrace": "}", "tab": "\t", "newline": "\n",
    ]

    /// The whole base64 (or base64url) word around `range`, with its padding.
    static func word(around range: Range<Int>, in bytes: [UInt8]) -> (start: Int, end: Int) {
        var start = range.lowerBound
        while start > 0, isBase64(bytes[start - 1]) { start -= 1 }
        var end = range.upperBound
        while end < bytes.count, isBase64(bytes[end]) { end += 1 }
        while end < bytes.count, bytes[end] == UInt8(ascii: "=") { end += 1 }
        return (start, end)
    }

    // MARK: Bytes

    /// Whether a byte may start an escape, a reference or a percent-encoded byte.
    static func isEscapeStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "+")
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isOctal(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "7") }

    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 55
        default: nil
        }
    }

    /// The number written in `digits` hexadecimal digits from `start`, if they are all there.
    static func hexNumber(_ bytes: [UInt8], from start: Int, digits: Int) -> UInt32? {
        guard start + digits <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in start..<(start + digits) {
            guard let digit = hexValue(bytes[index]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
