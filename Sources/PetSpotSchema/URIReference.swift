import Foundation

/// An RFC 3986 URI reference split into its five parts, with reference resolution (§5.2).
///
/// Foundation's `URL` differs between platforms on `urn:` and `tag:` URIs and on empty fragments,
/// so schema identifiers are resolved here, on plain strings.
struct URIReference: Equatable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits a reference with the grammar of RFC 3986 appendix B (never fails).
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"),
            let first = rest.first, first.isASCII, first.isLetter,
            rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// The reference written back (RFC 3986 §5.3).
    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// This reference resolved against `base` (RFC 3986 §5.2.2, strict).
    func resolved(against base: URIReference) -> URIReference {
        if scheme != nil {
            return URIReference(scheme: scheme, authority: authority, path: Self.removeDotSegments(path), query: query, fragment: fragment)
        }
        if authority != nil {
            return URIReference(scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path), query: query, fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query, fragment: fragment)
        }
        let mergedPath: String
        if path.hasPrefix("/") {
            mergedPath = path
        } else if base.authority != nil && base.path.isEmpty {
            mergedPath = "/" + path
        } else if let slash = base.path.lastIndex(of: "/") {
            mergedPath = String(base.path[...slash]) + path
        } else {
            mergedPath = path
        }
        return URIReference(scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(mergedPath), query: query, fragment: fragment)
    }

    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        var result = ""
        while !input.isEmpty {
            if input.hasPrefix("../") { input = input.dropFirst(3) }
            else if input.hasPrefix("./") { input = input.dropFirst(2) }
            else if input.hasPrefix("/./") { input = input.dropFirst(2) }
            else if input == "/." { input = "/" }
            else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.startIndex
                let searchFrom = input.hasPrefix("/") ? input.index(after: start) : start
                let end = input[searchFrom...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[start..<end])
                input = input[end...]
            }
        }
        for segment in output { result += segment }
        return result
    }
}

/// URI helpers used by the compiler: resolution, fragment splitting, JSON Pointer tokens.
enum URIText {
    /// `reference` resolved against `base`, as text.
    static func resolve(_ reference: String, against base: String) -> String {
        if base.isEmpty { return URIReference(reference).text }
        return URIReference(reference).resolved(against: URIReference(base)).text
    }

    /// The URI without its fragment, and the fragment (percent-decoded; `""` when absent).
    static func splitFragment(_ uri: String) -> (base: String, fragment: String) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, "") }
        let fragment = String(uri[uri.index(after: hash)...])
        return (String(uri[..<hash]), percentDecoded(fragment))
    }

    /// `text` with `%XX` escapes decoded (invalid escapes are kept as written).
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
                let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The tokens of a JSON Pointer (`/a~1b/0` → `["a/b", "0"]`); `nil` if it does not start with `/`.
    static func pointerTokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// One JSON Pointer token escaped (`~` → `~0`, `/` → `~1`).
    static func escapePointerToken(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// A JSON Pointer from tokens.
    static func pointer(_ tokens: [String]) -> String {
        var result = ""
        for token in tokens { result += "/" + escapePointerToken(token) }
        return result
    }
}
