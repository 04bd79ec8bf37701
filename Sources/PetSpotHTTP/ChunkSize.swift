/// The size of a chunk of a chunked body (RFC 9112, section 7.1), as the server's request
/// parser and the client's answer reader both read it.
enum ChunkSize {
    /// The value of `digits`: 1 to 15 hex digits, either case (15 keep any size within `Int`);
    /// `nil` for anything else, a sign or a space included.
    static func value(ofHexDigits digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var size = 0
        for byte in digits {
            let nibble: Int
            switch byte {
            case 0x30...0x39: nibble = Int(byte - 0x30)
            case 0x41...0x46: nibble = Int(byte - 0x41 + 10)
            case 0x61...0x66: nibble = Int(byte - 0x61 + 10)
            default: return nil
            }
            size = size << 4 | nibble
        }
        return size
    }
}
