import PetSpotJSON
import PetSpotRegex

/// The `format` values this validator can assert; any other name stays an annotation.
enum StringFormat: String, Sendable {
    case date, time, duration, email, hostname, ipv4, ipv6, uri, iri, uuid, regex
    case dateTime = "date-time"
    case idnEmail = "idn-email"
    case uriReference = "uri-reference"
    case iriReference = "iri-reference"
    case jsonPointer = "json-pointer"
    case relativeJSONPointer = "relative-json-pointer"
    case uriTemplate = "uri-template"

    /// Whether `value` conforms; values of other types than string always do.
    func accepts(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value else { return true }
        switch self {
        case .date: return FormatCheck.isDate(Array(text.utf8)[...])
        case .time: return FormatCheck.isTime(Array(text.utf8)[...])
        case .dateTime: return FormatCheck.isDateTime(Array(text.utf8))
        case .duration: return FormatCheck.isDuration(text)
        case .email: return FormatCheck.isEmail(text, international: false)
        case .idnEmail: return FormatCheck.isEmail(text, international: true)
        case .hostname: return FormatCheck.isHostname(text)
        case .ipv4: return FormatCheck.isIPv4(Array(text.utf8)[...])
        case .ipv6: return FormatCheck.isIPv6(text)
        case .uri: return FormatCheck.isURI(text, requireScheme: true, international: false)
        case .uriReference: return FormatCheck.isURI(text, requireScheme: false, international: false)
        case .iri: return FormatCheck.isURI(text, requireScheme: true, international: true)
        case .iriReference: return FormatCheck.isURI(text, requireScheme: false, international: true)
        case .uuid: return FormatCheck.isUUID(Array(text.utf8))
        case .regex: return (try? RegexPattern(text)) != nil
        case .jsonPointer: return FormatCheck.isJSONPointer(Array(text.utf8)[...])
        case .relativeJSONPointer: return FormatCheck.isRelativeJSONPointer(Array(text.utf8))
        case .uriTemplate: return FormatCheck.isURITemplate(text)
        }
    }
}

/// The format checkers, on UTF-8 bytes where the grammar is ASCII.
enum FormatCheck {
    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// RFC 3339 full-date.
    static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 10 else { return false }
        let start = bytes.startIndex
        guard bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = digits(bytes[start..<start + 4]), let month = digits(bytes[start + 5..<start + 7]),
            let day = digits(bytes[start + 8..<start + 10])
        else { return false }
        let lengths = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return month >= 1 && month <= 12 && day >= 1 && day <= lengths[month - 1]
    }

    /// RFC 3339 full-time (offset required; leap second only at 23:59:60 UTC).
    static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 9 else { return false }
        let start = bytes.startIndex
        guard bytes[start + 2] == UInt8(ascii: ":"), bytes[start + 5] == UInt8(ascii: ":"),
            let hour = digits(bytes[start..<start + 2]), let minute = digits(bytes[start + 3..<start + 5]),
            let second = digits(bytes[start + 6..<start + 8])
        else { return false }
        var index = start + 8
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            if index == fractionStart { return false }
        }
        guard index < bytes.endIndex else { return false }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.endIndex else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.endIndex - index == 6, bytes[index + 3] == UInt8(ascii: ":"),
                let offsetHour = digits(bytes[index + 1..<index + 3]), let offsetMinute = digits(bytes[index + 4..<index + 6]),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return false
        }
        guard hour <= 23, minute <= 59, second <= 60 else { return false }
        if second == 60 {
            let utcMinutes = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utcMinutes == 23 * 60 + 59
        }
        return true
    }

    static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        return isDate(bytes[0..<10]) && isTime(bytes[11...])
    }

    /// The RFC 3339 appendix A duration grammar. It has no backreferences or lookarounds, so
    /// the linear matcher decides every text.
    static let duration: RegexPattern = {
        let time = #"T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"#
        let date = #"(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)"#
        // The literal is a fixed, valid pattern: the parse cannot fail on it.
        return try! RegexPattern("^P(?:\(date)(?:\(time))?|\(time)|[0-9]+W)$")
    }()

    static func isDuration(_ text: String) -> Bool {
        (try? duration.matches(text)) == true
    }

    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard part.count <= 3, let value = digits(part), value <= 255 else { return false }
            if part.count > 1 && part.first == UInt8(ascii: "0") { return false }
        }
        return true
    }

    static func isIPv6(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 45 else { return false }
        var groups = 0
        var compressed = false
        var index = 0
        if bytes.starts(with: [0x3A, 0x3A]) {
            compressed = true
            index = 2
            if index == bytes.count { return true }
        } else if bytes[0] == 0x3A {
            return false
        }
        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] != 0x3A { end += 1 }
            let group = bytes[index..<end]
            if end == bytes.count, group.contains(UInt8(ascii: ".")) {
                guard isIPv4(group) else { return false }
                groups += 2
                break
            }
            guard !group.isEmpty, group.count <= 4, group.allSatisfy({ URIText.hexValue($0) != nil }) else { return false }
            groups += 1
            if end == bytes.count { break }
            // At a ':'.
            if end + 1 < bytes.count, bytes[end + 1] == 0x3A {
                if compressed { return false }
                compressed = true
                index = end + 2
                if index == bytes.count { break }
            } else {
                index = end + 1
                if index == bytes.count { return false }
            }
        }
        return compressed ? groups < 8 : groups == 8
    }

    static func isHostname(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.count <= 63, label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            for byte in label {
                let isAlphanumeric = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                guard isAlphanumeric || byte == UInt8(ascii: "-") else { return false }
            }
            let start = label.startIndex
            if label.count >= 4, label[start + 2] == UInt8(ascii: "-"), label[start + 3] == UInt8(ascii: "-"),
                !(label[start] | 0x20 == UInt8(ascii: "x") && label[start + 1] | 0x20 == UInt8(ascii: "n"))
            {
                return false
            }
        }
        return true
    }

    static func isEmail(_ text: String, international: Bool) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty else { return false }
        if local.hasPrefix("\"") {
            guard local.count >= 2, local.hasSuffix("\"") else { return false }
            var escaped = false
            for scalar in local.unicodeScalars.dropFirst().dropLast() {
                if escaped { escaped = false; continue }
                if scalar == "\\" { escaped = true; continue }
                if scalar == "\"" || scalar.value < 0x20 || scalar.value == 0x7F { return false }
                if !international && !scalar.isASCII { return false }
            }
            if escaped { return false }
        } else {
            let atext = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)
            guard !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return false }
            for scalar in local.unicodeScalars {
                let allowed = (scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal))
                    || atext.contains(scalar) || scalar == "." || (international && !scalar.isASCII)
                guard allowed else { return false }
            }
        }
        if domain.hasPrefix("[") {
            guard domain.hasSuffix("]") else { return false }
            let literal = domain.dropFirst().dropLast()
            if literal.hasPrefix("IPv6:") { return isIPv6(String(literal.dropFirst(5))) }
            return isIPv4(Array(literal.utf8)[...])
        }
        if international { return !domain.unicodeScalars.contains { $0.value < 0x21 || $0 == "@" } && !domain.hasPrefix(".") && !domain.hasSuffix(".") }
        return isHostname(String(domain))
    }

    static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if URIText.hexValue(byte) == nil {
                return false
            }
        }
        return true
    }

    static func isJSONPointer(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.isEmpty { return true }
        guard bytes.first == UInt8(ascii: "/") else { return false }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1") else { return false }
                index += 1
            }
            index += 1
        }
        return true
    }

    static func isRelativeJSONPointer(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        guard index > 0, !(index > 1 && bytes[0] == UInt8(ascii: "0")) else { return false }
        if index == bytes.count { return true }
        if bytes[index] == UInt8(ascii: "#") { return index + 1 == bytes.count }
        return isJSONPointer(bytes[index...])
    }

    /// RFC 3986 URI / URI-reference (RFC 3987 IRI when `international`).
    static func isURI(_ text: String, requireScheme: Bool, international: Bool) -> Bool {
        let unreservedOrSubDelims = Set("-._~!$&'()*+,;=:@/?".unicodeScalars)
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                guard index + 2 < scalars.count, scalars[index + 1].isASCII, scalars[index + 2].isASCII,
                    URIText.hexValue(UInt8(scalars[index + 1].value)) != nil, URIText.hexValue(UInt8(scalars[index + 2].value)) != nil
                else { return false }
                index += 3
                continue
            }
            let ok = (scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal))
                || unreservedOrSubDelims.contains(scalar) || scalar == "#" || scalar == "[" || scalar == "]"
                || (international && !scalar.isASCII && !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control)
            guard ok else { return false }
            index += 1
        }
        let reference = URIReference(text)
        if requireScheme && reference.scheme == nil { return false }
        if reference.fragment?.contains("#") == true { return false }
        if reference.scheme == nil, let firstSegment = reference.path.split(separator: "/", omittingEmptySubsequences: false).first,
            reference.authority == nil, firstSegment.contains(":")
        {
            return false
        }
        if let authority = reference.authority {
            var host = Substring(authority)
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { return false }
                let literal = host[host.index(after: host.startIndex)..<close]
                if !isIPv6(String(literal)) && !literal.hasPrefix("v") { return false }
                host = host[host.index(after: close)...]
                if !host.isEmpty {
                    guard host.hasPrefix(":") else { return false }
                }
            } else if host.contains("[") || host.contains("]") {
                return false
            }
            if let colon = host.lastIndex(of: ":") {
                let port = host[host.index(after: colon)...]
                guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            }
        } else if text.contains("[") || text.contains("]") {
            return false
        }
        if reference.path.contains("[") || reference.path.contains("]") || (reference.query?.contains("[") ?? false) { return false }
        return true
    }

    static func isURITemplate(_ text: String) -> Bool {
        var open = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "{": if open { return false } else { open = true }
            case "}": if !open { return false } else { open = false }
            default: break
            }
        }
        return !open
    }
}
