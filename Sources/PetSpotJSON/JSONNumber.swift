/// A JSON number as an exact decimal, with the spelling it arrived in.
///
/// JSON Schema counts `1.0` and `1e2` as integers and needs `multipleOf` and bounds without binary
/// rounding, so a number is kept as sign × digits × 10^exponent, normalised (no leading or
/// trailing zeros in `digits`). ``literal`` is the original spelling, which is what
/// serialization writes back, so a value is echoed exactly as sent.
///
/// Equality, hashing and ordering are by value: `JSONNumber(literal: "1.0") == JSONNumber(1)`.
public struct JSONNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The spelling written when serialising: the source text for parsed numbers.
    public let literal: String
    /// The nearest `Double` (what a JavaScript backend sees).
    public let doubleValue: Double
    /// Whether the value is below zero (zero is never negative).
    public let isNegative: Bool
    /// Significant decimal digits (0...9), without leading or trailing zeros; empty for zero.
    public let digits: [UInt8]
    /// The power of ten that `digits` is scaled by.
    public let exponent: Int

    /// Creates the number for an integer.
    public init(_ value: Int) {
        self.init(validatedLiteral: String(value))!
    }

    /// Creates the number for a finite `Double`, spelled as Swift's shortest round-trip form
    /// (integral values without a trailing `.0`). Non-finite values become `0`, which JSON
    /// cannot otherwise express; callers that care check `isFinite` first.
    public init(_ value: Double) {
        guard value.isFinite else {
            self.init(validatedLiteral: "0")!
            return
        }
        var text = "\(value)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        self.init(validatedLiteral: text, doubleValue: value)!
    }

    /// Parses a number spelled by JSON's grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`);
    /// `nil` for anything else, including exponents beyond ±1,000,000,000.
    public init?(literal: String) {
        guard JSONNumber.isJSONNumberSyntax(Array(literal.utf8)) else { return nil }
        self.init(validatedLiteral: literal)
    }

    /// Builds the decimal from text already known to match JSON's number grammar.
    package init?(validatedLiteral text: String, doubleValue knownDouble: Double? = nil) {
        var negative = false
        var digits: [UInt8] = []
        digits.reserveCapacity(text.utf8.count)
        var pointOffset = 0
        var seenPoint = false
        var inExponent = false
        var exponentNegative = false
        var exponentValue = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if inExponent { exponentNegative = true } else { negative = true }
            case UInt8(ascii: "+"):
                continue
            case UInt8(ascii: "."):
                seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            default:
                let digit = byte &- UInt8(ascii: "0")
                if inExponent {
                    exponentValue = exponentValue * 10 + Int(digit)
                    if exponentValue > 1_000_000_000 { return nil }
                } else {
                    digits.append(digit)
                    if seenPoint { pointOffset -= 1 }
                }
            }
        }
        if exponentNegative { exponentValue = -exponentValue }
        if let lastSignificant = digits.lastIndex(where: { $0 != 0 }) {
            let firstSignificant = digits.firstIndex { $0 != 0 } ?? 0
            self.exponent = exponentValue + pointOffset + (digits.count - 1 - lastSignificant)
            if firstSignificant > 0 || lastSignificant < digits.count - 1 {
                digits = Array(digits[firstSignificant...lastSignificant])
            }
            self.digits = digits
            self.isNegative = negative
        } else {
            self.exponent = 0
            self.digits = []
            self.isNegative = false
        }
        self.literal = text
        self.doubleValue = knownDouble ?? Double(text) ?? (negative ? -.infinity : .infinity)
    }

    /// Whether the value is a whole number (`1`, `1.0`, `1e2`, `-0`).
    public var isInteger: Bool { digits.isEmpty || exponent >= 0 }

    /// Whether the value is zero.
    public var isZero: Bool { digits.isEmpty }

    /// The value as an `Int` when it is a whole number that fits.
    public var intValue: Int? {
        guard isInteger else { return nil }
        guard digits.count + exponent <= 18 else { return nil }
        var result = 0
        for digit in digits { result = result * 10 + Int(digit) }
        for _ in 0..<exponent { result *= 10 }
        return isNegative ? -result : result
    }

    /// Number of digits before the decimal point of the absolute value (may be ≤ 0 for |x| < 1).
    var magnitude: Int { digits.count + exponent }

    public var description: String { literal }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.isNegative == rhs.isNegative && lhs.exponent == rhs.exponent && lhs.digits == rhs.digits
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isNegative)
        hasher.combine(exponent)
        hasher.combine(digits)
    }

    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        let magnitudeLess = compareMagnitude(lhs, rhs)
        if magnitudeLess == 0 { return false }
        return lhs.isNegative ? magnitudeLess > 0 : magnitudeLess < 0
    }

    /// -1, 0 or 1 as |lhs| is less than, equal to or greater than |rhs|.
    static func compareMagnitude(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if lhs.digits.isEmpty || rhs.digits.isEmpty {
            if lhs.digits.isEmpty && rhs.digits.isEmpty { return 0 }
            return lhs.digits.isEmpty ? -1 : 1
        }
        if lhs.magnitude != rhs.magnitude { return lhs.magnitude < rhs.magnitude ? -1 : 1 }
        for index in 0..<max(lhs.digits.count, rhs.digits.count) {
            let left = index < lhs.digits.count ? lhs.digits[index] : 0
            let right = index < rhs.digits.count ? rhs.digits[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }

    /// Whether `bytes` is exactly one number in JSON's grammar.
    static func isJSONNumberSyntax(_ bytes: [UInt8]) -> Bool {
        var index = 0
        return scanNumber(bytes, &index) == nil && index == bytes.count
    }

    /// Scans a number starting at `index`, advancing past it; returns a failure reason and leaves
    /// `index` at the offending byte when the grammar is broken.
    static func scanNumber(_ bytes: [UInt8], _ index: inout Int) -> String? {
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return "expected a digit" }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return "leading zero in number" }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return "expected a digit after the decimal point" }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else { return "expected a digit in the exponent" }
            while isDigit(index) { index += 1 }
        }
        return nil
    }
}

extension JSONNumber {
    /// Whether this value is an exact multiple of `divisor` (which must be > 0), decided on the
    /// decimals, without floating-point rounding.
    public func isMultiple(of divisor: JSONNumber) -> Bool {
        if digits.isEmpty { return true }
        if divisor.digits.isEmpty { return false }
        // Scale both to a common exponent, then test integer divisibility digit by digit.
        let commonExponent = min(exponent, divisor.exponent)
        let dividendShift = exponent - commonExponent
        let divisorShift = divisor.exponent - commonExponent
        // Guard against absurd shifts (e.g. 1e1000000 vs 1e-1000000): fall back to Double.
        guard dividendShift < 4096, divisorShift < 4096 else {
            let quotient = doubleValue / divisor.doubleValue
            return quotient.isFinite && quotient == quotient.rounded()
        }
        let divisorDigits = divisor.digits + [UInt8](repeating: 0, count: divisorShift)
        if divisorDigits.count <= 18 {
            var divisorValue = 0
            for digit in divisorDigits { divisorValue = divisorValue * 10 + Int(digit) }
            var remainder = 0
            for digit in digits { remainder = (remainder * 10 + Int(digit)) % divisorValue }
            for _ in 0..<dividendShift { remainder = (remainder * 10) % divisorValue }
            return remainder == 0
        }
        // Long divisors: repeated subtraction on decimal digit arrays (rare in schemas).
        var remainder: [UInt8] = []
        for digit in digits + [UInt8](repeating: 0, count: dividendShift) {
            remainder.append(digit)
            remainder = Self.trimLeadingZeros(remainder)
            while Self.compareDigits(remainder, divisorDigits) >= 0 {
                remainder = Self.subtractDigits(remainder, divisorDigits)
            }
        }
        return remainder.isEmpty
    }

    private static func trimLeadingZeros(_ digits: [UInt8]) -> [UInt8] {
        Array(digits.drop { $0 == 0 })
    }

    private static func compareDigits(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        for (left, right) in zip(lhs, rhs) where left != right { return left < right ? -1 : 1 }
        return 0
    }

    private static func subtractDigits(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result = lhs
        var borrow = 0
        var rightIndex = rhs.count - 1
        for index in stride(from: result.count - 1, through: 0, by: -1) {
            var value = Int(result[index]) - borrow - (rightIndex >= 0 ? Int(rhs[rightIndex]) : 0)
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 10 }
            result[index] = UInt8(value)
            rightIndex -= 1
        }
        return trimLeadingZeros(result)
    }
}
