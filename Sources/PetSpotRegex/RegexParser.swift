/// Recursive-descent parser for ECMA-262 pattern syntax (Unicode mode, lenient on Annex B literals).
struct RegexParser {
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

    private func fail(_ message: String) -> PatternSyntaxError { PatternSyntaxError(message: "\(message) at position \(index)") }

    mutating func parse() throws(PatternSyntaxError) -> RegexNode {
        let node = try parseDisjunction()
        if !atEnd { throw fail("unmatched ')'") }
        return node
    }

    func checkBackreferences() throws(PatternSyntaxError) {
        if maxBackreference > captureCount { throw PatternSyntaxError(message: "backreference \\\(maxBackreference) to a group that does not exist") }
        for name in namedReferences where groupNames[name] == nil {
            throw PatternSyntaxError(message: "backreference to unknown group name \"\(name)\"")
        }
    }

    private mutating func parseDisjunction() throws(PatternSyntaxError) -> RegexNode {
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

    private mutating func parseAlternative() throws(PatternSyntaxError) -> RegexNode {
        var terms: [RegexNode] = []
        while let scalar = peek(), scalar != "|", scalar != ")" {
            terms.append(try parseTerm())
        }
        if terms.isEmpty { return .empty }
        return terms.count == 1 ? terms[0] : .sequence(terms)
    }

    private mutating func parseTerm() throws(PatternSyntaxError) -> RegexNode {
        guard let scalar = peek() else { throw fail("unexpected end") }
        var atom: RegexNode
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

    private mutating func parseQuantifier(_ atom: RegexNode) throws(PatternSyntaxError) -> RegexNode {
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

    private mutating func parseGroupName() throws(PatternSyntaxError) -> String {
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
    private mutating func parseAtomEscape() throws(PatternSyntaxError) -> RegexNode {
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
            var set = ScalarSet()
            set.insert(predicate)
            return .set(set)
        }
    }

    private enum Escape {
        case scalar(UInt32)
        case predicate(ScalarPredicate)
    }

    /// Escapes shared by atoms and classes; `index` is just after the `\`.
    private mutating func parseCharacterEscape(inClass: Bool) throws(PatternSyntaxError) -> Escape {
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
        switch scalar.value {
        case 0x30...0x39: scalar.value - 0x30
        case 0x41...0x46: scalar.value - 0x41 + 10
        case 0x61...0x66: scalar.value - 0x61 + 10
        default: nil
        }
    }

    private mutating func parseUnicodeEscapeBody() throws(PatternSyntaxError) -> UInt32 {
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

    private mutating func parseProperty(negated: Bool) throws(PatternSyntaxError) -> ScalarPredicate {
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
        case "Any": return .binary(.any, negated: negated)
        case "ASCII": return .binary(.ascii, negated: negated)
        case "Alphabetic", "Alpha": return .binary(.alphabetic, negated: negated)
        case "White_Space", "space": return .binary(.whiteSpace, negated: negated)
        case "Uppercase", "Upper": return .binary(.uppercase, negated: negated)
        case "Lowercase", "Lower": return .binary(.lowercase, negated: negated)
        case "Emoji": return .binary(.emoji, negated: negated)
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
    private mutating func parseClass() throws(PatternSyntaxError) -> ScalarSet {
        var set = ScalarSet()
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

    private mutating func parseClassAtom() throws(PatternSyntaxError) -> Escape {
        guard let scalar = peek() else { throw fail("unterminated character class") }
        index += 1
        if scalar == "\\" { return try parseCharacterEscape(inClass: true) }
        return .scalar(scalar.value)
    }
}


/// Why a pattern failed to compile.
package struct PatternSyntaxError: Error {
    /// What is wrong and at which code point of the pattern.
    package let message: String
}
