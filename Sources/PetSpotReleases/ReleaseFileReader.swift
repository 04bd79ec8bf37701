import Foundation
import PetSpotJSON

/// Reads typed members of one JSON object of a release file, naming the key path in every error
/// and refusing keys the format does not have (a hand edit that adds one is caught, not ignored).
struct ReleaseFileReader {
    let object: JSONObject
    let path: String
    let file: String

    init(_ value: JSONValue, path: String, file: String) throws(ReleaseFileError) {
        guard case .object(let object) = value else {
            throw ReleaseFileError(path: file, location: path.isEmpty ? nil : path, reason: "expected an object, found \(value.typeName)")
        }
        self.object = object
        self.path = path
        self.file = file
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func fail(_ key: String, _ reason: String) -> ReleaseFileError {
        ReleaseFileError(path: file, location: keyPath(key), reason: reason)
    }

    func allowingOnly(_ keys: [String]) throws(ReleaseFileError) -> ReleaseFileReader {
        if let extra = object.keys.first(where: { !keys.contains($0) }) { throw fail(extra, "not a key of the release format") }
        return self
    }

    func value(_ key: String) throws(ReleaseFileError) -> JSONValue {
        guard let value = object[key] else { throw fail(key, "missing") }
        return value
    }

    func string(_ key: String) throws(ReleaseFileError) -> String {
        let found = try value(key)
        guard case .string(let text) = found else { throw fail(key, "expected a string, found \(found.typeName)") }
        return text
    }

    func optionalString(_ key: String) throws(ReleaseFileError) -> String? {
        guard let found = object[key], !found.isNull else { return nil }
        guard case .string(let text) = found else { throw fail(key, "expected a string or null, found \(found.typeName)") }
        return text
    }

    func int(_ key: String, in range: ClosedRange<Int> = 0...Int.max) throws(ReleaseFileError) -> Int {
        let found = try value(key)
        guard case .number(let number) = found, let integer = number.intValue else {
            throw fail(key, "expected an integer, found \(found.serialized())")
        }
        guard range.contains(integer) else { throw fail(key, "\(integer) is outside \(range.lowerBound)...\(range.upperBound)") }
        return integer
    }

    func optionalInt(_ key: String) throws(ReleaseFileError) -> Int? {
        guard object[key] != nil else { return nil }
        return try int(key)
    }

    func unsigned(_ key: String) throws(ReleaseFileError) -> UInt64 {
        let found = try value(key)
        guard case .number(let number) = found, number.isInteger, !number.isNegative, let value = UInt64(number.literal) else {
            throw fail(key, "expected an unsigned integer, found \(found.serialized())")
        }
        return value
    }

    func object(_ key: String) throws(ReleaseFileError) -> JSONObject {
        let found = try value(key)
        guard case .object(let object) = found else { throw fail(key, "expected an object, found \(found.typeName)") }
        return object
    }

    func array(_ key: String) throws(ReleaseFileError) -> [JSONValue] {
        let found = try value(key)
        guard case .array(let items) = found else { throw fail(key, "expected an array, found \(found.typeName)") }
        return items
    }

    /// Each element of the array `key` read by `read` with its own reader.
    func elements<Element>(
        _ key: String, _ read: (ReleaseFileReader) throws(ReleaseFileError) -> Element
    ) throws(ReleaseFileError) -> [Element] {
        var result: [Element] = []
        for (index, item) in try array(key).enumerated() {
            result.append(try read(ReleaseFileReader(item, path: "\(keyPath(key))[\(index)]", file: file)))
        }
        return result
    }

    func nested(_ key: String) throws(ReleaseFileError) -> ReleaseFileReader {
        try ReleaseFileReader(value(key), path: keyPath(key), file: file)
    }

    func instant(_ key: String) throws(ReleaseFileError) -> Date {
        let text = try string(key)
        guard let date = try? ReleaseFileReader.instantFormat.parse(text) else {
            throw fail(key, "expected an ISO 8601 instant like 2026-11-22T12:00:00Z, found \"\(text)\"")
        }
        return date
    }

    func day(_ key: String) throws(ReleaseFileError) -> String {
        let text = try string(key)
        guard ReleaseFileReader.isDay(text) else { throw fail(key, "expected a day YYYY-MM-DD, found \"\(text)\"") }
        return text
    }

    func optionalDay(_ key: String) throws(ReleaseFileError) -> String? {
        guard object[key] != nil, object[key]?.isNull == false else { return nil }
        return try day(key)
    }

    /// Whether `text` is a calendar day `YYYY-MM-DD`.
    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let month = Int(parts[1]), let day = Int(parts[2])
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    /// Instants as the file writes them: UTC, whole seconds (`2026-11-22T12:00:00Z`).
    static let instantFormat = Date.ISO8601FormatStyle()
}
