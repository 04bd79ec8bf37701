import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// Small genuine images with a run-unique comment, so that two uploads of one type differ.
package enum SampleImage {
    /// A 1×1 grey PNG with a `tEXt` comment `tag`; with `animated`, an APNG (an `acTL` chunk
    /// before `IDAT`), which production refuses.
    package static func png(tag: String, animated: Bool = false) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func appendBigEndian(_ value: UInt32) {
            data.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        }
        func chunk(_ type: String, _ payload: [UInt8]) {
            appendBigEndian(UInt32(payload.count))
            let typed = Array(type.utf8) + payload
            data.append(contentsOf: typed)
            appendBigEndian(CRC32.checksum(typed))
        }
        chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        if animated { chunk("acTL", [0, 0, 0, 1, 0, 0, 0, 0]) }
        chunk("tEXt", Array("Comment".utf8) + [0] + Array(tag.utf8))
        // zlib stream of one stored block holding the scanline: filter 0, grey 0x80.
        let scanline: [UInt8] = [0x00, 0x80]
        chunk("IDAT", Deflate.zlib(scanline))
        chunk("IEND", [])
        return data
    }

    /// A JPEG start (SOI, a COM segment holding `tag`, EOI): JPEG by its magic bytes.
    package static func jpeg(tag: String) -> Data {
        let comment = Array(tag.utf8)
        let length = comment.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment + [0xFF, 0xD9])
    }
}
