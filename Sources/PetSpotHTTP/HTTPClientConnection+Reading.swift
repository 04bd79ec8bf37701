import Foundation

/// Reading answers: the head (a status line and header block, strictly parsed), then the body
/// its framing announces: chunked (trailers read and dropped), `Content-Length`, or up to the
/// close; within the connection's rules.
extension HTTPClientConnection {
    /// Reads one answer: its head, then its body; none when `bodyless` (the answer to `HEAD`),
    /// nor for 1xx, 204 and 304. Interim (1xx) answers are returned like any other.
    /// - Throws: ``HTTPClientError`` when the deadline passes, the peer closes the connection
    ///   before the end of the answer, or the answer is malformed or breaks the rules.
    package func readResponse(bodyless: Bool = false, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> HTTPResponse {
        dropConsumedBytes()
        var response = try readHead(deadline: deadline)
        let status = response.status
        if !bodyless && status >= 200 && status != 204 && status != 304 {
            response.body = try readBody(of: response, deadline: deadline)
        }
        return response
    }

    /// Reads answers until the final one: interim 1xx answers (`100 Continue`, `103 Early Hints`)
    /// are read and dropped; `101 Switching Protocols` is returned, since HTTP ends there on this
    /// connection.
    /// - Throws: as ``readResponse(bodyless:deadline:)``, for any of the answers read.
    package func readFinalResponse(bodyless: Bool = false, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> HTTPResponse {
        while true {
            let response = try readResponse(bodyless: bodyless, deadline: deadline)
            if response.status >= 200 || response.status == 101 { return response }
        }
    }

    /// Forgets the bytes of ``buffer`` already consumed.
    private func dropConsumedBytes() {
        guard cursor > 0 else { return }
        discarded += cursor
        if cursor == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.removeSubrange(0..<cursor)
        }
        cursor = 0
    }

    // MARK: The head

    /// Reads a status line and header block (at most ``HTTPClientRules/maxHeaderBytes``).
    private func readHead(deadline: ContinuousClock.Instant) throws(HTTPClientError) -> HTTPResponse {
        var searchFrom = cursor
        while true {
            if let end = headEnd(from: searchFrom) { return try parseHead(upTo: end) }
            if buffer.count - cursor > rules.maxHeaderBytes { throw .headTooLarge(limit: rules.maxHeaderBytes) }
            searchFrom = max(cursor, buffer.count - 2)
            guard try fill(deadline: deadline) else { throw .closedInHead(received: buffer.count - cursor) }
        }
    }

    /// Parses the head from ``cursor`` to `end` (just after its blank line) and consumes it.
    private func parseHead(upTo end: Int) throws(HTTPClientError) -> HTTPResponse {
        if end - cursor > rules.maxHeaderBytes { throw .headTooLarge(limit: rules.maxHeaderBytes) }
        let block = buffer[cursor..<end]
        let start = discarded + cursor
        cursor = end
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = block.startIndex
        for index in block.indices where block[index] == UInt8(ascii: "\n") {
            var line = block[lineStart..<index]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            lines.append(line)
            lineStart = index + 1
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw .emptyHead }
        let status = try Self.status(of: statusLine, at: start)
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            fields.append(try Self.field(line))
        }
        return HTTPResponse(status: status, headers: HTTPHeaders(fields))
    }

    /// The end of the head in ``buffer`` (just after its blank line, `\n\n` or `\n\r\n`), looking
    /// for it from `start`.
    private func headEnd(from start: Int) -> Int? {
        var index = start
        while let newline = buffer[index...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline + 1 < buffer.count, buffer[newline + 1] == UInt8(ascii: "\n") { return newline + 2 }
            if newline + 2 < buffer.count, buffer[newline + 1] == UInt8(ascii: "\r"), buffer[newline + 2] == UInt8(ascii: "\n") {
                return newline + 3
            }
            index = newline + 1
        }
        return nil
    }

    /// The status of `line` (`HTTP/1.x NNN reason`), which starts at byte `offset` of the stream.
    private static func status(of line: ArraySlice<UInt8>, at offset: Int) throws(HTTPClientError) -> Int {
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: "HTTP/1.".utf8), parts[1].count == 3,
            parts[1].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            throw .invalidStatusLine(Array(line), offset: offset)
        }
        let status = parts[1].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard status >= 100 else { throw .invalidStatusLine(Array(line), offset: offset) }
        return status
    }

    /// The header field of `line` (`name: value`, the value without surrounding blanks).
    private static func field(_ line: ArraySlice<UInt8>) throws(HTTPClientError) -> HTTPHeaders.Field {
        if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") { throw .foldedHeaderLine(Array(line)) }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[line.startIndex..<colon].allSatisfy(HTTPRequestParser.isTokenByte)
        else {
            throw .invalidHeaderLine(Array(line))
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { value = value.dropFirst() }
        while let byte = value.last, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { value = value.dropLast() }
        return (name: String(decoding: line[line.startIndex..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    // MARK: The body

    /// Reads the body `head` announces, within the rules.
    private func readBody(of head: HTTPResponse, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> [UInt8] {
        let transferCodings = Self.tokens(head.headers.values(for: "Transfer-Encoding"))
        if !transferCodings.isEmpty {
            try checkContentCoding(of: head)
            if transferCodings.last == "chunked" { return try readChunked(status: head.status, deadline: deadline) }
            return try readToClose(status: head.status, deadline: deadline)
        }
        let lengths = head.headers.values(for: "Content-Length")
        if !lengths.isEmpty {
            let distinct = Set(lengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) })
            guard distinct.count == 1, let text = distinct.first, !text.isEmpty, text.count <= 18,
                text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(text)
            else {
                throw .invalidContentLength(status: head.status, values: lengths)
            }
            if length > rules.maxBodyBytes { throw .bodyTooLarge(status: head.status, declared: length, read: nil) }
            if length > 0 { try checkContentCoding(of: head) }
            while buffer.count - cursor < length {
                guard try fill(deadline: deadline) else { throw .closedInBody(received: buffer.count - cursor, length: length) }
            }
            let body = Array(buffer[cursor..<(cursor + length)])
            cursor += length
            return body
        }
        try checkContentCoding(of: head)
        return try readToClose(status: head.status, deadline: deadline)
    }

    /// The comma-separated tokens of header `values`, trimmed and in lower case.
    private static func tokens(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Refuses a body in a content coding other than `identity`, when the rules say so.
    private func checkContentCoding(of head: HTTPResponse) throws(HTTPClientError) {
        guard rules.refusesContentCodings else { return }
        let codings = Self.tokens(head.headers.values(for: "Content-Encoding")).filter { !$0.isEmpty && $0 != "identity" }
        if !codings.isEmpty { throw .contentCoding(status: head.status, coding: codings.joined(separator: ", ")) }
    }

    /// A body delimited by the end of the connection.
    private func readToClose(status: Int, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> [UInt8] {
        while true {
            if buffer.count - cursor > rules.maxBodyBytes { throw .bodyTooLarge(status: status, declared: nil, read: nil) }
            guard try fill(deadline: deadline) else { break }
        }
        if buffer.count - cursor > rules.maxBodyBytes { throw .bodyTooLarge(status: status, declared: nil, read: nil) }
        let body = Array(buffer[cursor...])
        cursor = buffer.count
        return body
    }

    /// A chunked body, decoded (its trailers read and dropped).
    private func readChunked(status: Int, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            if cursor > 64 * 1024 { dropConsumedBytes() }
            let line = try readLine(tooLong: .chunkSizeLineTooLong(limit: rules.maxLineBytes), deadline: deadline)
            let digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            guard let size = ChunkSize.value(ofHexDigits: digits) else {
                throw .invalidChunkSizeLine(status: status, line: Array(line), bodyBytes: body.count)
            }
            if size == 0 { break }
            if body.count + size > rules.maxBodyBytes { throw .bodyTooLarge(status: status, declared: nil, read: body.count + size) }
            while buffer.count - cursor < size + 2 {
                guard try fill(deadline: deadline) else { throw .closedInChunk(bodyBytes: body.count) }
            }
            body.append(contentsOf: buffer[cursor..<(cursor + size)])
            cursor += size
            if buffer[cursor] == UInt8(ascii: "\r") { cursor += 1 }
            guard buffer[cursor] == UInt8(ascii: "\n") else { throw .unterminatedChunk(status: status, bodyBytes: body.count) }
            cursor += 1
        }
        var trailerBytes = 0
        while true {
            let trailer = try readLine(tooLong: .trailerLineTooLong(limit: rules.maxLineBytes), deadline: deadline)
            if trailer.isEmpty { break }
            trailerBytes += trailer.count
            if trailerBytes > rules.maxHeaderBytes { throw .trailersTooLarge(limit: rules.maxHeaderBytes) }
        }
        return body
    }

    /// Reads one line of a chunked body (a chunk size line or a trailer), without its line break.
    /// - Throws: `tooLong` past ``HTTPClientRules/maxLineBytes``.
    private func readLine(tooLong: HTTPClientError, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> ArraySlice<UInt8> {
        var searched = cursor
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[cursor..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                cursor = newline + 1
                return line
            }
            searched = buffer.count
            if buffer.count - cursor > rules.maxLineBytes { throw tooLong }
            guard try fill(deadline: deadline) else { throw .closedInChunkedBody }
        }
    }
}
