import Foundation

/// How ``JSONValue/serialized(options:)`` lays out its output.
public struct JSONWriteOptions: OptionSet, Sendable {
    /// The option bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Object members sorted by key (byte order of UTF-8) instead of their own order.
    public static let sortedKeys = JSONWriteOptions(rawValue: 1)
    /// Two-space indentation and a newline per member.
    public static let prettyPrinted = JSONWriteOptions(rawValue: 2)
}

extension JSONValue {
    /// The JSON text of this value: members in their own order (or sorted), numbers as their
    /// literal, strings with only the escapes JSON requires (`"`, `\`, control characters).
    public func serialized(options: JSONWriteOptions = []) -> String {
        String(decoding: serializedBytes(options: options), as: UTF8.self)
    }

    /// The JSON text as UTF-8 bytes.
    public func serializedBytes(options: JSONWriteOptions = []) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output, options: options, indent: 0)
        return output
    }

    /// The JSON text as `Data`, for HTTP bodies.
    public func serializedData(options: JSONWriteOptions = []) -> Data {
        Data(serializedBytes(options: options))
    }

    private func write(to output: inout [UInt8], options: JSONWriteOptions, indent: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.literal.utf8)
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.newline(&output, options, indent + 1)
                item.write(to: &output, options: options, indent: indent + 1)
            }
            if !items.isEmpty { JSONValue.newline(&output, options, indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            var order = Array(object.keys.indices)
            if options.contains(.sortedKeys) {
                order.sort { object.keys[$0].utf8.lexicographicallyPrecedes(object.keys[$1].utf8) }
            }
            for (position, index) in order.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.newline(&output, options, indent + 1)
                JSONValue.writeString(object.keys[index], to: &output)
                output.append(UInt8(ascii: ":"))
                if options.contains(.prettyPrinted) { output.append(UInt8(ascii: " ")) }
                object.values[index].write(to: &output, options: options, indent: indent + 1)
            }
            if !order.isEmpty { JSONValue.newline(&output, options, indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], _ options: JSONWriteOptions, _ indent: Int) {
        guard options.contains(.prettyPrinted) else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serialized() }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text, so objects read as JSON in failure reports and counterexamples.
    public var description: String { JSONValue.object(self).serialized() }
}
