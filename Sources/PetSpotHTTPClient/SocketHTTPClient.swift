#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotHTTP
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// The `http://` wire client of ``RunnerHTTPTransport``: HTTP/1.1 on a POSIX socket
/// (PetSpotHTTP's ``HTTPClientConnection``), one connection per request (`Connection: close`).
///
/// Every wait (name resolution, connect, write, read) is bounded by the request's deadline, so
/// the deadline covers connect to last byte. The answer is read incrementally and counted: the
/// header block against ``WireLimits/maxHeaderBytes``, the body (`Content-Length`, chunked, or
/// up to the close) against ``WireLimits/maxBodyBytes``; an answer in a content coding is
/// refused, nothing is decompressed and no redirect is followed. Each request runs on a thread
/// of its own (blocking `poll`), off Swift's cooperative pool.
package struct SocketHTTPClient: HTTPWireClient {
    /// The limits enforced.
    package let limits: WireLimits

    /// A client with `limits`.
    package init(limits: WireLimits) {
        self.limits = limits
    }

    /// Sends `request` and reads the answer.
    package func exchange(_ request: WireRequest) async -> Result<TransportResponse, TransportError> {
        let limits = self.limits
        return await runOnDedicatedThread {
            do throws(TransportError) {
                return .success(try Self.answer(to: request, limits: limits))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Connects, sends `request` and reads its final (non-1xx) answer within `limits`.
    private static func answer(to request: WireRequest, limits: WireLimits) throws(TransportError) -> TransportResponse {
        let head = try serializeHead(request)
        let rules = HTTPClientRules(
            maxHeaderBytes: limits.maxHeaderBytes, maxBodyBytes: limits.maxBodyBytes, refusesContentCodings: true, resetEndsStream: false)
        let deadline = request.deadline
        let answer: HTTPResponse
        do throws(HTTPClientError) {
            let connection = try HTTPClientConnection(
                host: request.endpoint.host, port: request.endpoint.port, rules: rules, deadline: deadline)
            try send(head, on: connection, deadline: deadline)
            if !request.body.isEmpty { try send(request.body, on: connection, deadline: deadline) }
            answer = try connection.readFinalResponse(bodyless: request.method == "HEAD", deadline: deadline)
        } catch {
            throw failure(error, at: request.endpoint.hostHeader, limits: limits)
        }
        if answer.status == 101 {
            throw .noConnection("the server at \(request.endpoint.hostHeader) switched protocols (101); expected an HTTP answer")
        }
        return TransportResponse(status: answer.status, headers: answer.headers.fields, body: Data(answer.body))
    }

    /// Writes `bytes`. A server that stopped reading (`EPIPE`, `ECONNRESET`) may have answered
    /// already (e.g. 413 before the whole body): that is left to the read.
    private static func send(_ bytes: some ContiguousBytes, on connection: HTTPClientConnection, deadline: ContinuousClock.Instant)
        throws(HTTPClientError)
    {
        do {
            try connection.write(bytes, deadline: deadline)
        } catch .sendFailed(_, _, let code) where code == EPIPE || code == ECONNRESET {
            return
        }
    }

    /// `error` in the runner's words; `place` is the server's `host:port`.
    private static func failure(_ error: HTTPClientError, at place: String, limits: WireLimits) -> TransportError {
        switch error {
        case .timedOut: .timedOut
        case .unresolvable(let host, let reason): .noConnection("cannot resolve host '\(host)': \(reason)")
        case .noAddress(let host): .noConnection("host '\(host)' has no IPv4 or IPv6 address")
        case .connectFailed(let code): .noConnection("connect to \(place): \(reason(code))")
        case .pollFailed(let code): .noConnection("poll on the connection to \(place) failed: \(reason(code))")
        case .sendFailed(let sent, let total, let code):
            .noConnection("sending to \(place) failed after \(sent) of \(total) bytes: \(reason(code))")
        case .receiveFailed(ECONNRESET): .noConnection("the server at \(place) reset the connection")
        case .receiveFailed(let code): .noConnection("reading from \(place) failed: \(reason(code))")
        case .closedInHead(0): .noConnection("the server at \(place) closed the connection without an answer")
        case .closedInHead(let received):
            .noConnection("the server at \(place) closed the connection after \(received) bytes of an unfinished header")
        case .closedInBody(let received, let length):
            .noConnection("the server at \(place) closed the connection after \(received) of \(length) body bytes")
        case .closedInChunkedBody: .noConnection("the server at \(place) closed the connection in the middle of a chunked body")
        case .closedInChunk(let bodyBytes):
            .noConnection("the server at \(place) closed the connection in the middle of a chunk after \(bodyBytes) body bytes")
        case .headTooLarge(let limit): .noConnection("answer too large: the header block from \(place) is longer than \(limit) bytes")
        case .trailersTooLarge(let limit): .noConnection("answer too large: the trailers from \(place) are longer than \(limit) bytes")
        case .chunkSizeLineTooLong(let limit): .noConnection("the chunk size line from \(place) is longer than \(limit) bytes")
        case .trailerLineTooLong(let limit): .noConnection("the trailer from \(place) is longer than \(limit) bytes")
        case .bodyTooLarge(let status, let declared, let read): limits.tooLarge(status: status, read: read, declared: declared)
        case .contentCoding(let status, let coding): limits.encoded(status: status, coding: coding)
        case .emptyHead: .noConnection("empty answer from \(place)")
        case .invalidStatusLine(let line, let offset):
            .noConnection("the server at \(place) did not answer HTTP/1.x: status line '\(shown(line))' (byte \(offset) of the answer)")
        case .foldedHeaderLine(let line): .noConnection("the answer from \(place) folds a header line (obsolete): '\(shown(line))'")
        case .invalidHeaderLine(let line): .noConnection("the answer from \(place) has a malformed header line: '\(shown(line))'")
        case .invalidContentLength(let status, let values):
            .noConnection(
                "the \(status) answer from \(place) has an invalid Content-Length '\(DisplayText.sanitized(values.joined(separator: ", "), maxBytes: 80))'")
        case .invalidChunkSizeLine(let status, let line, let bodyBytes):
            .noConnection("the \(status) answer from \(place) has an invalid chunk size line '\(shown(line))' after \(bodyBytes) body bytes")
        case .unterminatedChunk(let status, let bodyBytes):
            .noConnection("the \(status) answer from \(place) has a chunk not followed by a line break after \(bodyBytes) body bytes")
        }
    }

    /// `strerror`'s text for `code`.
    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Text from the server, made printable for an error message.
    private static func shown(_ bytes: [UInt8]) -> String {
        DisplayText.sanitized(String(decoding: bytes.prefix(200), as: UTF8.self), maxBytes: 200)
    }

    /// The request's head: request line, the caller's headers (minus the framing ones the
    /// client owns), `Host`, `Accept-Encoding: identity`, `Connection: close`, `Content-Length`,
    /// and the blank line; the body follows it as is.
    /// - Throws: a ``TransportError`` naming the header or byte offset of a character that
    ///   cannot be sent (a control character, a line break).
    package static func serializeHead(_ request: WireRequest) throws(TransportError) -> [UInt8] {
        let method = request.method
        guard !method.isEmpty, method.utf8.allSatisfy(HTTPRequestParser.isTokenByte) else {
            throw .noConnection("cannot send: the method '\(DisplayText.sanitized(method, maxBytes: 40))' is not an HTTP token")
        }
        if let offset = request.endpoint.target.utf8.firstIndex(where: { $0 <= 0x20 || $0 == 0x7F }) {
            let position = request.endpoint.target.utf8.distance(from: request.endpoint.target.utf8.startIndex, to: offset)
            throw .noConnection("cannot send: the request target has a space or control character at byte \(position)")
        }
        var head = "\(method) \(request.endpoint.target) HTTP/1.1\r\nHost: \(request.endpoint.hostHeader)\r\n"
        var hasAcceptEncoding = false
        for header in request.headers {
            let name = header.name.lowercased()
            if ["host", "content-length", "transfer-encoding", "connection"].contains(name) { continue }
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(HTTPRequestParser.isTokenByte) else {
                throw .noConnection("cannot send: the header name '\(DisplayText.sanitized(header.name, maxBytes: 40))' is not an HTTP token")
            }
            if let offset = header.value.utf8.firstIndex(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                let position = header.value.utf8.distance(from: header.value.utf8.startIndex, to: offset)
                throw .noConnection("cannot send: header \(header.name) has a line break or NUL at byte \(position) of its value")
            }
            if name == "accept-encoding" { hasAcceptEncoding = true }
            head += "\(header.name): \(header.value)\r\n"
        }
        if !hasAcceptEncoding { head += "Accept-Encoding: identity\r\n" }
        head += "Connection: close\r\n"
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }
}
