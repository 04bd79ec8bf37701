import Foundation
import PetSpotReport
import PetSpotRunner
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Seeds as the command line reads and prints them.
enum RunnerSeed {
    /// Parses a decimal or `0x`-hexadecimal UInt64.
    static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }

    /// A fresh random seed.
    static func random() -> UInt64 { UInt64.random(in: 1...UInt64.max) }
}
