/// The content codings a request body may arrive in (RFC 9110 §8.4.1), and their decoders.
///
/// `gzip` is a DEFLATE stream in the RFC 1952 wrapper (header, CRC-32 and length trailer),
/// `deflate` is a DEFLATE stream in the RFC 1950 (zlib) wrapper with an Adler-32 trailer, as
/// Node.js's `zlib.createInflate()` expects; `identity` is the body as sent. The decoder is
/// written from RFC 1951 (no system library), checks every trailer, and stops as soon as the
/// output would pass a caller's cap, so a small "zip bomb" cannot make it allocate more:
///
/// ```swift
/// let json = try ContentCoding.gzip.decode(body, maxOutputBytes: 100 * 1024)
/// ```
///
/// Cost: linear in the input plus the output (at most `maxOutputBytes`).
package enum ContentCoding: String, Sendable, CaseIterable {
    /// The body as sent.
    case identity
    /// RFC 1952 gzip members (several members are decoded one after another).
    case gzip
    /// RFC 1950 zlib stream (HTTP's `deflate`).
    case deflate

    /// The coding named by a `Content-Encoding` value as body-parser reads it: the whole value,
    /// trimmed and lower-cased, must be one name (`nil` for anything else, e.g. `br` or a list).
    package init?(headerValue: String?) {
        guard let headerValue else {
            self = .identity
            return
        }
        let trimmed = headerValue.trimmingHTTPWhitespace().lowercased()
        self.init(rawValue: trimmed)
    }

    /// The decoded body.
    /// - Parameters:
    ///   - bytes: the body as received.
    ///   - maxOutputBytes: the largest decoded body accepted.
    /// - Throws: ``ContentDecodingError`` when the data is corrupt or truncated, or decodes to
    ///   more than `maxOutputBytes`.
    package func decode(_ bytes: [UInt8], maxOutputBytes: Int) throws(ContentDecodingError) -> [UInt8] {
        switch self {
        case .identity:
            guard bytes.count <= maxOutputBytes else { throw .tooLarge(limit: maxOutputBytes) }
            return bytes
        case .gzip:
            return try Inflater.gunzip(bytes, maxOutputBytes: maxOutputBytes)
        case .deflate:
            return try Inflater.zlibDecompress(bytes, maxOutputBytes: maxOutputBytes)
        }
    }
}

/// Why a coded body could not be decoded.
package enum ContentDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data is not a valid stream of the coding (the reason names what is wrong).
    case corrupt(String)
    /// The decoded body would be larger than the limit.
    case tooLarge(limit: Int)

    package var description: String {
        switch self {
        case .corrupt(let reason): "corrupt compressed body: \(reason)"
        case .tooLarge(let limit): "decompressed body larger than \(limit) bytes"
        }
    }
}

/// A DEFLATE (RFC 1951) decoder with the gzip (RFC 1952) and zlib (RFC 1950) wrappers.
///
/// Decoding follows the RFC's algorithm as zlib's reference `puff.c` lays it out: stored,
/// fixed-Huffman and dynamic-Huffman blocks, canonical codes decoded with per-length counts,
/// back-references checked against the output produced so far. Every malformed input (an
/// incomplete or over-subscribed code, a distance too far back, a stored length whose
/// complement does not match, a truncated stream, a bad trailer) is a
/// ``ContentDecodingError/corrupt(_:)``; nothing traps.
package enum Inflater {
    /// Decodes one or more gzip members. As in Node.js, bytes after a member are read as the
    /// next member unless they start with a zero byte (padding, ignored with the rest).
    package static func gunzip(_ bytes: [UInt8], maxOutputBytes: Int) throws(ContentDecodingError) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        var members = 0
        while members == 0 || (offset < bytes.count && bytes[offset] != 0) {
            offset = try gunzipMember(bytes, from: offset, into: &output, maxOutputBytes: maxOutputBytes)
            members += 1
        }
        return output
    }

    /// Decodes a zlib stream (CMF, FLG, DEFLATE data, Adler-32); no preset dictionary.
    package static func zlibDecompress(_ bytes: [UInt8], maxOutputBytes: Int) throws(ContentDecodingError) -> [UInt8] {
        guard bytes.count >= 2 else { throw .corrupt("zlib header truncated") }
        let cmf = bytes[0], flags = bytes[1]
        guard cmf & 0x0F == 8 else { throw .corrupt("zlib compression method \(cmf & 0x0F) is not deflate (8)") }
        guard cmf >> 4 <= 7 else { throw .corrupt("zlib window size field \(cmf >> 4) is above 7") }
        guard (UInt16(cmf) << 8 | UInt16(flags)) % 31 == 0 else { throw .corrupt("zlib header check bits are wrong") }
        guard flags & 0x20 == 0 else { throw .corrupt("zlib stream needs a preset dictionary") }
        var output: [UInt8] = []
        let end = try inflate(bytes, from: 2, into: &output, maxOutputBytes: maxOutputBytes)
        guard end + 4 <= bytes.count else { throw .corrupt("zlib Adler-32 trailer truncated") }
        let expected = UInt32(bytes[end]) << 24 | UInt32(bytes[end + 1]) << 16 | UInt32(bytes[end + 2]) << 8 | UInt32(bytes[end + 3])
        guard adler32(output) == expected else { throw .corrupt("zlib Adler-32 checksum mismatch") }
        return output
    }

    /// Decodes a raw DEFLATE stream (no wrapper); bytes after the final block are ignored.
    package static func inflateRaw(_ bytes: [UInt8], maxOutputBytes: Int) throws(ContentDecodingError) -> [UInt8] {
        var output: [UInt8] = []
        _ = try inflate(bytes, from: 0, into: &output, maxOutputBytes: maxOutputBytes)
        return output
    }

    // MARK: gzip wrapper

    private static func gunzipMember(
        _ bytes: [UInt8], from start: Int, into output: inout [UInt8], maxOutputBytes: Int
    ) throws(ContentDecodingError) -> Int {
        guard bytes.count >= start + 10 else { throw .corrupt("gzip header truncated") }
        guard bytes[start] == 0x1F, bytes[start + 1] == 0x8B else { throw .corrupt("not gzip data (no 1F 8B magic)") }
        guard bytes[start + 2] == 8 else { throw .corrupt("gzip compression method \(bytes[start + 2]) is not deflate (8)") }
        let flags = bytes[start + 3]
        guard flags & 0xE0 == 0 else { throw .corrupt("gzip reserved flag bits are set") }
        var cursor = start + 10
        if flags & 0x04 != 0 {  // FEXTRA
            guard bytes.count >= cursor + 2 else { throw .corrupt("gzip extra field truncated") }
            let length = Int(bytes[cursor]) | Int(bytes[cursor + 1]) << 8
            cursor += 2 + length
            guard cursor <= bytes.count else { throw .corrupt("gzip extra field truncated") }
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            while cursor < bytes.count && bytes[cursor] != 0 { cursor += 1 }
            guard cursor < bytes.count else { throw .corrupt("gzip \(flag == 0x08 ? "file name" : "comment") not terminated") }
            cursor += 1
        }
        if flags & 0x02 != 0 {  // FHCRC
            guard bytes.count >= cursor + 2 else { throw .corrupt("gzip header CRC truncated") }
            let expected = UInt32(bytes[cursor]) | UInt32(bytes[cursor + 1]) << 8
            guard crc32(bytes[start..<cursor]) & 0xFFFF == expected else { throw .corrupt("gzip header CRC mismatch") }
            cursor += 2
        }
        let memberStart = output.count
        let end = try inflate(bytes, from: cursor, into: &output, maxOutputBytes: maxOutputBytes)
        guard end + 8 <= bytes.count else { throw .corrupt("gzip trailer truncated") }
        func littleEndian32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        let produced = output[memberStart...]
        guard crc32(produced) == littleEndian32(end) else { throw .corrupt("gzip CRC-32 mismatch") }
        guard UInt32(truncatingIfNeeded: produced.count) == littleEndian32(end + 4) else {
            throw .corrupt("gzip length trailer mismatch")
        }
        return end + 8
    }

    // MARK: Checksums

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 (ISO-HDLC, as gzip uses it).
    package static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        let table = crcTable
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Adler-32 (as zlib uses it).
    package static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 is the largest run for which the sums cannot overflow 32 bits.
            let end = min(index + 5552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    // MARK: DEFLATE

    /// A canonical Huffman code as counts per length and symbols ordered by code.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]
        /// Whether the lengths ask for more codes than the code space holds.
        private(set) var isOversubscribed = false
        /// Whether some bit patterns decode to no symbol.
        private(set) var isIncomplete = false

        /// Builds the code from code lengths (0 = unused symbol, at most 15).
        init(lengths: ArraySlice<Int>) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1...15 {
                left <<= 1
                left -= counts[length]
                if left < 0 {
                    isOversubscribed = true
                    return
                }
            }
            isIncomplete = left > 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in zip(0..., lengths) where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        /// Whether a dynamic block may use this code: never over-subscribed; incomplete only
        /// as a single one-bit code, or (distances) with no code at all, as zlib allows.
        func isUsable(allowingEmpty: Bool) -> Bool {
            if isOversubscribed { return false }
            if !isIncomplete { return true }
            let coded = counts[1...].reduce(0, +)
            if coded == 0 { return allowingEmpty }
            return coded == 1 && counts[1] == 1
        }
    }

    /// Reads bits least-significant first, as DEFLATE packs them.
    private struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var bitBuffer: UInt32 = 0
        var bitCount = 0

        mutating func bits(_ need: Int) throws(ContentDecodingError) -> Int {
            while bitCount < need {
                guard position < bytes.count else { throw .corrupt("deflate stream ends early") }
                bitBuffer |= UInt32(bytes[position]) << UInt32(bitCount)
                position += 1
                bitCount += 8
            }
            let value = Int(bitBuffer & ((1 << UInt32(need)) - 1))
            bitBuffer >>= UInt32(need)
            bitCount -= need
            return value
        }

        /// Decodes one symbol, bit by bit through the canonical code.
        mutating func decode(_ huffman: Huffman) throws(ContentDecodingError) -> Int {
            var code = 0, first = 0, index = 0
            for length in 1...15 {
                if bitCount == 0 {
                    guard position < bytes.count else { throw .corrupt("deflate stream ends early") }
                    bitBuffer = UInt32(bytes[position])
                    position += 1
                    bitCount = 8
                }
                code |= Int(bitBuffer & 1)
                bitBuffer >>= 1
                bitCount -= 1
                let count = huffman.counts[length]
                if code - count < first { return huffman.symbols[index + (code - first)] }
                index += count
                first += count
                first <<= 1
                code <<= 1
            }
            throw .corrupt("invalid Huffman code")
        }

        /// Drops the bits left in the current byte (before a stored block).
        mutating func alignToByte() {
            bitBuffer = 0
            bitCount = 0
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
        8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static let fixedCodes: (literals: Huffman, distances: Huffman) = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        // RFC 1951 §3.2.6; distance symbols 30 and 31 are never valid.
        return (Huffman(lengths: lengths[...]), Huffman(lengths: [Int](repeating: 5, count: 30)[...]))
    }()

    /// Inflates the DEFLATE stream starting at `start`, appending to `output`.
    /// - Returns: the offset of the first byte after the final block.
    private static func inflate(
        _ bytes: [UInt8], from start: Int, into output: inout [UInt8], maxOutputBytes: Int
    ) throws(ContentDecodingError) -> Int {
        var reader = BitReader(bytes: bytes, position: start)
        let memberStart = output.count
        var isFinal = false
        while !isFinal {
            isFinal = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                guard reader.position + 4 <= bytes.count else { throw .corrupt("stored block header truncated") }
                let length = Int(bytes[reader.position]) | Int(bytes[reader.position + 1]) << 8
                let complement = Int(bytes[reader.position + 2]) | Int(bytes[reader.position + 3]) << 8
                guard length == ~complement & 0xFFFF else { throw .corrupt("stored block length check failed") }
                reader.position += 4
                guard reader.position + length <= bytes.count else { throw .corrupt("stored block truncated") }
                guard output.count + length <= maxOutputBytes else { throw .tooLarge(limit: maxOutputBytes) }
                output.append(contentsOf: bytes[reader.position..<(reader.position + length)])
                reader.position += length
            case 1:
                try inflateBlock(&reader, fixedCodes.literals, fixedCodes.distances, into: &output, memberStart: memberStart,
                                 maxOutputBytes: maxOutputBytes)
            case 2:
                let (literals, distances) = try readDynamicCodes(&reader)
                try inflateBlock(&reader, literals, distances, into: &output, memberStart: memberStart, maxOutputBytes: maxOutputBytes)
            default:
                throw .corrupt("block type 3 is reserved")
            }
        }
        return reader.position
    }

    private static func readDynamicCodes(_ reader: inout BitReader) throws(ContentDecodingError) -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .corrupt("too many length or distance codes") }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[codeLengthOrder[index]] = try reader.bits(3) }
        let codeLengthCode = Huffman(lengths: codeLengthLengths[...])
        guard !codeLengthCode.isOversubscribed, !codeLengthCode.isIncomplete else { throw .corrupt("invalid code-length code") }
        var lengths = [Int](repeating: 0, count: literalCount + distanceCount)
        var index = 0
        while index < lengths.count {
            let symbol = try reader.decode(codeLengthCode)
            if symbol < 16 {
                lengths[index] = symbol
                index += 1
                continue
            }
            var repeatedLength = 0
            let repeatCount: Int
            switch symbol {
            case 16:
                guard index > 0 else { throw .corrupt("length repeat with no previous length") }
                repeatedLength = lengths[index - 1]
                repeatCount = 3 + (try reader.bits(2))
            case 17: repeatCount = 3 + (try reader.bits(3))
            default: repeatCount = 11 + (try reader.bits(7))
            }
            guard index + repeatCount <= lengths.count else { throw .corrupt("code lengths overflow the table") }
            for _ in 0..<repeatCount {
                lengths[index] = repeatedLength
                index += 1
            }
        }
        guard lengths[256] != 0 else { throw .corrupt("no end-of-block code") }
        let literals = Huffman(lengths: lengths[0..<literalCount])
        guard literals.isUsable(allowingEmpty: false) else { throw .corrupt("invalid literal/length code") }
        let distances = Huffman(lengths: lengths[literalCount...])
        guard distances.isUsable(allowingEmpty: true) else { throw .corrupt("invalid distance code") }
        return (literals, distances)
    }

    private static func inflateBlock(
        _ reader: inout BitReader, _ literals: Huffman, _ distances: Huffman, into output: inout [UInt8], memberStart: Int,
        maxOutputBytes: Int
    ) throws(ContentDecodingError) {
        while true {
            let symbol = try reader.decode(literals)
            if symbol < 256 {
                guard output.count < maxOutputBytes else { throw .tooLarge(limit: maxOutputBytes) }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < 29 else { throw .corrupt("invalid length symbol \(symbol)") }
            let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
            let distanceSymbol = try reader.decode(distances)
            guard distanceSymbol < 30 else { throw .corrupt("invalid distance symbol \(distanceSymbol)") }
            let distance = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
            guard distance <= output.count - memberStart else { throw .corrupt("distance \(distance) reaches before the start") }
            guard output.count + length <= maxOutputBytes else { throw .tooLarge(limit: maxOutputBytes) }
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
        }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs, CR and LF (HTTP's optional white
    /// space around a field value).
    func trimmingHTTPWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" || first == "\n" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" || last == "\n" { slice = slice.dropLast() }
        return String(slice)
    }
}
