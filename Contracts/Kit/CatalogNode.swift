import PetSpotJSON

/// A JSON value together with its path, for decoding catalogs with errors that name the key path.
struct CatalogNode {
    let value: JSONValue
    let path: String

    init(root: JSONValue) {
        value = root
        path = "$"
    }

    private init(value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    func error(_ reason: String) -> CatalogDecodingError {
        CatalogDecodingError(path: path, reason: reason)
    }

    func object() throws(CatalogDecodingError) -> JSONObject {
        guard let object = value.objectValue else { throw error("expected an object, found \(value.typeName)") }
        return object
    }

    /// Rejects members outside `allowed`, so that a misspelt key is an error rather than ignored.
    func requireOnlyKeys(_ allowed: Set<String>) throws(CatalogDecodingError) {
        for key in try object().keys where !allowed.contains(key) {
            throw error("unknown key \"\(key)\" (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// The member `key`, which must be present.
    func member(_ key: String) throws(CatalogDecodingError) -> CatalogNode {
        guard let child = try object()[key] else { throw error("missing required key \"\(key)\"") }
        return CatalogNode(value: child, path: "\(path).\(key)")
    }

    /// The member `key`, or `nil` when the key is absent (a present `null` is returned as a node).
    func optionalMember(_ key: String) throws(CatalogDecodingError) -> CatalogNode? {
        guard let child = try object()[key] else { return nil }
        return CatalogNode(value: child, path: "\(path).\(key)")
    }

    /// The member `key` of an object node, for iterating members with their own paths.
    func child(key: String, value: JSONValue) -> CatalogNode {
        CatalogNode(value: value, path: "\(path).\(key)")
    }

    func elements() throws(CatalogDecodingError) -> [CatalogNode] {
        guard let items = value.arrayValue else { throw error("expected an array, found \(value.typeName)") }
        return items.enumerated().map { CatalogNode(value: $0.element, path: "\(path)[\($0.offset)]") }
    }

    func string() throws(CatalogDecodingError) -> String {
        guard let text = value.stringValue else { throw error("expected a string, found \(value.typeName)") }
        return text
    }

    func nonEmptyString() throws(CatalogDecodingError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw error("expected a non-empty string") }
        return text
    }

    /// A case id: ASCII letters, digits and hyphens.
    func slug() throws(CatalogDecodingError) -> String {
        let text = try nonEmptyString()
        guard text.utf8.allSatisfy({ byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }) else { throw error("an id is a slug of ASCII letters, digits and hyphens") }
        return text
    }

    func bool() throws(CatalogDecodingError) -> Bool {
        guard let flag = value.boolValue else { throw error("expected true or false, found \(value.typeName)") }
        return flag
    }

    func int(in range: ClosedRange<Int>) throws(CatalogDecodingError) -> Int {
        guard let number = value.numberValue else { throw error("expected an integer, found \(value.typeName)") }
        guard let integer = number.intValue else { throw error("expected an integer, found \(number.literal)") }
        guard range.contains(integer) else {
            throw error("\(integer) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    /// A string or an array of strings (as in `"remove": "age"` or `"remove": ["email", "phone"]`).
    func stringList() throws(CatalogDecodingError) -> [String] {
        if let single = value.stringValue { return [single] }
        var result: [String] = []
        for element in try elements() { result.append(try element.string()) }
        return result
    }

    /// The elements of this array decoded with `decode`, refusing a repeated case id.
    func uniqueCases<Case>(
        _ decode: (CatalogNode) throws(CatalogDecodingError) -> Case, id: (Case) -> String
    ) throws(CatalogDecodingError) -> [Case] {
        var decoded: [Case] = []
        var seen: Set<String> = []
        for element in try elements() {
            let item = try decode(element)
            guard seen.insert(id(item)).inserted else { throw element.error("duplicate case id \"\(id(item))\"") }
            decoded.append(item)
        }
        return decoded
    }

    /// Decodes the catalog's `version` member and refuses versions this kit does not read.
    func catalogVersion(supported: Int) throws(CatalogDecodingError) -> Int {
        let node = try member("version")
        let version = try node.int(in: 1...Int.max)
        guard version <= supported else {
            throw node.error("catalog version \(version) is newer than this kit reads (\(supported))")
        }
        return version
    }

    /// The case's optional `knownProductionDefect`: a non-empty sentence, allowed only with a
    /// `strictExpected` that differs from `expected` (the sane answer beside production's).
    func knownProductionDefect(
        expected: ExpectedResponse, strictExpected: ExpectedResponse?
    ) throws(CatalogDecodingError) -> String? {
        guard let node = try optionalMember("knownProductionDefect") else { return nil }
        let text = try node.nonEmptyString()
        guard let strictExpected, strictExpected != expected else {
            throw node.error("a known production defect needs a strictExpected with the sane answer, different from expected")
        }
        return text
    }
}
