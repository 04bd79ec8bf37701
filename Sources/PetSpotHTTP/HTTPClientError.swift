#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an ``HTTPClientConnection`` could not connect, send, or read a whole answer: the facts,
/// for each client to put in its own words. Bytes from the server are given as received.
package enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The deadline passed.
    case timedOut
    /// `getaddrinfo` could not resolve the host: its reason.
    case unresolvable(host: String, reason: String)
    /// The host has no IPv4 or IPv6 address.
    case noAddress(host: String)
    /// No address of the host accepted the connection: the last `errno`.
    case connectFailed(code: Int32)
    /// `poll` failed with this `errno`.
    case pollFailed(code: Int32)
    /// `send` failed with this `errno` after `sent` of the `of` bytes given.
    case sendFailed(sent: Int, of: Int, code: Int32)
    /// `recv` failed with this `errno` (`ECONNRESET`: the peer reset the connection).
    case receiveFailed(code: Int32)
    /// The peer closed the connection after `received` bytes of a head (0: before any answer).
    case closedInHead(received: Int)
    /// The peer closed the connection after `received` of the `length` bytes of a body.
    case closedInBody(received: Int, length: Int)
    /// The peer closed the connection before a chunk size line or trailer was complete.
    case closedInChunkedBody
    /// The peer closed the connection inside a chunk, with `bodyBytes` decoded before it.
    case closedInChunk(bodyBytes: Int)
    /// The status line and header block go on past `limit` bytes.
    case headTooLarge(limit: Int)
    /// The trailers of a chunked body go on past `limit` bytes.
    case trailersTooLarge(limit: Int)
    /// A chunk size line goes on past `limit` bytes.
    case chunkSizeLineTooLong(limit: Int)
    /// A trailer line goes on past `limit` bytes.
    case trailerLineTooLong(limit: Int)
    /// The body of a `status` answer is past the limit: it `declared` a longer `Content-Length`,
    /// a chunk takes it to `read` bytes, or (both `nil`) it goes on past the limit to the close.
    case bodyTooLarge(status: Int, declared: Int?, read: Int?)
    /// A `status` answer in content codings other than `identity`, which the rules refuse.
    case contentCoding(status: Int, coding: String)
    /// The head is only blank lines.
    case emptyHead
    /// A status line that is not `HTTP/1.x` and a 3-digit status, at this byte of the stream.
    case invalidStatusLine([UInt8], offset: Int)
    /// A header line folded onto the one before it (obsolete line folding).
    case foldedHeaderLine([UInt8])
    /// A header line without a token and a colon.
    case invalidHeaderLine([UInt8])
    /// A `status` answer whose `Content-Length` values are not one decimal number.
    case invalidContentLength(status: Int, values: [String])
    /// A `status` answer with a chunk size line that is not a hex size, after `bodyBytes`.
    case invalidChunkSizeLine(status: Int, line: [UInt8], bodyBytes: Int)
    /// A `status` answer with a chunk not followed by a line break, after `bodyBytes`.
    case unterminatedChunk(status: Int, bodyBytes: Int)

    /// Whether the peer closed the connection before the answer was complete.
    package var isEarlyClose: Bool {
        switch self {
        case .closedInHead, .closedInBody, .closedInChunkedBody, .closedInChunk: true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .timedOut: "timed out"
        case .unresolvable(let host, let reason): "cannot resolve host '\(host)': \(reason)"
        case .noAddress(let host): "host '\(host)' has no IPv4 or IPv6 address"
        case .connectFailed(let code): "connect: \(Self.reason(code))"
        case .pollFailed(let code): "poll: \(Self.reason(code))"
        case .sendFailed(let sent, let total, let code): "send after \(sent) of \(total) bytes: \(Self.reason(code))"
        case .receiveFailed(let code): "recv: \(Self.reason(code))"
        case .closedInHead(let received): "closed after \(received) bytes of a head"
        case .closedInBody(let received, let length): "closed after \(received) of \(length) body bytes"
        case .closedInChunkedBody: "closed in the middle of a chunked body"
        case .closedInChunk(let bodyBytes): "closed in the middle of a chunk after \(bodyBytes) body bytes"
        case .headTooLarge(let limit): "header block longer than \(limit) bytes"
        case .trailersTooLarge(let limit): "trailers longer than \(limit) bytes"
        case .chunkSizeLineTooLong(let limit): "chunk size line longer than \(limit) bytes"
        case .trailerLineTooLong(let limit): "trailer line longer than \(limit) bytes"
        case .bodyTooLarge(let status, let declared, let read):
            "\(status) body past the limit (\(declared.map { "Content-Length \($0)" } ?? read.map { "\($0) bytes read" } ?? "up to the close"))"
        case .contentCoding(let status, let coding): "\(status) answer in Content-Encoding '\(coding)'"
        case .emptyHead: "empty head"
        case .invalidStatusLine(let line, let offset): "invalid status line '\(Self.text(line))' at byte \(offset)"
        case .foldedHeaderLine(let line): "folded header line '\(Self.text(line))'"
        case .invalidHeaderLine(let line): "invalid header line '\(Self.text(line))'"
        case .invalidContentLength(let status, let values):
            "\(status) answer with invalid Content-Length '\(values.joined(separator: ", "))'"
        case .invalidChunkSizeLine(let status, let line, let bodyBytes):
            "\(status) answer with invalid chunk size line '\(Self.text(line))' after \(bodyBytes) body bytes"
        case .unterminatedChunk(let status, let bodyBytes):
            "\(status) answer with a chunk not followed by a line break after \(bodyBytes) body bytes"
        }
    }

    /// `strerror`'s text for `code`.
    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Bytes from the server as text, at most 200 of them.
    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes.prefix(200), as: UTF8.self) }
}
