/// A set of code points for a regular-expression class: ASCII as a bitmap, the rest as ranges
/// and Unicode predicates.
struct ScalarSet: Hashable, Sendable {
    var asciiLow: UInt64 = 0
    var asciiHigh: UInt64 = 0
    var ranges: [ClosedRange<UInt32>] = []
    var predicates: [ScalarPredicate] = []
    var negated = false

    mutating func insert(_ range: ClosedRange<UInt32>) {
        var low = range.lowerBound
        while low <= range.upperBound && low < 128 {
            if low < 64 { asciiLow |= 1 << UInt64(low) } else { asciiHigh |= 1 << UInt64(low - 64) }
            low += 1
        }
        if range.upperBound >= 128 { ranges.append(max(128, range.lowerBound)...range.upperBound) }
    }

    mutating func insert(_ predicate: ScalarPredicate) {
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

/// Character-class escapes (`\d`, `\w`, `\s` and their negations) and Unicode properties.
enum ScalarPredicate: Hashable, Sendable {
    case digit, word, space
    case notDigit, notWord, notSpace
    case generalCategories([Unicode.GeneralCategory], negated: Bool)
    case binary(BinaryProperty, negated: Bool)

    /// The binary Unicode properties `\p{…}` supports.
    enum BinaryProperty: Hashable, Sendable {
        case any, ascii, alphabetic, whiteSpace, uppercase, lowercase, emoji

        func holds(for scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .any: true
            case .ascii: scalar.isASCII
            case .alphabetic: scalar.properties.isAlphabetic
            case .whiteSpace: scalar.properties.isWhitespace
            case .uppercase: scalar.properties.isUppercase
            case .lowercase: scalar.properties.isLowercase
            case .emoji: scalar.properties.isEmoji
            }
        }
    }

    /// ECMAScript `\s`: WhiteSpace and LineTerminator.
    static func isSpace(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// ECMAScript `\w`: ASCII letters, digits and `_`.
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
        case .binary(let property, let negated):
            guard let value = Unicode.Scalar(scalar) else { return negated }
            return property.holds(for: value) != negated
        }
    }
}
