/// A compiled ECMA-262 regular expression, as JSON Schema's `pattern` and `patternProperties`
/// require, matched by a small backtracking engine over UTF-8 bytes.
///
/// ECMA semantics rather than ICU's: `\d` is `[0-9]`, `\w` is `[A-Za-z0-9_]`, `\s` is
/// ECMAScript white space and line terminators, `$` matches only at the very end, `.` stops at
/// line terminators; with Unicode-mode code points (`\u{…}`, surrogate pairs joined, `\p{…}`).
/// Supported: alternation, groups (capturing, `(?:…)`, named), greedy and lazy quantifiers,
/// classes, backreferences, lookahead and lookbehind, `\b`/`\B`. Patterns are searched, not
/// anchored, as `RegExp.prototype.test` does. Matching stops after a step budget (proportional
/// to the input) so a catastrophic pattern answers "no match" instead of hanging.
final class _Pattern: @unchecked Sendable {
    /// The pattern as written in the schema.
    let source: String
    private let root: _RegexNode
    private let anchoredAtStart: Bool
    private let captureCount: Int
    /// Owns the simple matcher; `simple` reads it without reference counting.
    private let simpleStorage: _SimplePattern?
    private let simple: Unmanaged<_SimplePattern>?

    init(_ source: String) throws(_PatternError) {
        self.source = source
        var parser = _RegexParser(Array(source.unicodeScalars))
        let root = try parser.parse()
        self.root = root
        self.captureCount = parser.captureCount
        try parser.checkBackreferences()
        let simple = _SimplePattern(root)
        self.simpleStorage = simple
        self.simple = simple.map { Unmanaged.passUnretained($0) }
        if case .sequence(let nodes) = root, case .lineStart? = nodes.first {
            anchoredAtStart = true
        } else if case .lineStart = root {
            anchoredAtStart = true
        } else {
            anchoredAtStart = false
        }
    }

    /// Whether the pattern matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ matches($0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { matches($0) }
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let simple, let result = simple._withUnsafeGuaranteedRef({ $0.matches(bytes) }) { return result }
        let state = _MatchState(bytes: bytes, captureCount: captureCount)
        var start = 0
        while true {
            if state.match(root, start, { _ in true }) { return true }
            if anchoredAtStart || start >= bytes.count || state.exhausted { return false }
            start = state.next(start)
        }
    }
}

/// Why a pattern failed to compile.
struct _PatternError: Error {
    let message: String
}

/// A set of code points: ASCII as a bitmap, the rest as ranges and Unicode predicates.
struct _ScalarSet {
    var asciiLow: UInt64 = 0
    var asciiHigh: UInt64 = 0
    var ranges: [ClosedRange<UInt32>] = []
    var predicates: [_ScalarPredicate] = []
    var negated = false

    mutating func insert(_ range: ClosedRange<UInt32>) {
        var low = range.lowerBound
        while low <= range.upperBound && low < 128 {
            if low < 64 { asciiLow |= 1 << UInt64(low) } else { asciiHigh |= 1 << UInt64(low - 64) }
            low += 1
        }
        if range.upperBound >= 128 { ranges.append(max(128, range.lowerBound)...range.upperBound) }
    }

    mutating func insert(_ predicate: _ScalarPredicate) {
        for scalar in UInt32(0)..<128 where predicate.contains(scalar) { insert(scalar...scalar) }
        predicates.append(predicate)
    }

    @inline(__always)
    func contains(_ scalar: UInt32) -> Bool {
        let member: Bool
        if scalar < 64 {
            member = asciiLow & (1 << UInt64(scalar)) != 0
        } else if scalar < 128 {
            member = asciiHigh & (1 << UInt64(scalar - 64)) != 0
        } else {
            member = ranges.contains { $0.contains(scalar) } || predicates.contains { $0.contains(scalar) }
        }
        return member != negated
    }
}

/// Character-class escapes and Unicode properties.
enum _ScalarPredicate {
    case digit, word, space
    case notDigit, notWord, notSpace
    case generalCategories([Unicode.GeneralCategory], negated: Bool)
    case binary((Unicode.Scalar) -> Bool, negated: Bool)

    static func isSpace(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    static func isWord(_ scalar: UInt32) -> Bool {
        (scalar >= 0x30 && scalar <= 0x39) || (scalar >= 0x41 && scalar <= 0x5A) || (scalar >= 0x61 && scalar <= 0x7A) || scalar == 0x5F
    }

    func contains(_ scalar: UInt32) -> Bool {
        switch self {
        case .digit: return scalar >= 0x30 && scalar <= 0x39
        case .notDigit: return !(scalar >= 0x30 && scalar <= 0x39)
        case .word: return Self.isWord(scalar)
        case .notWord: return !Self.isWord(scalar)
        case .space: return Self.isSpace(scalar)
        case .notSpace: return !Self.isSpace(scalar)
        case .generalCategories(let categories, let negated):
            guard let value = Unicode.Scalar(scalar) else { return negated }
            return categories.contains(value.properties.generalCategory) != negated
        case .binary(let test, let negated):
            guard let value = Unicode.Scalar(scalar) else { return negated }
            return test(value) != negated
        }
    }
}

/// The parsed pattern.
indirect enum _RegexNode {
    case empty
    case scalar(UInt32)
    case anyExceptLineTerminator
    case set(_ScalarSet)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case group(_RegexNode, capture: Int?)
    case sequence([_RegexNode])
    case alternation([_RegexNode])
    case repetition(_RegexNode, min: Int, max: Int, greedy: Bool)
    case lookaround(_RegexNode, behind: Bool, negated: Bool)
    case backreference(Int)
    case namedBackreference(String)

    /// Whether this node always consumes exactly one code point (eligible for the fast repeat).
    var isSingleScalar: Bool {
        switch self {
        case .scalar, .anyExceptLineTerminator, .set: true
        default: false
        }
    }
}

/// Recursive-descent parser for ECMA-262 pattern syntax (Unicode mode, lenient on Annex B literals).
struct _RegexParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private(set) var captureCount = 0
    private var groupNames: [String: Int] = [:]
    private var namedReferences: [String] = []
    private var maxBackreference = 0
    private var depth = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private var atEnd: Bool { index >= scalars.count }
    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func fail(_ message: String) -> _PatternError { _PatternError(message: "\(message) at position \(index)") }

    mutating func parse() throws(_PatternError) -> _RegexNode {
        let node = try parseDisjunction()
        if !atEnd { throw fail("unmatched ')'") }
        return node
    }

    func checkBackreferences() throws(_PatternError) {
        if maxBackreference > captureCount { throw _PatternError(message: "backreference \\\(maxBackreference) to a group that does not exist") }
        for name in namedReferences where groupNames[name] == nil {
            throw _PatternError(message: "backreference to unknown group name \"\(name)\"")
        }
    }

    private mutating func parseDisjunction() throws(_PatternError) -> _RegexNode {
        depth += 1
        defer { depth -= 1 }
        guard depth < 200 else { throw fail("pattern nested too deeply") }
        var alternatives = [try parseAlternative()]
        while peek() == "|" {
            index += 1
            alternatives.append(try parseAlternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseAlternative() throws(_PatternError) -> _RegexNode {
        var terms: [_RegexNode] = []
        while let scalar = peek(), scalar != "|", scalar != ")" {
            terms.append(try parseTerm())
        }
        if terms.isEmpty { return .empty }
        return terms.count == 1 ? terms[0] : .sequence(terms)
    }

    private mutating func parseTerm() throws(_PatternError) -> _RegexNode {
        guard let scalar = peek() else { throw fail("unexpected end") }
        var atom: _RegexNode
        var quantifiable = true
        switch scalar {
        case "^":
            index += 1
            return .lineStart
        case "$":
            index += 1
            return .lineEnd
        case "(":
            index += 1
            if peek() == "?" {
                switch (peek(1), peek(2)) {
                case (":", _):
                    index += 2
                    atom = .group(try parseDisjunction(), capture: nil)
                case ("=", _), ("!", _):
                    let negated = peek(1) == "!"
                    index += 2
                    atom = .lookaround(try parseDisjunction(), behind: false, negated: negated)
                    quantifiable = false
                case ("<", "="), ("<", "!"):
                    let negated = peek(2) == "!"
                    index += 3
                    atom = .lookaround(try parseDisjunction(), behind: true, negated: negated)
                    quantifiable = false
                case ("<", _):
                    index += 2
                    let name = try parseGroupName()
                    captureCount += 1
                    if groupNames[name] != nil { throw fail("duplicate group name \"\(name)\"") }
                    groupNames[name] = captureCount
                    let number = captureCount
                    atom = .group(try parseDisjunction(), capture: number)
                default:
                    throw fail("invalid group")
                }
            } else {
                captureCount += 1
                let number = captureCount
                atom = .group(try parseDisjunction(), capture: number)
            }
            guard peek() == ")" else { throw fail("missing ')'") }
            index += 1
        case ")":
            throw fail("unmatched ')'")
        case "*", "+", "?":
            throw fail("nothing to repeat")
        case "{":
            if quantifierAhead() { throw fail("nothing to repeat") }
            index += 1
            atom = .scalar(scalar.value)
        case ".":
            index += 1
            atom = .anyExceptLineTerminator
        case "[":
            index += 1
            atom = .set(try parseClass())
        case "\\":
            index += 1
            if peek() == "b" || peek() == "B" {
                let negated = peek() == "B"
                index += 1
                return .wordBoundary(negated: negated)
            }
            atom = try parseAtomEscape()
        default:
            index += 1
            atom = .scalar(scalar.value)
        }
        guard quantifiable || !(peek() == "*" || peek() == "+" || peek() == "?") else {
            throw fail("a lookaround cannot be repeated")
        }
        return try parseQuantifier(atom)
    }

    private func quantifierAhead() -> Bool {
        var probe = index
        guard probe < scalars.count, scalars[probe] == "{" else { return false }
        probe += 1
        var digits = 0
        while probe < scalars.count, scalars[probe].properties.numericType == .decimal, scalars[probe].isASCII { probe += 1; digits += 1 }
        guard digits > 0, probe < scalars.count else { return false }
        if scalars[probe] == "}" { return true }
        guard scalars[probe] == "," else { return false }
        probe += 1
        while probe < scalars.count, scalars[probe].isASCII, scalars[probe].properties.numericType == .decimal { probe += 1 }
        return probe < scalars.count && scalars[probe] == "}"
    }

    private mutating func parseQuantifier(_ atom: _RegexNode) throws(_PatternError) -> _RegexNode {
        var minimum = 0
        var maximum = Int.max
        switch peek() {
        case "*": index += 1
        case "+": index += 1; minimum = 1
        case "?": index += 1; maximum = 1
        case "{" where quantifierAhead():
            index += 1
            minimum = parseDecimal()
            if peek() == "," {
                index += 1
                maximum = peek() == "}" ? Int.max : parseDecimal()
            } else {
                maximum = minimum
            }
            index += 1
            if maximum < minimum { throw fail("numbers out of order in {} quantifier") }
        default:
            return atom
        }
        var greedy = true
        if peek() == "?" {
            index += 1
            greedy = false
        }
        return .repetition(atom, min: minimum, max: maximum, greedy: greedy)
    }

    private mutating func parseDecimal() -> Int {
        var value = 0
        while let scalar = peek(), scalar.isASCII, scalar.properties.numericType == .decimal {
            value = min(value * 10 + Int(scalar.value - 0x30), 1_000_000)
            index += 1
        }
        return value
    }

    private mutating func parseGroupName() throws(_PatternError) -> String {
        var name = ""
        while let scalar = peek(), scalar != ">" {
            guard scalar.properties.isAlphabetic || scalar == "_" || scalar == "$" || (scalar.isASCII && scalar.properties.numericType == .decimal) else {
                throw fail("invalid character in group name")
            }
            name.unicodeScalars.append(scalar)
            index += 1
        }
        guard peek() == ">", !name.isEmpty else { throw fail("invalid group name") }
        index += 1
        return name
    }

    /// After `\` outside a class.
    private mutating func parseAtomEscape() throws(_PatternError) -> _RegexNode {
        guard let scalar = peek() else { throw fail("\\ at end of pattern") }
        if scalar.isASCII, scalar.properties.numericType == .decimal, scalar != "0" {
            let number = parseDecimal()
            maxBackreference = max(maxBackreference, number)
            return .backreference(number)
        }
        if scalar == "k" {
            index += 1
            guard peek() == "<" else { throw fail("invalid \\k escape") }
            index += 1
            let name = try parseGroupName()
            namedReferences.append(name)
            return .namedBackreference(name)
        }
        switch try parseCharacterEscape(inClass: false) {
        case .scalar(let value): return .scalar(value)
        case .predicate(let predicate):
            var set = _ScalarSet()
            set.insert(predicate)
            return .set(set)
        }
    }

    private enum Escape {
        case scalar(UInt32)
        case predicate(_ScalarPredicate)
    }

    /// Escapes shared by atoms and classes; `index` is just after the `\`.
    private mutating func parseCharacterEscape(inClass: Bool) throws(_PatternError) -> Escape {
        guard let scalar = peek() else { throw fail("\\ at end of pattern") }
        index += 1
        switch scalar {
        case "d": return .predicate(.digit)
        case "D": return .predicate(.notDigit)
        case "w": return .predicate(.word)
        case "W": return .predicate(.notWord)
        case "s": return .predicate(.space)
        case "S": return .predicate(.notSpace)
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "v": return .scalar(0x0B)
        case "f": return .scalar(0x0C)
        case "r": return .scalar(0x0D)
        case "b" where inClass: return .scalar(0x08)
        case "-" where inClass: return .scalar(0x2D)
        case "0":
            if let next = peek(), next.isASCII, next.properties.numericType == .decimal { throw fail("invalid octal escape") }
            return .scalar(0)
        case "c":
            guard let letter = peek(), letter.isASCII, letter.properties.isAlphabetic else { throw fail("invalid \\c escape") }
            index += 1
            return .scalar(letter.value % 32)
        case "x":
            guard let high = peek().flatMap(hexDigit), let low = peek(1).flatMap(hexDigit) else { throw fail("invalid \\x escape") }
            index += 2
            return .scalar(high << 4 | low)
        case "u":
            let first = try parseUnicodeEscapeBody()
            if first >= 0xD800 && first <= 0xDBFF, peek() == "\\", peek(1) == "u" {
                let saved = index
                index += 2
                if let second = try? parseUnicodeEscapeBody(), second >= 0xDC00, second <= 0xDFFF {
                    return .scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                }
                index = saved
            }
            return .scalar(first)
        case "p", "P":
            return .predicate(try parseProperty(negated: scalar == "P"))
        default:
            // Identity escapes: syntax characters and `/` (lenient: any non-alphanumeric).
            if scalar.isASCII, scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal {
                throw fail("invalid escape \\\(scalar)")
            }
            return .scalar(scalar.value)
        }
    }

    private func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        guard scalar.isASCII else { return nil }
        return _URI.hexValue(UInt8(scalar.value)).map(UInt32.init)
    }

    private mutating func parseUnicodeEscapeBody() throws(_PatternError) -> UInt32 {
        if peek() == "{" {
            index += 1
            var value: UInt32 = 0
            var digits = 0
            while let scalar = peek(), let digit = hexDigit(scalar) {
                value = value << 4 | digit
                digits += 1
                index += 1
                if value > 0x10FFFF { throw fail("code point out of range") }
            }
            guard digits > 0, peek() == "}" else { throw fail("invalid \\u{} escape") }
            index += 1
            return value
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek(), let digit = hexDigit(scalar) else { throw fail("invalid \\u escape") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseProperty(negated: Bool) throws(_PatternError) -> _ScalarPredicate {
        guard peek() == "{" else { throw fail("invalid property escape") }
        index += 1
        var name = ""
        while let scalar = peek(), scalar != "}" {
            name.unicodeScalars.append(scalar)
            index += 1
        }
        guard peek() == "}" else { throw fail("unterminated property escape") }
        index += 1
        if name.hasPrefix("General_Category=") { name.removeFirst("General_Category=".count) }
        if name.hasPrefix("gc=") { name.removeFirst(3) }
        if let categories = Self.generalCategories[name] { return .generalCategories(categories, negated: negated) }
        switch name {
        case "Any": return .binary({ _ in true }, negated: negated)
        case "ASCII": return .binary({ $0.isASCII }, negated: negated)
        case "Alphabetic", "Alpha": return .binary({ $0.properties.isAlphabetic }, negated: negated)
        case "White_Space", "space": return .binary({ $0.properties.isWhitespace }, negated: negated)
        case "Uppercase", "Upper": return .binary({ $0.properties.isUppercase }, negated: negated)
        case "Lowercase", "Lower": return .binary({ $0.properties.isLowercase }, negated: negated)
        case "Emoji": return .binary({ $0.properties.isEmoji }, negated: negated)
        default: throw fail("unsupported Unicode property \\p{\(name)}")
        }
    }

    private static let generalCategories: [String: [Unicode.GeneralCategory]] = {
        let letters: [Unicode.GeneralCategory] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let marks: [Unicode.GeneralCategory] = [.nonspacingMark, .spacingMark, .enclosingMark]
        let numbers: [Unicode.GeneralCategory] = [.decimalNumber, .letterNumber, .otherNumber]
        let punctuation: [Unicode.GeneralCategory] = [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation]
        let symbols: [Unicode.GeneralCategory] = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        let separators: [Unicode.GeneralCategory] = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        let others: [Unicode.GeneralCategory] = [.control, .format, .surrogate, .privateUse, .unassigned]
        var table: [String: [Unicode.GeneralCategory]] = [:]
        for (names, categories) in [
            (["L", "Letter"], letters), (["Lu", "Uppercase_Letter"], [.uppercaseLetter]),
            (["Ll", "Lowercase_Letter"], [.lowercaseLetter]), (["Lt", "Titlecase_Letter"], [.titlecaseLetter]),
            (["LC", "Cased_Letter"], [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            (["Lm", "Modifier_Letter"], [.modifierLetter]), (["Lo", "Other_Letter"], [.otherLetter]),
            (["M", "Mark", "Combining_Mark"], marks), (["Mn", "Nonspacing_Mark"], [.nonspacingMark]),
            (["Mc", "Spacing_Mark"], [.spacingMark]), (["Me", "Enclosing_Mark"], [.enclosingMark]),
            (["N", "Number"], numbers), (["Nd", "Decimal_Number", "digit"], [.decimalNumber]),
            (["Nl", "Letter_Number"], [.letterNumber]), (["No", "Other_Number"], [.otherNumber]),
            (["P", "Punctuation", "punct"], punctuation), (["S", "Symbol"], symbols),
            (["Sm", "Math_Symbol"], [.mathSymbol]), (["Sc", "Currency_Symbol"], [.currencySymbol]),
            (["Z", "Separator"], separators), (["Zs", "Space_Separator"], [.spaceSeparator]),
            (["Zl", "Line_Separator"], [.lineSeparator]), (["Zp", "Paragraph_Separator"], [.paragraphSeparator]),
            (["C", "Other"], others), (["Cc", "Control", "cntrl"], [.control]), (["Cf", "Format"], [.format]),
            (["Co", "Private_Use"], [.privateUse]), (["Cn", "Unassigned"], [.unassigned]),
        ] as [([String], [Unicode.GeneralCategory])] {
            for name in names { table[name] = categories }
        }
        return table
    }()

    /// After `[`.
    private mutating func parseClass() throws(_PatternError) -> _ScalarSet {
        var set = _ScalarSet()
        if peek() == "^" {
            set.negated = true
            index += 1
        }
        while true {
            guard let scalar = peek() else { throw fail("unterminated character class") }
            if scalar == "]" {
                index += 1
                return set
            }
            let low = try parseClassAtom()
            if peek() == "-", let next = peek(1), next != "]" {
                index += 1
                let high = try parseClassAtom()
                switch (low, high) {
                case (.scalar(let from), .scalar(let to)):
                    guard from <= to else { throw fail("range out of order in character class") }
                    set.insert(from...to)
                default:
                    throw fail("a class escape cannot bound a range")
                }
                continue
            }
            switch low {
            case .scalar(let value): set.insert(value...value)
            case .predicate(let predicate): set.insert(predicate)
            }
        }
    }

    private mutating func parseClassAtom() throws(_PatternError) -> Escape {
        guard let scalar = peek() else { throw fail("unterminated character class") }
        index += 1
        if scalar == "\\" { return try parseCharacterEscape(inClass: true) }
        return .scalar(scalar.value)
    }
}

/// Backtracking state for one match attempt.
final class _MatchState {
    let bytes: UnsafeBufferPointer<UInt8>
    var captures: [Int]
    var steps = 0
    let budget: Int

    init(bytes: UnsafeBufferPointer<UInt8>, captureCount: Int) {
        self.bytes = bytes
        self.captures = captureCount == 0 ? [] : Array(repeating: -1, count: (captureCount + 1) * 2)
        self.budget = 200_000 + bytes.count * 2_000
    }

    var exhausted: Bool { steps > budget }

    /// Decodes the code point at `position` (which is on a boundary); returns it and its length.
    @inline(__always)
    func scalar(at position: Int) -> (value: UInt32, length: Int) {
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 {
            return ((lead & 0x1F) << 6 | UInt32(bytes[position + 1] & 0x3F), 2)
        }
        if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F), 3)
        }
        return ((lead & 0x07) << 18 | UInt32(bytes[position + 1] & 0x3F) << 12 | UInt32(bytes[position + 2] & 0x3F) << 6 | UInt32(bytes[position + 3] & 0x3F), 4)
    }

    func next(_ position: Int) -> Int { position + scalar(at: position).length }

    func previous(_ position: Int) -> Int {
        var result = position - 1
        while result > 0 && bytes[result] & 0xC0 == 0x80 { result -= 1 }
        return result
    }

    private func isWordBefore(_ position: Int) -> Bool {
        position > 0 && _ScalarPredicate.isWord(UInt32(bytes[position - 1]))
    }

    private func isWordAt(_ position: Int) -> Bool {
        position < bytes.count && _ScalarPredicate.isWord(UInt32(bytes[position]))
    }

    /// Matches one code point for a single-scalar node; the position after it, or nil.
    @inline(__always)
    private func step(_ node: _RegexNode, _ position: Int) -> Int? {
        guard position < bytes.count else { return nil }
        let (value, length) = scalar(at: position)
        switch node {
        case .scalar(let expected): return value == expected ? position + length : nil
        case .anyExceptLineTerminator:
            return value == 0x0A || value == 0x0D || value == 0x2028 || value == 0x2029 ? nil : position + length
        case .set(let set): return set.contains(value) ? position + length : nil
        default: return nil
        }
    }

    /// Matches `node` at `position`, then the continuation; true when the whole match succeeds.
    func match(_ node: _RegexNode, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        steps += 1
        if steps > budget { return false }
        switch node {
        case .empty:
            return continuation(position)
        case .scalar, .anyExceptLineTerminator, .set:
            guard let end = step(node, position) else { return false }
            return continuation(end)
        case .lineStart:
            return position == 0 && continuation(position)
        case .lineEnd:
            return position == bytes.count && continuation(position)
        case .wordBoundary(let negated):
            let boundary = isWordBefore(position) != isWordAt(position)
            return boundary != negated && continuation(position)
        case .group(let inner, let capture):
            guard let capture else { return match(inner, position, continuation) }
            let savedStart = captures[capture * 2]
            let savedEnd = captures[capture * 2 + 1]
            let matched = match(inner, position) { end in
                let previousStart = self.captures[capture * 2]
                let previousEnd = self.captures[capture * 2 + 1]
                self.captures[capture * 2] = position
                self.captures[capture * 2 + 1] = end
                if continuation(end) { return true }
                self.captures[capture * 2] = previousStart
                self.captures[capture * 2 + 1] = previousEnd
                return false
            }
            if !matched {
                captures[capture * 2] = savedStart
                captures[capture * 2 + 1] = savedEnd
            }
            return matched
        case .sequence(let nodes):
            return matchSequence(nodes, 0, position, continuation)
        case .alternation(let alternatives):
            for alternative in alternatives where match(alternative, position, continuation) { return true }
            return false
        case .repetition(let inner, let minimum, let maximum, let greedy):
            if inner.isSingleScalar { return repeatSingle(inner, minimum, maximum, greedy, position, continuation) }
            return repeatGeneral(inner, minimum, maximum, greedy, 0, position, continuation)
        case .lookaround(let inner, let behind, let negated):
            let found: Bool
            if behind {
                var start = position
                var matched = false
                while true {
                    if match(inner, start, { $0 == position }) { matched = true; break }
                    if start == 0 { break }
                    start = previous(start)
                }
                found = matched
            } else {
                found = match(inner, position) { _ in true }
            }
            return found != negated && continuation(position)
        case .backreference(let number):
            return matchCapture(number, position, continuation)
        case .namedBackreference:
            return continuation(position)
        }
    }

    private func matchCapture(_ number: Int, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        guard number * 2 + 1 < captures.count else { return continuation(position) }
        let start = captures[number * 2]
        let end = captures[number * 2 + 1]
        guard start >= 0, end >= start else { return continuation(position) }
        let length = end - start
        guard position + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[start + offset] != bytes[position + offset] { return false }
        return continuation(position + length)
    }

    private func matchSequence(_ nodes: [_RegexNode], _ at: Int, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        if at == nodes.count { return continuation(position) }
        return match(nodes[at], position) { next in self.matchSequence(nodes, at + 1, next, continuation) }
    }

    private func repeatSingle(_ inner: _RegexNode, _ minimum: Int, _ maximum: Int, _ greedy: Bool, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        var count = 0
        var end = position
        if greedy {
            while count < maximum, let next = step(inner, end) {
                end = next
                count += 1
            }
            if count < minimum { return false }
            while true {
                steps += 1
                if steps > budget { return false }
                if continuation(end) { return true }
                if count == minimum { return false }
                end = previous(end)
                count -= 1
            }
        }
        while count < minimum {
            guard let next = step(inner, end) else { return false }
            end = next
            count += 1
        }
        while true {
            steps += 1
            if steps > budget { return false }
            if continuation(end) { return true }
            guard count < maximum, let next = step(inner, end) else { return false }
            end = next
            count += 1
        }
    }

    private func repeatGeneral(_ inner: _RegexNode, _ minimum: Int, _ maximum: Int, _ greedy: Bool, _ count: Int, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        if count < minimum {
            return match(inner, position) { next in
                self.repeatGeneral(inner, minimum, maximum, greedy, count + 1, next, continuation)
            }
        }
        if greedy {
            if count < maximum, match(inner, position, { next in
                next != position && self.repeatGeneral(inner, minimum, maximum, greedy, count + 1, next, continuation)
            }) { return true }
            return continuation(position)
        }
        if continuation(position) { return true }
        return count < maximum && match(inner, position) { next in
            next != position && self.repeatGeneral(inner, minimum, maximum, greedy, count + 1, next, continuation)
        }
    }
}
