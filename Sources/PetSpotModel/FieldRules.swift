import Foundation

/// Trimming as every field rule of report-flows.md applies it: Unicode White_Space and U+FEFF,
/// a superset of JavaScript's `trim()`, so nothing the app sends is blank to the backend.
///
/// The White_Space property is read from the scalar (`Unicode.Scalar.Properties.isWhitespace`)
/// rather than from `CharacterSet.whitespacesAndNewlines`, whose Linux implementation still counts
/// U+200B ZERO WIDTH SPACE as a space (it was until Unicode 4.0.1); the property gives the same
/// answer on every platform.
public enum Trimming {
    /// Whether `scalar` is removed from the ends of a text.
    public static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace || scalar == "\u{FEFF}"
    }

    /// Whether `text` is empty after trimming (only White_Space and U+FEFF, or nothing).
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isTrimmed)
    }

    /// `text` without leading and trailing White_Space and U+FEFF.
    public static func trim(_ text: String) -> String {
        // Common case: both ends are visible ASCII, nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return text
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) })!
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }
}

/// Filtering as a text field's filter does it: by Swift `Character` (extended grapheme cluster).
///
/// A character is kept only when it is, as a whole, one of the kept ASCII characters: `"0\u{301}"`
/// (0 with a combining accent), `"0\u{200D}"` (0 joined to a zero-width joiner) and the keycap
/// `"1\u{FE0F}\u{20E3}"` are single characters that are not ASCII digits, and are dropped whole.
public enum CharacterFilter {
    /// The characters of `typed` that are single ASCII bytes satisfying `keeps`, in order, at
    /// most `limit` of them.
    public static func kept(_ typed: String, limit: Int = .max, where keeps: (UInt8) -> Bool) -> String {
        var kept: [UInt8] = []
        // In all-ASCII text (the common case) every character is one byte, except CR LF, which
        // is one character of two bytes that no filter keeps: filtering the bytes is the same.
        if typed.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in typed.utf8 where kept.count < limit && keeps(byte) { kept.append(byte) }
        } else {
            for character in typed where kept.count < limit {
                if character.unicodeScalars.count == 1, let byte = character.asciiValue, keeps(byte) { kept.append(byte) }
            }
        }
        return kept.count == typed.utf8.count ? typed : String(decoding: kept, as: UTF8.self)
    }

    /// How many characters of `typed` are single ASCII bytes satisfying `counts`.
    public static func count(_ typed: String, where counts: (UInt8) -> Bool) -> Int {
        if typed.utf8.allSatisfy({ $0 < 0x80 }) { return typed.utf8.reduce(0) { $0 + (counts($1) ? 1 : 0) } }
        return typed.reduce(0) { total, character in
            guard character.unicodeScalars.count == 1, let byte = character.asciiValue, counts(byte) else { return total }
            return total + 1
        }
    }

    /// Whether `byte` is an ASCII digit `0`-`9`.
    public static func isASCIIDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}

/// Microchip / collar data: ASCII digits only, at most 15, stored digits-only, shown grouped.
///
/// Any other character typed is dropped (by ``CharacterFilter``); digits past the 15th are not
/// accepted. Any length 0-15 is valid; an empty number is left out of the payload.
public struct MicrochipFormatter: Sendable {
    /// Most digits a microchip number holds.
    public let maxDigits = 15

    /// The rule.
    public init() {}

    /// The stored value for typed text: its ASCII-digit characters, the first 15.
    public func storedDigits(from typed: String) -> String {
        CharacterFilter.kept(typed, limit: maxDigits, where: CharacterFilter.isASCIIDigit)
    }

    /// The display form `00000-00000-00000`: a hyphen after the 5th and the 10th digit.
    public func displayed(_ digits: String) -> String {
        var shown = ""
        for (position, character) in digits.enumerated() {
            if position == 5 || position == 10 { shown.append("-") }
            shown.append(character)
        }
        return shown
    }
}

/// A phone number: keeps the characters `0`-`9` and `+`, valid with 7 to 11 ASCII digits.
public struct PhoneRule: Sendable {
    /// The accepted counts of ASCII digits.
    public let digitCount = 7...11
    /// Fewest digits a valid phone holds.
    public var minDigits: Int { digitCount.lowerBound }
    /// Most digits a valid phone holds.
    public var maxDigits: Int { digitCount.upperBound }
    /// The message shown under an invalid phone.
    public let errorMessage = "Enter at least 7 digits"

    /// The rule.
    public init() {}

    /// The kept text: the characters of `typed` that are ASCII digits or `+`, in order. This is
    /// what is sent.
    public func sanitized(_ typed: String) -> String {
        CharacterFilter.kept(typed) { CharacterFilter.isASCIIDigit($0) || $0 == UInt8(ascii: "+") }
    }

    /// Whether the kept text of `typed` has 7 to 11 ASCII digits.
    public func isValid(_ typed: String) -> Bool {
        digitCount.contains(CharacterFilter.count(typed, where: CharacterFilter.isASCIIDigit))
    }
}

/// An email address: trimmed, ASCII pattern `^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`,
/// at most 254 characters.
public struct EmailRule: Sendable {
    /// Longest valid address, in characters.
    public let maxLength = 254
    /// Fewest letters of the top-level domain (the `{2,}` of the pattern).
    public let minTopLevelLetters = 2
    /// The message shown under an invalid email.
    public let errorMessage = "Enter a valid email address"

    /// The rule.
    public init() {}

    /// The value sent: `typed`, trimmed.
    public func normalized(_ typed: String) -> String { Trimming.trim(typed) }

    /// Whether the trimmed `typed` matches the pattern and the length cap.
    public func isValid(_ typed: String) -> Bool {
        var address = normalized(typed)
        return address.withUTF8 { bytes in
            guard bytes.count <= maxLength, let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
            let local = bytes[..<at]
            let domain = bytes[(at + 1)...]
            guard !local.isEmpty, local.allSatisfy(Self.isLocalByte) else { return false }
            guard domain.allSatisfy(Self.isDomainByte), let lastDot = domain.lastIndex(of: UInt8(ascii: ".")) else {
                return false
            }
            // `[A-Za-z0-9.-]+` before the final dot, `[A-Za-z]{2,}` after it.
            let topLevel = domain[(lastDot + 1)...]
            return lastDot > domain.startIndex && topLevel.count >= minTopLevelLetters && topLevel.allSatisfy(Self.isLetter)
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isLocalByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    private static func isDomainByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }
}

/// Latitude and longitude typed as text: trimmed, read as a plain decimal number, range-checked.
///
/// A plain decimal number is: an optional sign, ASCII digits with an optional fraction (`5`,
/// `5.25`, `5.`) or a fraction alone (`.5`), and an optional exponent (`1e1`, `2E-3`).
/// Hexadecimal floats, `inf`, `nan`, grouping separators and non-ASCII digits are not numbers.
/// The trailing-point spelling `5.` is accepted because both JavaScript's `Number` and Swift's
/// `Double` read it as 5; report-flows.md does not exclude it.
public struct CoordinateRule: Sendable {
    /// The axis and its bounds.
    public enum Axis: Sendable {
        case latitude, longitude

        /// The inclusive bound on the absolute value: 90 or 180.
        public var limit: Double { self == .latitude ? 90 : 180 }
    }

    /// The rule.
    public init() {}

    /// The number `typed` spells, if it is a plain decimal number (after trimming) and finite.
    public func parse(_ typed: String) -> Double? {
        let text = Trimming.trim(typed)
        guard Self.isPlainDecimal(Array(text.utf8)), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The value when `typed` is a number within the axis's range, else `nil`.
    public func validValue(_ typed: String, axis: Axis) -> Double? {
        guard let value = parse(typed), abs(value) <= axis.limit else { return nil }
        return value
    }

    static func isPlainDecimal(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func isDigit(_ i: Int) -> Bool { i < bytes.count && (0x30...0x39).contains(bytes[i]) }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
            index += 1
        }
        var mantissaDigits = 0
        while isDigit(index) { index += 1; mantissaDigits += 1 }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        return index == bytes.count
    }
}

/// The pet's age (Missing flow only): optional; when given, trimmed ASCII digits of a whole
/// number 1-40.
public struct AgeRule: Sendable {
    /// The accepted ages.
    public let range = 1...40

    /// The rule.
    public init() {}

    /// Whether `typed` is acceptable: empty after trimming, or a whole number 1-40 in ASCII
    /// digits (leading zeros allowed: `07` is 7).
    public func isValid(_ typed: String) -> Bool {
        Trimming.trim(typed).isEmpty || payloadValue(typed) != nil
    }

    /// The age sent for `typed`: the number when valid, `nil` when empty or invalid.
    public func payloadValue(_ typed: String) -> Int? {
        let text = Trimming.trim(typed)
        guard !text.isEmpty, text.unicodeScalars.allSatisfy(\.isASCIIDigit) else { return nil }
        let significant = text.drop { $0 == "0" }
        guard significant.count <= 2, let value = Int(significant.isEmpty ? "0" : String(significant)),
            range.contains(value)
        else { return nil }
        return value
    }
}

/// A length cap on a text field, in Swift `Character`s: typing past it is not accepted.
public struct TextLimit: Sendable, Hashable {
    /// Most characters kept.
    public let maxCharacters: Int

    /// Description: 500 characters.
    public static let description = TextLimit(maxCharacters: 500)
    /// Reward: 120 characters.
    public static let reward = TextLimit(maxCharacters: 120)
    /// Current physical address: 500 characters.
    public static let currentAddress = TextLimit(maxCharacters: 500)

    /// A cap of `maxCharacters` characters.
    public init(maxCharacters: Int) { self.maxCharacters = maxCharacters }

    /// The text the field holds after `typed`: the text stops at the limit.
    public func capped(_ typed: String) -> String {
        // Every Character takes at least one UTF-8 byte: short texts need no counting.
        if typed.utf8.count <= maxCharacters { return typed }
        var count = 0
        var end = typed.startIndex
        while end < typed.endIndex && count < maxCharacters {
            typed.formIndex(after: &end)
            count += 1
        }
        return end == typed.endIndex ? typed : String(typed[..<end])
    }
}

/// Optional free texts (pet name, breed, description, reward): trimmed, left out when blank.
public enum OptionalText {
    /// The value sent for `typed`: trimmed, or `nil` when nothing is left.
    public static func payloadValue(_ typed: String) -> String? {
        let trimmed = Trimming.trim(typed)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The photo: required, PNG or JPEG (MIME type case-insensitive), 1 byte to 10 MB.
public struct PhotoRule: Sendable {
    /// The largest accepted photo: 10 × 1024 × 1024 bytes.
    public let maxBytes = 10 * 1024 * 1024
    /// Accepted MIME types (compared lower-cased).
    public var acceptedTypes: Set<String> { Self.acceptedTypes }
    private static let acceptedTypes: Set<String> = ["image/png", "image/jpeg"]

    /// The rule.
    public init() {}

    /// Whether `photo` may be submitted; `nil` (none attached) is not.
    public func isValid(_ photo: PhotoAttachment?) -> Bool {
        guard let photo else { return false }
        return (1...maxBytes).contains(photo.byteCount) && Self.acceptedTypes.contains(photo.mimeType.lowercased())
    }
}

/// The date last seen / found: a calendar date in the user's time zone, never after today there,
/// sent as `YYYY-MM-DD` of that same date.
///
/// "Today" is read so that the backend accepts every date the app lets through, which is the
/// principle report-flows.md settles its rules by: the backend reads the date as UTC midnight
/// and refuses it when that is after its current instant. East of UTC, in the hours after local
/// midnight, the user's today is still tomorrow in UTC (00:30 on the 22nd in Kiritimati, UTC+14,
/// is 10:30 on the 21st in UTC), and the backend refuses it. So the latest date allowed is the
/// earlier of the user's today and today in UTC (``ReportContext/latestReportDate``). Everywhere
/// else, and at every other hour, that is simply the user's today.
public struct ReportDateRule: Sendable {
    /// The rule.
    public init() {}

    /// Whether `date` may be submitted when the user's clock reads `now` in `timeZone`.
    public func isAllowed(_ date: CalendarDate, now: Date, timeZone: TimeZone) -> Bool {
        date <= Self.latestAllowedDate(now: now, timeZone: timeZone)
    }

    /// The latest date a report may carry: the earlier of today in `timeZone` and today in UTC.
    public static func latestAllowedDate(now: Date, timeZone: TimeZone) -> CalendarDate {
        min(CalendarDate.today(in: timeZone, now: now), CalendarDate.today(in: utc, now: now))
    }

    private static let utc = TimeZone(secondsFromGMT: 0)!
}

extension Unicode.Scalar {
    /// `0`-`9` only (not Arabic-Indic, fullwidth or any other digit).
    var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}
