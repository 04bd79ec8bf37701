import PetSpotJSON

/// Bits of JavaScript's semantics the production backend (Node.js) applies and the mock must
/// reproduce: `String.prototype.trim`, `Number.prototype.toString`, `parseFloat`,
/// `decodeURIComponent`, zod's type names, and `Date` for `YYYY-MM-DD`.
enum JavaScript {
    /// Whether a UTF-16 unit is JavaScript white space or a line terminator (what `trim` and
    /// `\s` remove/match).
    static func isWhitespace(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
             0x3000, 0xFEFF:
            true
        default: false
        }
    }

    /// `text.trim()` as JavaScript computes it.
    static func trim(_ text: String) -> String {
        let units = text.utf16
        guard let first = units.firstIndex(where: { !isWhitespace($0) }) else { return "" }
        guard let last = units.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        if first == units.startIndex && units.index(after: last) == units.endIndex { return text }
        return String(text[first...last])
    }

    /// `String(x)` for a finite double: shortest round-trip digits laid out by ECMAScript's
    /// Number::toString rules (`100`, `0.000001`, `1e-7`, `1e+21`).
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
        if value == 0 { return "0" }
        let negative = value < 0
        let swiftText = "\(Swift.abs(value))"
        let parts = swiftText.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let pointIndex = mantissa.firstIndex(of: ".")
        let integerDigits = pointIndex.map { mantissa[..<$0] } ?? mantissa
        let fractionDigits = pointIndex.map { mantissa[mantissa.index(after: $0)...] } ?? ""
        var digits = Array(integerDigits + fractionDigits)
        var pointPosition = integerDigits.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let n = pointPosition
        let s = String(digits)
        var text: String
        if k <= n && n <= 21 {
            text = s + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            text = String(digits[0..<n]) + "." + String(digits[n...])
        } else if -6 < n && n <= 0 {
            text = "0." + String(repeating: "0", count: -n) + s
        } else {
            let e = n - 1
            let sign = e < 0 ? "-" : "+"
            text = k == 1 ? s : String(digits[0]) + "." + String(digits[1...])
            text += "e" + sign + String(Swift.abs(e))
        }
        return negative ? "-" + text : text
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (month 1...12; any day, rolled over
    /// into the following months): ECMA-262's `MakeDay`, from `DayFromYear` and the month
    /// starts of the year. Written from the ECMAScript specification, not shared with the
    /// reference model, so the mock cross-checks the model's own date code.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        dayFromYear(year) + monthStart(month, leap: isLeapYear(year)) + day - 1
    }

    /// The civil date of a day count since 1970-01-01: ECMA-262's `YearFromTime`,
    /// `MonthFromTime` and `DateFromTime`.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        var year = 1970 + Int((Double(days) / 365.2425).rounded(.down))
        while dayFromYear(year) > days { year -= 1 }
        while dayFromYear(year + 1) <= days { year += 1 }
        let dayInYear = days - dayFromYear(year)
        let leap = isLeapYear(year)
        var month = 12
        while monthStart(month, leap: leap) > dayInYear { month -= 1 }
        return (year, month, dayInYear - monthStart(month, leap: leap) + 1)
    }

    /// ECMA-262 `DayFromYear(y)`: the day number of January 1st of `year`.
    static func dayFromYear(_ year: Int) -> Int {
        365 * (year - 1970) + floorDivision(year - 1969, 4) - floorDivision(year - 1901, 100) + floorDivision(year - 1601, 400)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days of the year before the first of `month` (1...12).
    static func monthStart(_ month: Int, leap: Bool) -> Int {
        let starts = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        return starts[month - 1] + (leap && month > 2 ? 1 : 0)
    }

    private static func floorDivision(_ numerator: Int, _ denominator: Int) -> Int {
        let quotient = numerator / denominator
        return numerator % denominator < 0 ? quotient - 1 : quotient
    }

    /// Whether `text` matches `^\d{4}-\d{2}-\d{2}$` (ASCII digits).
    static func isDateOnlyPattern(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 7 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard byte >= 0x30 && byte <= 0x39 else { return false }
            }
        }
        return true
    }

    /// Whether the day of a `YYYY-MM-DD` date (month 01-12) exists in its month (no rollover).
    static func isDayWithinMonth(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard isDateOnlyPattern(text) else { return false }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) } }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        guard (1...12).contains(month) else { return false }
        let length = month == 12 ? 31 : monthStart(month + 1, leap: isLeapYear(year)) - monthStart(month, leap: isLeapYear(year))
        return (1...length).contains(day)
    }

    /// `new Date("YYYY-MM-DD").getTime()` as V8 computes it: the text must match
    /// `^\d{4}-\d{2}-\d{2}$`, the month be 01-12 and the day 01-31; a day past the month's end
    /// rolls over into the next month (2025-02-30 is March 2). `nil` for an Invalid Date.
    static func dateOnlyMilliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400_000
    }

    /// `new Date(ms).toISOString()`: `YYYY-MM-DDTHH:MM:SS.mmmZ` (years 0...9999).
    static func isoString(milliseconds: Int64) -> String {
        let days = Int(milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000)
        let millisecondOfDay = Int(milliseconds - Int64(days) * 86_400_000)
        let (year, month, day) = civilFromDays(days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))Z"
    }

    /// `parseFloat(text)`: leading white space skipped, then the longest prefix that is a
    /// decimal literal (`-1.5e3`, `.5`, `7.`) or `Infinity`, with an optional sign; `nan` when
    /// there is none (`"abc"`, `""`, `"0x10"` is 0). `lat=50.06abc` reads as 50.06.
    static func parseFloat(_ text: String) -> Double {
        parseFloatPrefix(text).value
    }

    /// `parseFloat` with the length of text it consumed after the leading white space, and
    /// whether that white space and any trailing text were absent (the whole text is a number,
    /// as `Number()` would also read it, apart from hexadecimal and empty input).
    static func parseFloatPrefix(_ text: String) -> (value: Double, isWholeText: Bool) {
        let units = Array(text.utf16)
        var index = 0
        while index < units.count && isWhitespace(units[index]) { index += 1 }
        let start = index
        var negative = false
        if index < units.count && (units[index] == 0x2B || units[index] == 0x2D) {
            negative = units[index] == 0x2D
            index += 1
        }
        let infinity = Array("Infinity".utf16)
        if units.count - index >= infinity.count && Array(units[index..<(index + infinity.count)]) == infinity {
            index += infinity.count
            return (negative ? -.infinity : .infinity, start == 0 && index == units.count)
        }
        func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }
        func digits(from position: Int) -> Int {
            var end = position
            while end < units.count && isDigit(units[end]) { end += 1 }
            return end - position
        }
        let integerCount = digits(from: index)
        let integerDigits = String(decoding: units[index..<(index + integerCount)], as: UTF16.self)
        index += integerCount
        var fractionDigits = ""
        if index < units.count && units[index] == 0x2E {
            let count = digits(from: index + 1)
            if integerCount > 0 || count > 0 {
                fractionDigits = String(decoding: units[(index + 1)..<(index + 1 + count)], as: UTF16.self)
                index += 1 + count
            }
        }
        guard integerCount > 0 || !fractionDigits.isEmpty else { return (.nan, false) }
        var exponent = ""
        if index < units.count && (units[index] == 0x65 || units[index] == 0x45) {
            var position = index + 1
            var sign = ""
            if position < units.count && (units[position] == 0x2B || units[position] == 0x2D) {
                sign = units[position] == 0x2D ? "-" : "+"
                position += 1
            }
            let count = digits(from: position)
            if count > 0 {
                exponent = "e" + sign + String(decoding: units[position..<(position + count)], as: UTF16.self)
                index = position + count
            }
        }
        let literal = (negative ? "-" : "") + (integerDigits.isEmpty ? "0" : integerDigits) + "."
            + (fractionDigits.isEmpty ? "0" : fractionDigits) + exponent
        return (Double(literal) ?? .nan, start == 0 && index == units.count)
    }

    /// `decodeURIComponent(text)`, or `nil` where JavaScript throws a `URIError`: a `%` not
    /// followed by two hexadecimal digits, or escapes that do not form UTF-8
    /// (`%E0%A4%A`, `%FF`, an encoded surrogate).
    static func decodeURIComponent(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                output.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else { return nil }
            output.append(high << 4 | low)
            index += 3
        }
        return validUTF8String(output)
    }

    /// The text of `bytes` when they are well-formed UTF-8 (no overlongs, no surrogates, as
    /// JavaScript's decoders require), else `nil`.
    static func validUTF8String(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// The type name zod reports for a JSON value (`Expected string, received null`).
    static func zodTypeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.doubleValue.isNaN ? "nan" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Bytes of `text` decoded as Node's `Buffer.from(text, "base64")`: both the base64 and the
    /// base64url alphabets, every other character skipped, decoding ends at the first `=`, and a
    /// last group of one character is dropped.
    static func lenientBase64Decode(_ text: String) -> [UInt8] {
        var sextets: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextets.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextets.append(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextets.append(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): sextets.append(62)
            case UInt8(ascii: "/"), UInt8(ascii: "_"): sextets.append(63)
            case UInt8(ascii: "="): return decodeSextets(sextets)
            default: continue
            }
        }
        return decodeSextets(sextets)
    }

    private static func decodeSextets(_ sextets: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < sextets.count {
            let group = sextets[index..<min(index + 4, sextets.count)].map(UInt32.init)
            var bits = group.enumerated().reduce(UInt32(0)) { $0 | $1.element << (18 - 6 * UInt32($1.offset)) }
            bits &= 0xFF_FFFF
            bytes.append(UInt8(bits >> 16))
            if group.count > 2 { bytes.append(UInt8(bits >> 8 & 0xFF)) }
            if group.count > 3 { bytes.append(UInt8(bits & 0xFF)) }
            index += 4
        }
        return bytes
    }
}
