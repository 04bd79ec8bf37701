import PetSpotPropertyEngine

/// Generators of hostile bytes for an HTTP server: random bytes, valid requests with bytes
/// overwritten, removed, inserted or repeated, truncated requests, oversized request lines,
/// invalid UTF-8 in headers and absurd `Content-Length` values.
///
/// Each alternative shrinks toward its simplest form (no bytes, one mutation at the start, the
/// shortest prefix), so a crashing input is reported small.
public enum HostileHTTPInput {
    /// Bytes written to a connection, shown as escaped text in failure reports.
    public struct Bytes: Sendable, Hashable, CustomStringConvertible {
        /// The bytes.
        public var bytes: [UInt8]

        /// Wraps `bytes`.
        public init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The bytes as a Swift string literal: printable ASCII as is, everything else escaped.
        public var description: String {
            var text = "\""
            for byte in bytes {
                switch byte {
                case 0x0D: text += "\\r"
                case 0x0A: text += "\\n"
                case 0x22: text += "\\\""
                case 0x5C: text += "\\\\"
                case 0x20..<0x7F: text.append(Character(Unicode.Scalar(byte)))
                default: text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            }
            return text + "\" (\(bytes.count) bytes)"
        }
    }

    /// Bytes for one connection, built around `validRequests` (complete requests the server
    /// accepts, e.g. a create with a JSON body and a chunked upload).
    public static func bytes(around validRequests: [[UInt8]]) -> Gen<Bytes> {
        let valid = Gen<[UInt8]>.element(of: validRequests.isEmpty ? [Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)] : validRequests)
        let anyByte = Gen<UInt8>.integer(in: 0...255)
        let randomBytes = anyByte.array(count: 0...300)
        let mutated = valid.flatMap { request in
            mutation(count: request.count).array(count: 1...4).map { mutations in
                mutations.reduce(request) { bytes, mutate in mutate(bytes) }
            }
        }
        let truncated = valid.flatMap { request in
            Gen.int(in: 0...max(0, request.count - 1)).map { Array(request.prefix($0)) }
        }
        let longTarget = Gen.int(in: 16_000...20_000).map { length in
            Array("GET /\(String(repeating: "a", count: length)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        }
        let invalidUTF8Header = Gen<UInt8>.integer(in: 0x80...0xFF).array(count: 1...8).map { high in
            Array("GET / HTTP/1.1\r\nHost: x\r\nX-Bad: ".utf8) + high + Array("\r\n\r\n".utf8)
        }
        let absurdLength = Gen<UInt64>.integer(in: 0...100_000_000_000).map { length in
            Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\nshort".utf8)
        }
        return Gen<[UInt8]>.frequency(
            (3, randomBytes), (4, mutated), (2, truncated), (1, longTarget), (1, invalidUTF8Header), (1, absurdLength))
            .map(Bytes.init)
    }

    /// One edit of a request of `count` bytes: overwrite, remove, insert a delimiter-like byte,
    /// or repeat the next few bytes.
    static func mutation(count: Int) -> Gen<@Sendable ([UInt8]) -> [UInt8]> {
        let position = Gen.int(in: 0...max(0, count - 1))
        let special = Gen<UInt8>.element(of: [0x0D, 0x0A, 0x00, 0xFF, 0x20, 0x3A])
        let overwrite = PetSpotPropertyEngine.zip(position, Gen<UInt8>.integer(in: 0...255)).map { at, byte in
            { @Sendable (bytes: [UInt8]) -> [UInt8] in
                var copy = bytes
                if copy.indices.contains(at) { copy[at] = byte }
                return copy
            }
        }
        let remove = position.map { at in
            { @Sendable (bytes: [UInt8]) -> [UInt8] in
                var copy = bytes
                if copy.indices.contains(at) { copy.remove(at: at) }
                return copy
            }
        }
        let insert = PetSpotPropertyEngine.zip(position, special).map { at, byte in
            { @Sendable (bytes: [UInt8]) -> [UInt8] in
                var copy = bytes
                copy.insert(byte, at: min(at, copy.count))
                return copy
            }
        }
        let repeatBytes = position.map { at in
            { @Sendable (bytes: [UInt8]) -> [UInt8] in
                var copy = bytes
                let start = min(at, copy.count)
                copy.insert(contentsOf: copy[start...].prefix(10), at: start)
                return copy
            }
        }
        return .oneOf(overwrite, remove, insert, repeatBytes)
    }
}
