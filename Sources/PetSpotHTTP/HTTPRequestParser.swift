/// Why bytes on a connection are not an acceptable HTTP/1.1 request, with the status to answer.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status code to answer with (400, 408, 413, 431, 505, ...).
    public let status: Int
    /// What was wrong, naming the offending part.
    public let reason: String

    /// An error answered with `status`.
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status): \(reason)" }
}

/// Size limits the request parser enforces.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Largest request line plus header section, in bytes (beyond: 431).
    public var maxHeaderBytes: Int
    /// Largest body, in bytes, after de-chunking (beyond: 413).
    public var maxBodyBytes: Int

    /// Limits; defaults are 16 KiB of header and 25 MiB of body.
    public init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 25 * 1024 * 1024) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }
}

/// An incremental HTTP/1.1 request parser over the bytes of one connection.
///
/// Feed it bytes with ``append(_:)``, then call ``nextRequest()`` until it says `.incomplete`.
/// It handles pipelining, `Content-Length` and chunked bodies, and refuses anything ambiguous
/// (both framings, differing lengths, bare LF, folded headers, non-UTF-8 header text) with an
/// ``HTTPParseError``. Work is linear in the bytes received (the scans resume where they stopped).
///
/// With a `bodyLimit` hook, a request whose body is announced over the limit the hook sets (or
/// whose chunked body grows past it) is returned without its body, flagged
/// ``HTTPRequest/isBodyOverLimit``: at once, or with `readsBodyOverLimitToLimit` once that many
/// body bytes have arrived (counted and dropped, never held). The parser is then spent: it
/// ignores what follows.
package struct HTTPRequestParser: Sendable {
    /// What ``nextRequest()`` found.
    package enum Outcome {
        /// More bytes are needed.
        case incomplete
        /// One complete request, removed from the buffer.
        case request(HTTPRequest)
        /// The bytes are not a valid request; answer the status and close.
        case failure(HTTPParseError)
    }

    private struct Head {
        var method: String
        var target: String
        var headers: HTTPHeaders
        var minorVersion: Int
        var bodyStart: Int
        var contentLength: Int?
        var chunked: Bool
        /// The most body bytes read (the per-request limit when one is set, else ``limits``).
        var maxBodyBytes = 0
        /// Whether a body over `maxBodyBytes` is handed over unread rather than answered 413.
        var handsOverUnread = false
    }

    private struct ChunkState {
        /// Offset in `buffer` of the next unread chunk-size line (or trailer line).
        var cursor: Int
        var body: [UInt8] = []
        var readingTrailers = false
        var trailerBytes = 0
    }

    package let limits: HTTPParserLimits
    private let bodyLimit: (@Sendable (HTTPRequest) -> Int?)?
    private let minimumBodyLimit: Int
    private let readsBodyOverLimitToLimit: Bool
    /// A body announced over its limit, dropped as it arrives: its head and the bytes still due up to the limit.
    private var discarding: (head: Head, remaining: Int)?
    /// A request was handed over without its body: nothing after it is read.
    private var isSpent = false
    private var buffer: [UInt8] = []
    private var scanOffset = 0
    private var head: Head?
    private var chunkState: ChunkState?
    /// Set once when a parsed head asked for `Expect: 100-continue` and its body is still due.
    package private(set) var continueRequested = false

    /// A parser enforcing `limits`, and the per-request body limit of `bodyLimit` when given,
    /// asked about chunked bodies and bodies announced over `minimumBodyLimit` (see
    /// ``HTTPServer/Configuration/bodyLimit`` and ``HTTPServer/Configuration/readsBodyOverLimitToLimit``).
    package init(limits: HTTPParserLimits, bodyLimit: (@Sendable (HTTPRequest) -> Int?)? = nil, minimumBodyLimit: Int = 0,
                 readsBodyOverLimitToLimit: Bool = false) {
        self.limits = limits
        self.bodyLimit = bodyLimit
        self.minimumBodyLimit = minimumBodyLimit
        self.readsBodyOverLimitToLimit = readsBodyOverLimitToLimit
    }

    /// Whether bytes of an unfinished request are buffered (or being dropped).
    package var hasPartialRequest: Bool { !buffer.isEmpty || discarding != nil }

    /// Whether the buffered request's header section is complete and its body is still due.
    package var isReceivingBody: Bool { head != nil || discarding != nil }

    /// Adds received bytes.
    package mutating func append(_ bytes: [UInt8]) {
        append(bytes[...])
    }

    /// Adds received bytes: the filled part of a receive buffer.
    package mutating func append(_ bytes: ArraySlice<UInt8>) {
        if let due = discarding?.remaining {
            discarding?.remaining = max(0, due - bytes.count)
        } else if !isSpent {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Clears the 100-continue request after the server answered it.
    package mutating func acknowledgeContinue() { continueRequested = false }

    /// Hands the buffered request over to a caller that reads its body itself, straight from the
    /// connection into one buffer: the request without its body, its announced `Content-Length`,
    /// and the body bytes already received (at most that length). `nil` unless a header section
    /// is parsed and its `Content-Length` body is still due (a chunked body is decoded here). The
    /// parser is spent afterwards.
    package mutating func handOverForBodyRead() -> (request: HTTPRequest, length: Int, received: [UInt8])? {
        guard let current = head, !current.chunked, let length = current.contentLength else { return nil }
        let received = Array(buffer[current.bodyStart..<min(buffer.count, current.bodyStart + length)])
        isSpent = true
        buffer = []
        scanOffset = 0
        head = nil
        continueRequested = false
        return (HTTPRequest(method: current.method, target: current.target, headers: current.headers,
                            minorVersion: current.minorVersion), length, received)
    }

    /// The next complete request, `.incomplete`, or a failure (after which the parser is spent).
    package mutating func nextRequest() -> Outcome {
        if isSpent { return .incomplete }
        if let discarding { return discarding.remaining > 0 ? .incomplete : .request(handOverUnread(discarding.head)) }
        do throws(HTTPParseError) {
            if head == nil {
                guard var parsed = try parseHead() else { return .incomplete }
                if try !admitsBody(of: &parsed) {
                    // A client waiting for `100 Continue` sends nothing more: answer it now.
                    guard readsBodyOverLimitToLimit && parsed.headers["Expect"] == nil else { return .request(handOverUnread(parsed)) }
                    discarding = (parsed, max(0, parsed.maxBodyBytes - (buffer.count - parsed.bodyStart)))
                    buffer = []
                    scanOffset = 0
                    return nextRequest()
                }
                head = parsed
                if parsed.chunked { chunkState = ChunkState(cursor: parsed.bodyStart) }
                if let expectation = parsed.headers["Expect"] {
                    guard expectation.lowercased() == "100-continue" else {
                        throw HTTPParseError(status: 417, reason: "unsupported Expect value")
                    }
                    continueRequested = true
                }
            }
            guard let current = head else { return .incomplete }
            let body: [UInt8]
            let consumed: Int
            if current.chunked {
                let decoded: ([UInt8], Int)?
                do throws(HTTPParseError) {
                    decoded = try decodeChunks(limit: current.maxBodyBytes)
                } catch {
                    if error.status == 413 && current.handsOverUnread { return .request(handOverUnread(current)) }
                    throw error
                }
                guard let decoded else { return .incomplete }
                (body, consumed) = decoded
            } else {
                let length = current.contentLength ?? 0
                guard buffer.count - current.bodyStart >= length else { return .incomplete }
                body = Array(buffer[current.bodyStart..<(current.bodyStart + length)])
                consumed = current.bodyStart + length
            }
            buffer.removeSubrange(0..<consumed)
            scanOffset = 0
            head = nil
            chunkState = nil
            continueRequested = false
            checkInvariants()
            return .request(HTTPRequest(method: current.method, target: current.target, headers: current.headers,
                                        body: body, minorVersion: current.minorVersion))
        } catch {
            buffer.removeAll()
            return .failure(error)
        }
    }

    /// Sets the head's body limit; `false` when its announced body is over a per-request limit.
    /// - Throws: 413 when the body is announced over ``limits`` and no per-request limit is set.
    private func admitsBody(of head: inout Head) throws(HTTPParseError) -> Bool {
        head.maxBodyBytes = limits.maxBodyBytes
        if let bodyLimit, head.chunked || head.contentLength ?? 0 > max(0, minimumBodyLimit),
           let limit = bodyLimit(HTTPRequest(method: head.method, target: head.target, headers: head.headers,
                                             minorVersion: head.minorVersion))
        {
            head.maxBodyBytes = min(max(0, limit), limits.maxBodyBytes)
            head.handsOverUnread = true
        }
        guard let length = head.contentLength, length > head.maxBodyBytes else { return true }
        if head.handsOverUnread { return false }
        throw HTTPParseError(status: 413, reason: "body of \(length) bytes exceeds the limit of \(head.maxBodyBytes)")
    }

    /// The request of `head` without its body, flagged; the parser is spent afterwards.
    private mutating func handOverUnread(_ head: Head) -> HTTPRequest {
        isSpent = true
        discarding = nil
        buffer = []
        scanOffset = 0
        self.head = nil
        chunkState = nil
        continueRequested = false
        var request = HTTPRequest(method: head.method, target: head.target, headers: head.headers,
                                  minorVersion: head.minorVersion)
        request.isBodyOverLimit = true
        return request
    }

    private func checkInvariants() {
        assert(scanOffset <= buffer.count, "scan offset beyond the buffer")
        assert(head != nil || chunkState == nil, "chunk state without a head")
    }

    // MARK: Head

    private mutating func parseHead() throws(HTTPParseError) -> Head? {
        // Skip empty lines before a request line (RFC 9112 §2.2 allows at least one CRLF).
        while buffer.count >= 2 && buffer[0] == 0x0D && buffer[1] == 0x0A {
            buffer.removeSubrange(0..<2)
            scanOffset = 0
        }
        var end: Int? = nil
        var index = max(scanOffset, 0)
        while index < buffer.count {
            let byte = buffer[index]
            if byte == 0x0A {
                guard index > 0, buffer[index - 1] == 0x0D else {
                    throw HTTPParseError(status: 400, reason: "bare LF at byte \(index) (lines must end in CRLF)")
                }
                if index >= 3 && buffer[index - 2] == 0x0A && buffer[index - 3] == 0x0D {
                    end = index + 1
                    break
                }
            }
            index += 1
        }
        guard let headerEnd = end else {
            // Leave the last byte for rescanning: it may be the CR of a CRLF split across reads.
            scanOffset = max(0, buffer.count - 3)
            if buffer.count > limits.maxHeaderBytes {
                throw HTTPParseError(status: 431, reason: "header section larger than \(limits.maxHeaderBytes) bytes")
            }
            return nil
        }
        if headerEnd > limits.maxHeaderBytes {
            throw HTTPParseError(status: 431, reason: "header section larger than \(limits.maxHeaderBytes) bytes")
        }
        return try parseHeadBytes(upTo: headerEnd)
    }

    private func parseHeadBytes(upTo headerEnd: Int) throws(HTTPParseError) -> Head {
        var lines: [Range<Int>] = []
        var lineStart = 0
        var index = 0
        while index < headerEnd - 2 {
            if buffer[index] == 0x0D {
                guard buffer[index + 1] == 0x0A else {
                    throw HTTPParseError(status: 400, reason: "bare CR at byte \(index)")
                }
                lines.append(lineStart..<index)
                lineStart = index + 2
                index += 2
            } else {
                index += 1
            }
        }
        guard let requestLine = lines.first else { throw HTTPParseError(status: 400, reason: "empty request") }
        let (method, target, minorVersion) = try parseRequestLine(requestLine)
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            headers.add(contentsOf: try parseHeaderLine(line))
        }
        var contentLength: Int? = nil
        var chunked = false
        let transferEncodings = headers.values(for: "Transfer-Encoding")
        let contentLengths = headers.values(for: "Content-Length")
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else {
                throw HTTPParseError(status: 400, reason: "both Transfer-Encoding and Content-Length")
            }
            guard minorVersion == 1 else {
                throw HTTPParseError(status: 400, reason: "Transfer-Encoding in an HTTP/1.0 request")
            }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: " \t").lowercased() }
            guard codings == ["chunked"] else {
                throw HTTPParseError(status: 400, reason: "unsupported Transfer-Encoding '\(transferEncodings.joined(separator: ", "))'")
            }
            chunked = true
        } else if !contentLengths.isEmpty {
            let values = contentLengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { $0.trimmingCharacters(in: " \t") }
            var length: Int? = nil
            for value in values {
                guard !value.isEmpty, value.utf8.count <= 15, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let parsed = Int(value)
                else {
                    throw HTTPParseError(status: 400, reason: "invalid Content-Length '\(value)'")
                }
                if let length, length != parsed {
                    throw HTTPParseError(status: 400, reason: "conflicting Content-Length values")
                }
                length = parsed
            }
            contentLength = length
        }
        if minorVersion == 1 && headers.values(for: "Host").count != 1 {
            throw HTTPParseError(status: 400, reason: "an HTTP/1.1 request needs exactly one Host header")
        }
        return Head(method: method, target: target, headers: headers, minorVersion: minorVersion,
                    bodyStart: headerEnd, contentLength: contentLength, chunked: chunked)
    }

    private func parseRequestLine(_ range: Range<Int>) throws(HTTPParseError) -> (String, String, Int) {
        let line = buffer[range]
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw HTTPParseError(status: 400, reason: "malformed request line (expected 'METHOD target HTTP/1.1')")
        }
        let methodBytes = parts[0], targetBytes = parts[1], versionBytes = parts[2]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(HTTPRequestParser.isTokenByte) else {
            throw HTTPParseError(status: 400, reason: "invalid method token")
        }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPParseError(status: 400, reason: "invalid request target (bytes 0x21-0x7E only)")
        }
        guard targetBytes.first == UInt8(ascii: "/") || targetBytes.elementsEqual("*".utf8) else {
            throw HTTPParseError(status: 400, reason: "request target must be a path starting with '/'")
        }
        let version = Array(versionBytes)
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: "."),
              (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7])
        else {
            throw HTTPParseError(status: 400, reason: "invalid HTTP version")
        }
        guard version[5] == UInt8(ascii: "1") else {
            throw HTTPParseError(status: 505, reason: "HTTP version not supported (1.0 and 1.1 only)")
        }
        let minor = version[7] == UInt8(ascii: "0") ? 0 : 1
        return (String(decoding: methodBytes, as: UTF8.self), String(decoding: targetBytes, as: UTF8.self), minor)
    }

    private func parseHeaderLine(_ range: Range<Int>) throws(HTTPParseError) -> HTTPHeaders.Field {
        let line = buffer[range]
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw HTTPParseError(status: 400, reason: "folded or empty header line at byte \(range.lowerBound)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw HTTPParseError(status: 400, reason: "header line without ':' at byte \(range.lowerBound)")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(HTTPRequestParser.isTokenByte) else {
            throw HTTPParseError(status: 400, reason: "invalid header name at byte \(range.lowerBound)")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        for (offset, byte) in zip(value.indices, value) where byte < 0x20 && byte != 0x09 || byte == 0x7F {
            throw HTTPParseError(status: 400, reason: "control character in header value at byte \(offset)")
        }
        guard let text = String(validating: value, as: UTF8.self) else {
            throw HTTPParseError(status: 400, reason: "header value is not UTF-8 at byte \(value.startIndex)")
        }
        return (name: String(decoding: name, as: UTF8.self), value: text)
    }

    /// RFC 9110 `tchar`: a byte of a method, header name or other token.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    // MARK: Chunked bodies

    /// Decodes the buffered chunks; the body and the bytes consumed once the last chunk and trailers are in.
    private mutating func decodeChunks(limit: Int) throws(HTTPParseError) -> ([UInt8], Int)? {
        guard var state = chunkState else { return nil }
        defer { chunkState = state }
        while true {
            guard let lineEnd = findCRLF(from: state.cursor) else {
                if buffer.count - state.cursor > 4096 {
                    throw HTTPParseError(status: 400, reason: "chunk-size or trailer line too long")
                }
                return nil
            }
            let line = buffer[state.cursor..<lineEnd]
            if state.readingTrailers {
                if line.isEmpty {
                    return (state.body, lineEnd + 2)
                }
                state.trailerBytes += line.count + 2
                if state.trailerBytes > limits.maxHeaderBytes {
                    throw HTTPParseError(status: 431, reason: "chunked trailers larger than \(limits.maxHeaderBytes) bytes")
                }
                _ = try parseHeaderLine(state.cursor..<lineEnd)
                state.cursor = lineEnd + 2
                continue
            }
            guard let size = ChunkSize.value(ofHexDigits: line.prefix { $0 != UInt8(ascii: ";") }) else {
                throw HTTPParseError(status: 400, reason: "invalid chunk size at byte \(state.cursor)")
            }
            if size == 0 {
                state.readingTrailers = true
                state.cursor = lineEnd + 2
                continue
            }
            if state.body.count + size > limit {
                throw HTTPParseError(status: 413, reason: "chunked body exceeds the limit of \(limit) bytes")
            }
            let dataStart = lineEnd + 2
            guard buffer.count >= dataStart + size + 2 else { return nil }
            guard buffer[dataStart + size] == 0x0D, buffer[dataStart + size + 1] == 0x0A else {
                throw HTTPParseError(status: 400, reason: "chunk data not followed by CRLF at byte \(dataStart + size)")
            }
            state.body.append(contentsOf: buffer[dataStart..<(dataStart + size)])
            state.cursor = dataStart + size + 2
            // Decoded bytes are kept once: drop their raw form (and the head) from the buffer.
            if state.cursor >= 64 * 1024 {
                buffer.removeSubrange(0..<state.cursor)
                state.cursor = 0
            }
        }
    }

    private func findCRLF(from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 0x0D && buffer[index + 1] == 0x0A { return index }
            index += 1
        }
        return nil
    }
}

extension HTTPHeaders {
    fileprivate mutating func add(contentsOf field: Field) { add(field.name, field.value) }
}

extension HTTPRequest {
    /// Whether the connection stays open after this request: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsConnectionAlive: Bool {
        let tokens = headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t").lowercased() }
        if minorVersion == 0 { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }
}

extension Substring {
    /// Trims the given ASCII characters from both ends.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        self[...].trimmingCharacters(in: set)
    }
}
