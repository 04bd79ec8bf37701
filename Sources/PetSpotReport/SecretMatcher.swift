import Foundation

/// The long secrets of a redactor, compiled for finding them in text whatever their encoding,
/// by canonical form: a span of text matches a secret when it decodes, one character at a time,
/// to the secret's bytes.
///
/// Each character of a span may be written literally or in any of these forms, mixed freely
/// within one span (a JSON encoder escapes some characters, `html.escape` others):
/// - JSON and JavaScript escapes: `\u00e9` (surrogate pairs too), `\"`, `\\`, `\/`, `\'`, `\n`,
///   `\r`, `\t`, `\b`, `\f`, `\xHH` (as a byte and as U+00HH), and octal `\ooo` (printf); and
///   the same escaped once more, as a JSON text inside a JSON string shows them (`\\u0041`,
///   `\\\"`, `\\\\`);
/// - HTML and XML references: `&#39;`, `&#039;`, `&#x27;` (`;` optional, as browsers read them:
///   without it, any number of the digits may be the reference's), and the named references of
///   the ASCII punctuation (`&apos;`, `&quot;`, `&sol;`, ...) and `&nbsp;` (`&amp`, `&lt`, `&gt`,
///   `&quot` and `&nbsp` also without `;`);
/// - percent-encoding with either case of hex digits (`%2F`, `%2f`), `+` for a space, and `%%`
///   (printf) for `%`; and percent-encoding applied twice (`%2541`, `%252B` for a space);
/// - a quote doubled as SQL writes it inside a string (`''`);
/// - ASCII letters in either case (a server that upper-cases a token still shows it; other
///   letters when the whole secret is upper- or lower-cased).
///
/// Base64 and base64url (with or without padding, and inside a longer base64 text at any of the
/// three byte alignments, as in `Basic base64(user:secret)`, also wrapped in lines as MIME and PEM
/// write it, with CRLF or LF) and hexadecimal (either case, its bytes also separated by `:`, `-`
/// or a space) are matched through extra patterns computed from each secret. A base64 match
/// masks the whole base64 word around it, since its first and last characters carry bits of the
/// secret too: in wrapped base64 every line holding a bit of the secret (lines of 76 or 64
/// characters hold whole groups of 3 bytes, so a character holding bits of two bytes never
/// starts or ends a line).
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
        /// Hexadecimal: a `:`, `-` or space may stand between the digits of two bytes.
        let separatedHex: Bool
        /// A base64 core: matched across line breaks, widened to the whole base64 word.
        let widensToWord: Bool

        /// Whether the text may hold `byte` between the pattern's bytes at `offset` (a line
        /// break inside base64, a separator between two bytes of hexadecimal), skipped.
        func skips(_ byte: UInt8, at offset: Int) -> Bool {
            guard offset > 0 else { return false }
            if widensToWord { return byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
            return separatedHex && offset % 2 == 0 && (byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " "))
        }
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
        func add(_ bytes: [UInt8], foldsCase: Bool, kept: Int = 0, digitBounded: Bool = false, hex: Bool = false, widens: Bool = false) {
            let canonical = foldsCase ? bytes.map(Self.lowercased) : bytes
            guard canonical.count >= 4, kept < canonical.count,
                seen.insert(canonical + [foldsCase ? 1 : 0, hex ? 1 : 0, widens ? 1 : 0]).inserted
            else { return }
            patterns.append(Pattern(
                start: allBytes.count, length: canonical.count, foldsCase: foldsCase, kept: kept,
                digitFirst: digitBounded && Self.isDigit(canonical[0]), digitLast: digitBounded && Self.isDigit(canonical[canonical.count - 1]),
                separatedHex: hex, widensToWord: widens))
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
            add(Array(Self.hex(bytes).utf8), foldsCase: true, hex: true)
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
            func consider(_ candidates: [Int], wrappedOnly: Bool = false) {
                for candidate in candidates where !wrappedOnly || patterns[candidate].widensToWord {
                    guard let match = match(candidate, in: bytes, at: index), match.end > best.end else { continue }
                    best = patterns[candidate].widensToWord ? Self.word(around: index..<match.end, in: bytes) : (match.visibleEnd, match.end)
                }
            }
            if Self.isEscapeStart(byte) {
                // The byte here may be an escape: any pattern whose first byte it decodes to.
                consider(byFirstByte[Int(Self.lowercased(byte))])
                Self.forEachUnit(bytes, at: index) { unit in consider(byFirstByte[Int(Self.lowercased(unit.b0))]) }
            } else {
                // A literal first byte: the pair of bytes picks the candidates; when the second may
                // be an escape, the pairs of the first and each reading of the escape, and when it
                // may be a line break, the base64 patterns starting with the first.
                let next = index + 1 < count ? bytes[index + 1] : 0
                let first = Int(Self.lowercased(byte))
                if Self.isEscapeStart(next) || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r") {
                    var seen = ByteSet()
                    func considerPair(_ second: UInt8) {
                        let second = Self.lowercased(second)
                        guard seen.insert(second) else { return }
                        if second == UInt8(ascii: "\n") || second == UInt8(ascii: "\r") {
                            consider(byFirstByte[first], wrappedOnly: true)
                        } else if let candidates = byFirstPair[first << 8 | Int(second)] {
                            consider(candidates)
                        }
                    }
                    considerPair(next)
                    if Self.isEscapeStart(next) { Self.forEachUnit(bytes, at: index + 1) { considerPair($0.b0) } }
                } else {
                    let key = first << 8 | Int(Self.lowercased(next))
                    if pairBits[key >> 6] & (1 << UInt64(key & 63)) != 0, let candidates = byFirstPair[key] { consider(candidates) }
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
        if pattern.digitFirst, start > 0, Self.isDigit(bytes[start - 1]) { return nil }
        var budget = 64 * pattern.length
        guard let found = matchRest(pattern, bytes, position: start, offset: 0, keptAt: pattern.kept == 0 ? start : -1, budget: &budget) else {
            return nil
        }
        if pattern.digitLast, found.end < bytes.count, Self.isDigit(bytes[found.end]) { return nil }
        return found
    }

    /// The rest of a match from `position` in the text and `offset` in the pattern (`keptAt`:
    /// where the kept prefix ended, -1 before): literal bytes in a loop, refused at the first
    /// difference; at a byte that may start an escape, ``escapeRest(_:_:position:offset:keptAt:budget:)``.
    /// Each byte and each escape looked at costs one of `budget`, so that no text makes a match
    /// cost more than ``match(_:in:at:)`` allows (64 steps per byte of the pattern).
    private func matchRest(
        _ pattern: Pattern, _ bytes: [UInt8], position start: Int, offset startOffset: Int, keptAt startKept: Int, budget: inout Int
    ) -> (visibleEnd: Int, end: Int)? {
        var position = start
        var offset = startOffset
        var keptAt = startKept
        while offset < pattern.length {
            guard position < bytes.count, budget > 0 else { return nil }
            budget -= 1
            let byte = bytes[position]
            if Self.isEscapeStart(byte) {
                return escapeRest(pattern, bytes, position: position, offset: offset, keptAt: keptAt, budget: &budget)
            }
            if (pattern.foldsCase ? Self.lowercased(byte) : byte) == self.bytes[pattern.start + offset] {
                position += 1
                offset += 1
                if offset == pattern.kept { keptAt = position }
            } else if pattern.skips(byte, at: offset) {
                position += 1
            } else {
                return nil
            }
        }
        return (keptAt, position)
    }

    /// The longest rest of a match from an escape (or a `+`, `%`, `&`, `'`) at `position`, trying
    /// every reading of it depth first (`\\` ends a secret ending in `\` after both bytes, not
    /// after the first), within `budget`.
    private func escapeRest(
        _ pattern: Pattern, _ bytes: [UInt8], position: Int, offset: Int, keptAt: Int, budget: inout Int
    ) -> (visibleEnd: Int, end: Int)? {
        guard budget > 0 else { return nil }
        budget -= 1
        var found: (visibleEnd: Int, end: Int)?
        Self.forEachUnit(bytes, at: position, literal: true) { unit in
            var rest: (visibleEnd: Int, end: Int)?
            if unit.count == 1, pattern.skips(unit.b0, at: offset) {
                rest = matchRest(pattern, bytes, position: unit.next, offset: offset, keptAt: keptAt, budget: &budget)
            } else {
                guard offset + unit.count <= pattern.length else { return }
                for index in 0..<unit.count where (pattern.foldsCase ? Self.lowercased(unit[index]) : unit[index]) != self.bytes[pattern.start + offset + index] {
                    return
                }
                let reached = offset + unit.count
                var kept = keptAt
                if kept < 0, reached >= pattern.kept { kept = reached == pattern.kept ? unit.next : position }
                rest = matchRest(pattern, bytes, position: unit.next, offset: reached, keptAt: kept, budget: &budget)
            }
            if let rest, rest.end > found?.end ?? -1 { found = rest }
        }
        return found
    }

    /// A set of bytes, one bit each.
    struct ByteSet {
        private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        /// Adds `byte`; whether it was not in the set yet.
        mutating func insert(_ byte: UInt8) -> Bool {
            let bit = UInt64(1) << UInt64(byte & 63)
            let word: UInt64
            switch byte >> 6 {
            case 0: word = words.0; words.0 |= bit
            case 1: word = words.1; words.1 |= bit
            case 2: word = words.2; words.2 |= bit
            default: word = words.3; words.3 |= bit
            }
            return word & bit == 0
        }
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
                let value = high << 4 | low
                body(Unit(byte: value, next: index + 3))
                // Encoded twice: `%25` is the `%` of `%41`; a form's `+` for a space is `%2B`.
                if value == 0x25, index + 4 < count, let high = hexValue(bytes[index + 3]), let low = hexValue(bytes[index + 4]) {
                    body(Unit(byte: high << 4 | low, next: index + 5))
                }
                if value == UInt8(ascii: "+") { body(Unit(byte: 0x20, next: index + 3)) }
            }
            if index + 1 < count, bytes[index + 1] == UInt8(ascii: "%") { body(Unit(byte: byte, next: index + 2)) }
        case UInt8(ascii: "+"):
            body(Unit(byte: 0x20, next: index + 1))
        case UInt8(ascii: "'"):
            // SQL doubles a quote inside a string.
            if index + 1 < count, bytes[index + 1] == byte { body(Unit(byte: byte, next: index + 2)) }
        case UInt8(ascii: "\\"):
            forEachEscape(bytes, letter: index + 1, marker: 1, body)
            // `\\` is an escaped backslash: the escape of a JSON text inside a JSON string.
            if index + 1 < count, bytes[index + 1] == byte { forEachEscape(bytes, letter: index + 2, marker: 2, body) }
        case UInt8(ascii: "&"):
            forEachReference(bytes, at: index) { scalar, end in
                if let decoded = Unit(scalar: scalar.value, next: end) { body(decoded) }
            }
        default:
            return
        }
    }

    /// Calls `body` with the character an escape decodes to, `letter` being the index after its
    /// backslash. The backslash is `marker` bytes long: 1 for `\`, 2 for `\\` (an escape inside a
    /// JSON string inside another, whose letter may be escaped once more: `\\\"`).
    private static func forEachEscape(_ bytes: [UInt8], letter: Int, marker: Int, _ body: (Unit) -> Void) {
        let count = bytes.count
        guard letter < count else { return }
        var next = bytes[letter]
        var after = letter + 1
        if marker == 2, next == UInt8(ascii: "\\"), after < count {
            switch bytes[after] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                next = bytes[after]
                after += 1
            default:
                return
            }
        }
        switch next {
        case UInt8(ascii: "u"):
            guard let unit = hexNumber(bytes, from: after, digits: 4) else { return }
            // A surrogate pair: the low half follows with the same backslash.
            let low = after + 4
            if (0xD800..<0xDC00).contains(unit), low + marker + 5 <= count, bytes[low..<(low + marker)].allSatisfy({ $0 == UInt8(ascii: "\\") }),
                bytes[low + marker] == UInt8(ascii: "u"), let second = hexNumber(bytes, from: low + marker + 1, digits: 4), (0xDC00..<0xE000).contains(second)
            {
                if let decoded = Unit(scalar: 0x10000 + ((unit - 0xD800) << 10) + (second - 0xDC00), next: low + marker + 5) { body(decoded) }
            } else if let decoded = Unit(scalar: unit, next: after + 4) {
                body(decoded)
            }
        case UInt8(ascii: "x"):
            guard let value = hexNumber(bytes, from: after, digits: 2) else { return }
            body(Unit(byte: UInt8(value), next: after + 2))
            if value >= 0x80, let decoded = Unit(scalar: value, next: after + 2) { body(decoded) }
        case UInt8(ascii: "0")...UInt8(ascii: "3"):
            if after + 1 < count, isOctal(bytes[after]), isOctal(bytes[after + 1]) {
                body(Unit(byte: (next - 48) << 6 | (bytes[after] - 48) << 3 | (bytes[after + 1] - 48), next: after + 2))
            }
        case UInt8(ascii: "n"): body(Unit(byte: 0x0A, next: after))
        case UInt8(ascii: "r"): body(Unit(byte: 0x0D, next: after))
        case UInt8(ascii: "t"): body(Unit(byte: 0x09, next: after))
        case UInt8(ascii: "b"): body(Unit(byte: 0x08, next: after))
        case UInt8(ascii: "f"): body(Unit(byte: 0x0C, next: after))
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "'"): body(Unit(byte: next, next: after))
        default: return
        }
    }

    /// Calls `body` with each reading of the character reference (`&#39;`, `&#x27;`, `&apos;`) at
    /// `index` and the index after it. Without its `;` a numeric reference may end after any of
    /// its digits (`&#399` is `'9` as well as U+018F), and `&amp`, `&lt`, `&gt`, `&quot` and
    /// `&nbsp` are read as browsers read them. Allocates nothing unless a named reference ends
    /// with `;`.
    static func forEachReference(_ bytes: [UInt8], at index: Int, _ body: (Unicode.Scalar, Int) -> Void) {
        let count = bytes.count
        var position = index + 1
        guard position < count else { return }
        if bytes[position] == UInt8(ascii: "#") {
            position += 1
            let hexadecimal = position < count && (bytes[position] | 0x20) == UInt8(ascii: "x")
            if hexadecimal { position += 1 }
            func digit(_ byte: UInt8) -> UInt8? { hexadecimal ? hexValue(byte) : (isDigit(byte) ? byte - 48 : nil) }
            let first = position
            while position < count, position - first < 8, digit(bytes[position]) != nil { position += 1 }
            let closed = position < count && bytes[position] == UInt8(ascii: ";")
            var value: UInt32 = 0
            for end in first..<position {
                value = value * (hexadecimal ? 16 : 10) + UInt32(digit(bytes[end]) ?? 0)
                // With its `;` a reference holds every digit; without, any leading part of them.
                guard !closed || end == position - 1, let scalar = Unicode.Scalar(value) else { continue }
                body(scalar, closed ? position + 1 : end + 1)
            }
            return
        }
        if let (scalar, length) = legacyReference(bytes, at: position) { body(scalar, position + length) }
        var end = position
        while end < count, end - position < 8, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < count, end > position, bytes[end] == UInt8(ascii: ";"),
            let scalar = namedReferences[String(decoding: bytes[position..<end], as: UTF8.self).lowercased()]
        else { return }
        body(scalar, end + 1)
    }

    /// The named reference browsers also read without its `;` (HTML 5's legacy ones of ASCII
    /// punctuation, and `nbsp`) whose name starts at `start`, any case, and the name's length.
    static func legacyReference(_ bytes: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        guard start < bytes.count else { return nil }
        let first = lowercased(bytes[start])
        for (name, scalar) in legacyReferences where name[0] == first && start + name.count <= bytes.count {
            if name.indices.allSatisfy({ lowercased(bytes[start + $0]) == name[$0] }) { return (scalar, name.count) }
        }
        return nil
    }

    /// The named references browsers also read without their `;`, of ASCII punctuation and `nbsp`.
    static let legacyReferences: [(name: [UInt8], scalar: Unicode.Scalar)] = [
        (Array("amp".utf8), "&"), (Array("lt".utf8), "<"), (Array("gt".utf8), ">"), (Array("quot".utf8), "\""), (Array("nbsp".utf8), "\u{A0}"),
    ]

    /// The named references of ASCII punctuation (HTML 5), and `&nbsp;`.
    static let namedReferences: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "excl": "!", "num": "#", "dollar": "$",
        "percnt": "%", "lpar": "(", "rpar": ")", "ast": "*", "plus": "+", "comma": ",", "period": ".", "sol": "/", "colon": ":",
        "semi": ";", "equals": "=", "quest": "?", "commat": "@", "lsqb": "[", "lbrack": "[", "bsol": "\\", "rsqb": "]",
        "rbrack": "]", "hat": "^", "lowbar": "_", "grave": "`", "lcub": "{", "lbrace": "{", "verbar": "|", "vert": "|",
        "rcub": "}", "rbrace": "}", "tab": "\t", "newline": "\n",
    ]

    /// The whole base64 (or base64url) word around `range`, with its padding (a line of wrapped
    /// base64 is a word; the letter of an escape before it, as the `n` of `\n`, is not part of it).
    static func word(around range: Range<Int>, in bytes: [UInt8]) -> (start: Int, end: Int) {
        var start = range.lowerBound
        while start > 0, isBase64(bytes[start - 1]) {
            if start >= 2, bytes[start - 2] == UInt8(ascii: "\\"), bytes[start - 1] == UInt8(ascii: "n") || bytes[start - 1] == UInt8(ascii: "r") {
                break
            }
            start -= 1
        }
        var end = range.upperBound
        while end < bytes.count, isBase64(bytes[end]) { end += 1 }
        while end < bytes.count, bytes[end] == UInt8(ascii: "=") { end += 1 }
        return (start, end)
    }

    // MARK: Bytes

    /// Whether a byte may start an escape, a reference, a percent-encoded byte or a doubled quote.
    static func isEscapeStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "'")
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
