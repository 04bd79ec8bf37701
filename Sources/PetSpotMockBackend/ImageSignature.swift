/// The image formats production accepts for a photo, recognised by their leading bytes (the
/// declared Content-Type is not trusted).
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, bmp, tiff, heic, heif

    /// The extension used in the announcement's `photoUrl` (`/images/{id}.{ext}`).
    public var fileExtension: String { rawValue }

    /// The Content-Type `/images` serves a file of this extension with.
    public var mediaType: String { "image/\(rawValue)" }

    /// The format a declared Content-Type names (`image/png`, `image/jpg`), or `nil`.
    static func declared(_ contentType: String?) -> ImageFormat? {
        guard let contentType else { return nil }
        let mediaType = (contentType.split(separator: ";").first ?? "").trimmingASCIIWhitespace().lowercased()
        guard mediaType.hasPrefix("image/") else { return nil }
        let subtype = mediaType.dropFirst(6)
        return subtype == "jpg" ? .jpeg : ImageFormat(rawValue: String(subtype))
    }

    /// Whether PNG `bytes` are an animated PNG: an `acTL` chunk comes before the first `IDAT`
    /// (walking the chunks after the signature; a chunk that runs past the end stops the walk).
    public static func isAnimatedPNG(_ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex + 8
        while offset + 8 <= bytes.endIndex {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = Array(bytes[(offset + 4)..<(offset + 8)])
            if type == Array("IDAT".utf8) { return false }
            if type == Array("acTL".utf8) { return true }
            // Length, type, data and CRC.
            offset += 12 + length
        }
        return false
    }

    /// The format whose signature `bytes` start with, or `nil` when none matches.
    ///
    /// JPEG `FF D8 FF`; PNG `89 50 4E 47 0D 0A 1A 0A`; GIF `GIF87a`/`GIF89a`; WebP `RIFF....WEBP`;
    /// BMP `BM`; TIFF `II*\0` or `MM\0*`; HEIC/HEIF an ISO-BMFF `ftyp` box at offset 4 whose
    /// major brand is `heic`, `heix`, `hevc`, `hevx`, `heim`, `heis` (HEIC) or `mif1`, `msf1`,
    /// `heif` (HEIF).
    public static func detect(_ bytes: ArraySlice<UInt8>) -> ImageFormat? {
        let data = Array(bytes.prefix(16))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            data.count >= offset + signature.count && Array(data[offset..<(offset + signature.count)]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("II".utf8) + [0x2A, 0x00]) || starts(Array("MM".utf8) + [0x00, 0x2A]) { return .tiff }
        if starts(Array("ftyp".utf8), at: 4), data.count >= 12 {
            let brand = String(decoding: data[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis"].contains(brand) { return .heic }
            if ["mif1", "msf1", "heif"].contains(brand) { return .heif }
        }
        if starts(Array("BM".utf8)) { return .bmp }
        return nil
    }
}
