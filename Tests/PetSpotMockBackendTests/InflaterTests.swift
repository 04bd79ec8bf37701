import Foundation
import PetSpotHTTP
import PetSpotProcess
import PetSpotPropertyEngine
import PetSpotTestSupport
import Testing

/// The DEFLATE decoder behind gzip and deflate request bodies, against bytes made by
/// python3's `gzip` and `zlib` modules (committed in `InflateFixtures.swift`, and made afresh
/// by the running python3 when there is one), and against broken input.
@Suite("Inflater (RFC 1951, 1950, 1952)", .onOwnThreads)
struct InflaterTests {
    static func plainText(_ name: String) -> [UInt8] {
        if name == "zeros-1mib" { return [UInt8](repeating: 0, count: 1024 * 1024) }
        return [UInt8](Data(base64Encoded: inflatePlainTexts[name] ?? "") ?? Data())
    }

    static func decode(_ coding: String, _ bytes: [UInt8], limit: Int = 8 * 1024 * 1024) throws(ContentDecodingError) -> [UInt8] {
        switch coding {
        case "gzip": try ContentCoding.gzip.decode(bytes, maxOutputBytes: limit)
        case "deflate": try ContentCoding.deflate.decode(bytes, maxOutputBytes: limit)
        default: try Inflater.inflateRaw(bytes, maxOutputBytes: limit)
        }
    }

    static let fixtures = inflateFixtures.map { (name: $0.name, coding: $0.coding, compressed: [UInt8](Data(base64Encoded: $0.compressed)!),
                                                plain: plainText($0.plainText)) }

    @Test("every python-made fixture inflates to its plain text", arguments: inflateFixtures.map(\.name))
    func fixturesInflate(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        #expect(try Self.decode(fixture.coding, fixture.compressed) == fixture.plain)
    }

    @Test("the fixtures cover every block type and both wrappers")
    func coverage() {
        let names = Set(inflateFixtures.map(\.name))
        for expected in ["zlib-json-stored", "raw-json-fixed", "raw-random-huffman-only", "gzip-json-with-file-name", "gzip-two-members",
                         "gzip-empty-level6"] {
            #expect(names.contains(expected))
        }
    }

    /// Every position in the headers and trailers, and every 7th in between (keeps the tests fast).
    static func positions(in count: Int) -> [Int] {
        Array(Set(Array(0..<min(count, 40)) + Array(stride(from: 40, to: count, by: 7)) + Array(max(0, count - 16)..<count))).sorted()
    }

    @Test("every truncation of a wrapped stream is refused as corrupt (but at a member boundary)")
    func truncations() {
        for fixture in Self.fixtures where fixture.coding != "raw" && fixture.compressed.count < 4000 {
            for length in Self.positions(in: fixture.compressed.count) {
                do {
                    let decoded = try Self.decode(fixture.coding, Array(fixture.compressed.prefix(length)))
                    // The first of two gzip members is a complete gzip body by itself.
                    if fixture.name == "gzip-two-members" && decoded == Array("first member, ".utf8) { continue }
                    Issue.record("\(fixture.name) truncated to \(length) bytes decoded")
                } catch {
                    guard case .corrupt = error else {
                        Issue.record("\(fixture.name) truncated to \(length): \(error)")
                        continue
                    }
                }
            }
        }
    }

    @Test("a flipped byte is refused or, in a header field nobody checks, harmless; never a crash")
    func flippedBytes() {
        for fixture in Self.fixtures where fixture.compressed.count < 4000 {
            for position in Self.positions(in: fixture.compressed.count) {
                var damaged = fixture.compressed
                damaged[position] ^= 0x5A
                let decoded = try? Self.decode(fixture.coding, damaged, limit: 64 * 1024)
                if fixture.coding != "raw", let decoded {
                    #expect(decoded == fixture.plain, "\(fixture.name): byte \(position) flipped decoded to other bytes")
                }
            }
        }
    }

    @Test("random bytes never crash or run past the limit")
    func randomInput() {
        var generator = SplitMix64(seed: 0x5EED)  // replays exactly
        for round in 0..<3000 {
            let length = Int.random(in: 0...300, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 3 == 0 && bytes.count > 3 { bytes[0] = 0x1F; bytes[1] = 0x8B; bytes[2] = 8; bytes[3] = 0 }
            if round % 3 == 1 && bytes.count > 1 { bytes[0] = 0x78; bytes[1] = 0x9C }
            for coding in ["gzip", "deflate", "raw"] {
                if let output = try? Self.decode(coding, bytes, limit: 4096) { #expect(output.count <= 4096) }
            }
        }
    }

    @Test("the output cap stops a small bomb: 1 KiB of gzip that would be 1 MiB")
    func outputCap() throws {
        let bomb = try #require(Self.fixtures.first { $0.name == "gzip-zeros-1mib" })
        #expect(bomb.compressed.count < 2048)
        #expect(throws: ContentDecodingError.tooLarge(limit: 100 * 1024)) {
            try ContentCoding.gzip.decode(bomb.compressed, maxOutputBytes: 100 * 1024)
        }
        #expect(try ContentCoding.gzip.decode(bomb.compressed, maxOutputBytes: 1024 * 1024).count == 1024 * 1024)
        #expect(throws: ContentDecodingError.tooLarge(limit: 10)) { try ContentCoding.identity.decode([UInt8](repeating: 1, count: 11), maxOutputBytes: 10) }
    }

    @Test("hand-made invalid streams name what is wrong", arguments: [
        ([0x07], "block type 3 is reserved"),
        ([0x01, 0x05, 0x00, 0x00, 0x00], "stored block length check failed"),
        ([0x01, 0x05, 0x00, 0xFA, 0xFF, 0x41], "stored block truncated"),
        ([0x03, 0x02], "distance 1 reaches before the start"),
        ([0x03], "deflate stream ends early"),
        ([0x05, 0xE0, 0xFF, 0xFF, 0xFF], "deflate stream ends early"),
        ([0x05, 0xE0] + [UInt8](repeating: 0xFF, count: 8), "invalid code-length code"),
    ] as [([UInt8], String)])
    func invalidStreams(bytes: [UInt8], reason: String) {
        #expect(throws: ContentDecodingError.corrupt(reason)) { try Inflater.inflateRaw(bytes, maxOutputBytes: 1024) }
    }

    @Test("wrapper checks: magic, method, header check bits, dictionary, checksums")
    func wrappers() throws {
        let gzip = try #require(Self.fixtures.first { $0.name == "gzip-json-level6" }).compressed
        var badMagic = gzip
        badMagic[1] = 0
        #expect(throws: ContentDecodingError.corrupt("not gzip data (no 1F 8B magic)")) { try ContentCoding.gzip.decode(badMagic, maxOutputBytes: 1 << 20) }
        var badCRC = gzip
        badCRC[badCRC.count - 6] ^= 1
        #expect(throws: ContentDecodingError.corrupt("gzip CRC-32 mismatch")) { try ContentCoding.gzip.decode(badCRC, maxOutputBytes: 1 << 20) }
        var badLength = gzip
        badLength[badLength.count - 2] ^= 1
        #expect(throws: ContentDecodingError.corrupt("gzip length trailer mismatch")) { try ContentCoding.gzip.decode(badLength, maxOutputBytes: 1 << 20) }
        // After a member, zero padding ends the body; other bytes must be another member (as in Node.js).
        #expect(try ContentCoding.gzip.decode(gzip + [0, 1, 2], maxOutputBytes: 1 << 20) == Self.plainText("json"))
        #expect(throws: ContentDecodingError.corrupt("not gzip data (no 1F 8B magic)")) {
            try ContentCoding.gzip.decode(gzip + [0x50, 0x4B, 3, 4, 0, 0, 0, 0, 0, 0], maxOutputBytes: 1 << 20)
        }
        let zlib = try #require(Self.fixtures.first { $0.name == "zlib-json-level9" }).compressed
        #expect(throws: ContentDecodingError.corrupt("zlib header check bits are wrong")) { try ContentCoding.deflate.decode([0x78, 0x9D] + zlib.dropFirst(2), maxOutputBytes: 1 << 20) }
        #expect(throws: ContentDecodingError.corrupt("zlib compression method 7 is not deflate (8)")) { try ContentCoding.deflate.decode([0x77, 0x9C], maxOutputBytes: 1 << 20) }
        #expect(throws: ContentDecodingError.corrupt("zlib stream needs a preset dictionary")) { try ContentCoding.deflate.decode([0x78, 0xBB, 0, 0, 0, 0], maxOutputBytes: 1 << 20) }
        var badAdler = zlib
        badAdler[badAdler.count - 1] ^= 1
        #expect(throws: ContentDecodingError.corrupt("zlib Adler-32 checksum mismatch")) { try ContentCoding.deflate.decode(badAdler, maxOutputBytes: 1 << 20) }
        // HTTP's deflate is the zlib wrapper: a raw stream is refused, as Node.js's createInflate does.
        let raw = try #require(Self.fixtures.first { $0.name == "raw-json-level1" }).compressed
        #expect(throws: ContentDecodingError.self) { try ContentCoding.deflate.decode(raw, maxOutputBytes: 1 << 20) }
    }

    @Test("Content-Encoding values as body-parser reads them")
    func headerValues() {
        #expect(ContentCoding(headerValue: nil) == .identity)
        #expect(ContentCoding(headerValue: " GZIP ") == .gzip)
        #expect(ContentCoding(headerValue: "Deflate") == .deflate)
        #expect(ContentCoding(headerValue: "identity") == .identity)
        for unsupported in ["br", "gzip, identity", "x-gzip", "", "compress"] { #expect(ContentCoding(headerValue: unsupported) == nil, "\(unsupported)") }
    }

    @Test("CRC-32 and Adler-32 check values")
    func checksums() {
        #expect(Inflater.crc32(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(Inflater.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Inflater.adler32([UInt8](repeating: 0xFF, count: 100_000)) == Self.referenceAdler32([UInt8](repeating: 0xFF, count: 100_000)))
    }

    static func referenceAdler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt64 = 1, b: UInt64 = 0
        for byte in bytes {
            a = (a + UInt64(byte)) % 65521
            b = (b + a) % 65521
        }
        return UInt32(b << 16 | a)
    }

    static let python3: URL? = {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        guard FileManager.default.isExecutableFile(atPath: env.path) else { return nil }
        let probe = try? ChildProcess.run(env.path, ["python3", "-c", "import gzip, zlib"])
        return probe?.code == 0 ? env : nil
    }()

    /// Runs python3 with `script` (which writes base64 lines) and returns its output.
    static func runPython(_ script: String) throws -> String {
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script])
        #expect(outcome.code == 0, "\(outcome.errorText)")
        return outcome.outputText
    }

    @Test("fresh python3 output: random sizes, levels and strategies, up to 300 KB (stored blocks of 64 KiB)",
          .enabled(if: python3 != nil, "needs python3 on the PATH"))
    func freshPythonOutput() throws {
        let script = """
            import gzip, zlib, base64, random
            rng = random.Random(20261124)
            for i in range(60):
                size = rng.choice([0, 1, 100, 5000, 70000, 300000])
                kind = rng.choice(["random", "text", "runs"])
                if kind == "random": data = bytes(rng.getrandbits(8) for _ in range(size))
                elif kind == "text": data = (" ".join(rng.choice(["pet", "dog", "lost", "found", "42"]) for _ in range(size // 3)))[:size].encode()
                else: data = b"".join(bytes([rng.getrandbits(8)]) * rng.randint(1, 300) for _ in range(size // 100 + 1))[:size]
                level = rng.choice([0, 1, 6, 9])
                strategy = rng.choice([zlib.Z_DEFAULT_STRATEGY, zlib.Z_FIXED, zlib.Z_HUFFMAN_ONLY, zlib.Z_RLE, zlib.Z_FILTERED])
                wrapper = rng.choice([("gzip", 31), ("deflate", 15), ("raw", -15)])
                c = zlib.compressobj(level, zlib.DEFLATED, wrapper[1], rng.choice([8, 9]), strategy)
                print(wrapper[0], base64.b64encode(c.compress(data) + c.flush()).decode(), base64.b64encode(data).decode())
            """
        let lines = try Self.runPython(script).split(separator: "\n")
        #expect(lines.count == 60)
        for line in lines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            let compressed = [UInt8](Data(base64Encoded: fields[1]) ?? Data())
            let plain = [UInt8](Data(base64Encoded: fields[2]) ?? Data())
            #expect(try Self.decode(fields[0], compressed, limit: 1 << 20) == plain, "\(fields[0]) of \(plain.count) bytes")
        }
    }
}
