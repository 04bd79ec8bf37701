import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// Compressed request bodies without a compressor: DEFLATE's stored blocks (RFC 1951 §3.2.4),
/// wrapped as zlib (`Content-Encoding: deflate`, RFC 1950) or gzip (RFC 1952). Any inflater
/// reads them.
package enum Deflate {
    /// Raw DEFLATE of `bytes` in stored blocks.
    package static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            output.append(final)
            output += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            output += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        return output
    }

    /// The zlib stream of `bytes` (the `deflate` content coding).
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = (b << 16) | a
        return [0x78, 0x01] + stored(bytes) + [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
    }

    /// The gzip member of `bytes` (the `gzip` content coding).
    package static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        let crc = CRC32.checksum(bytes), size = UInt32(truncatingIfNeeded: bytes.count)
        func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        return [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF] + stored(bytes) + littleEndian(crc) + littleEndian(size)
    }
}
