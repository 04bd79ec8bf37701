import PetSpotHTTP
import PetSpotJSON

/// Reads request bodies as production's middleware does before any route runs (Express's
/// `express.json({limit: '100kb'})`, i.e. body-parser), and as the photo route reads its
/// multipart body.
///
/// For a JSON body, in order:
/// 1. no body at all (no `Content-Length`, no `Transfer-Encoding`, no bytes), or a Content-Type
///    other than `application/json`: no JSON body (the create route then answers
///    `MISSING_VALUE` without a field);
/// 2. a `charset` parameter that does not start with `utf-`: 500;
/// 3. `Content-Encoding` gzip or deflate is inflated (anything but those and identity: 500 in
///    production, a clear 400 in strict); more than 100 KB (after inflating): 413;
/// 4. the bytes are decoded by the charset (UTF-8, or UTF-16/32 in either byte order);
/// 5. zero bytes read as `{}` (so a `Content-Length: 0` create answers like `{}`);
/// 6. production: a byte order mark is dropped, the first non-space byte must be `{` or `[`,
///    then `JSON.parse` (see ``JavaScriptJSONParser``: any depth, any exponent); strict: the same
///    reading of numbers and depth, but RFC 8259 to the letter (no byte order mark, valid UTF-8,
///    no lone surrogate, no duplicate key, a scalar refused as not an object), every refusal a
///    400.
struct RequestBodyReader {
    /// Largest JSON body accepted (100 KB as Express counts: 102,400 bytes).
    static let maxJSONBodyBytes = 100 * 1024
    /// Largest decoded multipart body: the photo limit plus room for headers and form fields.
    static let maxMultipartBodyBytes = MockBackend.photoSizeLimit + 1024 * 1024
    /// Nesting up to this depth is kept as parsed (deeper containers become empty placeholders
    /// of their type: only their type matters to the create rules).
    static let keptDepth = 64
    /// The nesting a recursive parser gives up at (the `create-deep-json-500` defect).
    static let recursiveParserDepthLimit = 512

    let behaviour: MockBehaviour

    /// Whether the request carries a body, as Node.js's `type-is` decides: a framing header or
    /// bytes (in-process requests may omit the header).
    static func hasBody(_ request: HTTPRequest) -> Bool {
        !request.body.isEmpty || request.headers["Content-Length"] != nil || request.headers["Transfer-Encoding"] != nil
    }

    /// `application/json` with any parameters, case-insensitive (compared byte by byte: this
    /// runs on every request).
    static func isJSONMediaType(_ contentType: String) -> Bool {
        let expected: StaticString = "application/json"
        var bytes = contentType.utf8[...]
        if let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) { bytes = bytes[..<semicolon] }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        guard bytes.count == expected.utf8CodeUnitCount else { return false }
        return expected.withUTF8Buffer { expectedBytes in
            zip(bytes, expectedBytes).allSatisfy { actual, wanted in
                ((0x41...0x5A).contains(actual) ? actual | 0x20 : actual) == wanted
            }
        }
    }

    /// The lower-cased value of a media type parameter (`charset`), unquoted, or `nil`.
    static func parameter(_ name: String, of contentType: String) -> String? {
        guard contentType.utf8.contains(UInt8(ascii: ";")) else { return nil }
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == name else { continue }
            var value = pair[1].trimmingASCIIWhitespace()
            if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.lowercased()
        }
        return nil
    }

    /// The JSON body of `request`, or `nil` when it has none (see the steps above).
    /// - Throws: the ``MockProblem`` production's middleware would answer.
    func jsonBody(of request: HTTPRequest) throws(MockProblem) -> JSONValue? {
        guard RequestBodyReader.hasBody(request), let contentType = request.headers["Content-Type"],
              RequestBodyReader.isJSONMediaType(contentType)
        else { return nil }
        let charset = RequestBodyReader.parameter("charset", of: contentType) ?? "utf-8"
        let ignoresCharset = behaviour.has(.routingCharsetIgnored)
        guard charset.hasPrefix("utf-") || ignoresCharset else { throw .unsupportedCharset(charset) }
        var bytes: [UInt8]
        do {
            bytes = try decodedBody(of: request, limit: RequestBodyReader.maxJSONBodyBytes)
        } catch .payloadTooLarge where behaviour.has(.createBodyLimit500) {
            throw .internalFailure("the body size error is not mapped")
        }
        if !ignoresCharset {
            guard let transcoded = RequestBodyReader.utf8(bytes, charset: charset) else { throw .unsupportedCharset(charset) }
            bytes = transcoded
        }
        if bytes.isEmpty { return .object(JSONObject()) }
        return try parse(bytes)
    }

    /// The most body bytes any route reads of a request, judged from its head (see
    /// ``MockBackend/maxBodyBytes(forHead:)``): the multipart limit for a multipart body with a
    /// boundary, 100 KB for any other body; `nil` for a gzip or deflate body, whose size counts
    /// after inflating (it is read whole, up to the HTTP layer's limit).
    ///
    /// A body over this limit changes no answer if it is not read: a JSON body is refused 413
    /// (``decodedBody(of:limit:)`` on ``HTTPRequest/isBodyOverLimit``, after the checks that come
    /// before reading), a multipart body likewise on the photo route, and no route reads any
    /// other body (nor one in an unknown coding, which is refused unread).
    func maxBodyBytes(forHead head: HTTPRequest) -> Int? {
        if !behaviour.has(.routingGzipIgnored), let coding = ContentCoding(headerValue: head.headers["Content-Encoding"]),
           coding != .identity
        {
            return nil
        }
        if let contentType = head.headers["Content-Type"], !RequestBodyReader.isJSONMediaType(contentType),
           MultipartFormData.boundary(contentType: contentType) != nil
        {
            return RequestBodyReader.maxMultipartBodyBytes
        }
        return RequestBodyReader.maxJSONBodyBytes
    }

    /// The body with its `Content-Encoding` undone.
    /// - Throws: ``MockProblem/payloadTooLarge`` past `limit` (or when the HTTP layer left a body
    ///   over ``maxBodyBytes(forHead:)`` unread), or the coding's problem.
    func decodedBody(of request: HTTPRequest, limit: Int) throws(MockProblem) -> [UInt8] {
        let header = request.headers["Content-Encoding"]
        let coding: ContentCoding
        if behaviour.has(.routingGzipIgnored) {
            coding = .identity
        } else {
            guard let named = ContentCoding(headerValue: header) else { throw .unsupportedContentEncoding(header ?? "") }
            coding = named
        }
        if request.isBodyOverLimit { throw .payloadTooLarge }
        do {
            return try coding.decode(request.body, maxOutputBytes: limit)
        } catch {
            switch error {
            case .tooLarge: throw .payloadTooLarge
            case .corrupt(let reason): throw .corruptContentEncoding("\(coding.rawValue): \(reason)")
            }
        }
    }

    /// `bytes` in the charset re-encoded as UTF-8 (a byte order mark is dropped, unpaired or
    /// invalid sequences become U+FFFD, as iconv-lite decodes), or `nil` for a charset this
    /// reader does not decode.
    static func utf8(_ bytes: [UInt8], charset: String) -> [UInt8]? {
        switch charset {
        case "utf-8":
            return bytes
        case "utf-16", "utf-16le", "utf-16be":
            var bigEndian = charset == "utf-16be"
            var body = bytes[...]
            if charset == "utf-16", bytes.count >= 2 {
                if bytes[0] == 0xFE && bytes[1] == 0xFF {
                    bigEndian = true
                } else if !(bytes[0] == 0xFF && bytes[1] == 0xFE) {
                    // No byte order mark: ASCII text has its zero byte first in big-endian order.
                    bigEndian = bytes[0] == 0 && bytes[1] != 0
                }
            }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            while body.count >= 2 {
                let first = UInt16(body[body.startIndex]), second = UInt16(body[body.startIndex + 1])
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
                body = body.dropFirst(2)
            }
            var text = String(decoding: units, as: UTF16.self)
            if !body.isEmpty { text.append("\u{FFFD}") }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            return Array(text.utf8)
        case "utf-32", "utf-32le", "utf-32be":
            var bigEndian = charset == "utf-32be"
            if charset == "utf-32", bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 0xFE, bytes[3] == 0xFF { bigEndian = true }
            var scalars = String.UnicodeScalarView()
            var index = 0
            while index + 4 <= bytes.count {
                let word = (0..<4).reduce(UInt32(0)) { value, offset in
                    value | UInt32(bytes[index + offset]) << (bigEndian ? UInt32(24 - 8 * offset) : UInt32(8 * offset))
                }
                scalars.append(Unicode.Scalar(word) ?? "\u{FFFD}")
                index += 4
            }
            var text = String(scalars)
            if index < bytes.count { text.append("\u{FFFD}") }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            return Array(text.utf8)
        default:
            return nil
        }
    }

    /// Parses a non-empty JSON body by the profile's rules.
    private func parse(_ bytes: [UInt8]) throws(MockProblem) -> JSONValue {
        if behaviour.isProduction {
            var text = bytes[...]
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
            let first = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
                throw .bodyNotJSON("the body does not start with { or [")
            }
            let document = Array(text)
            if let value = try? JSONValue.parse(document, options: JSONParseOptions(maxDepth: RequestBodyReader.keptDepth,
                                                                                    duplicateKeys: .keepLast)) {
                return value
            }
            // What the fast parser refused: decode invalid UTF-8 as iconv-lite does, then
            // JSON.parse's own rules (any depth, any exponent).
            let repaired = JavaScript.validUTF8String(document) == nil ? Array(String(decoding: document, as: UTF8.self).utf8) : document
            return try fallback(repaired, options: JavaScriptJSONParser.Options(
                duplicateKeys: .keepLast, keptDepth: RequestBodyReader.keptDepth, rejectsLoneSurrogates: false))
        }
        if let value = try? JSONValue.parse(bytes, options: JSONParseOptions(maxDepth: RequestBodyReader.keptDepth,
                                                                             duplicateKeys: .reject)) {
            return value
        }
        return try fallback(bytes, options: JavaScriptJSONParser.Options(
            duplicateKeys: .reject, keptDepth: RequestBodyReader.keptDepth, rejectsLoneSurrogates: true))
    }

    private func fallback(_ bytes: [UInt8], options: JavaScriptJSONParser.Options) throws(MockProblem) -> JSONValue {
        let outcome: JavaScriptJSONParser.Outcome
        do {
            outcome = try JavaScriptJSONParser.parse(bytes, options: options)
        } catch {
            throw .bodyNotJSON(error.description)
        }
        if behaviour.has(.createDeepJSON500) && outcome.deepestNesting > RequestBodyReader.recursiveParserDepthLimit {
            throw .internalFailure("maximum call stack size exceeded")
        }
        if behaviour.has(.createHugeExponent500) && outcome.hasOutOfRangeExponent {
            throw .internalFailure("number out of range")
        }
        return outcome.value
    }
}
