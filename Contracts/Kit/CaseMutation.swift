import PetSpotJSON

/// How a negative case derives its request from the catalog's base payload.
///
/// The mutation language is deliberately small; a mutation object has any of these members:
/// - `"remove"`: a key or an array of keys to delete from the base (each must exist in it);
/// - `"set"`: an object whose members replace the base's (in place) or are appended at the end,
///   in the order written, so that body order is under the case's control;
/// - `"setRepeated"`: `{"field": {"text": "x", "count": N}}` sets a field to `text` repeated `N`
///   times (for bodies too large to spell out);
/// - `"setRawJSON"`: `{"field": "1e-99999999999999999999"}` writes the field's value as this raw
///   text, spliced into the body verbatim (JSON that the project's own parser refuses but
///   JavaScript reads, e.g. exponents beyond any double's range); the body is then sent as text;
/// - `"setNestedArrays"`: `{"field": 10000}` sets the field to that many nested empty arrays
///   (`[[[...]]]`), written as text (no recursive value is ever built);
/// - `"jsonBody"`: any JSON value sent instead of the base (an array, `{}`, a bare string);
/// - `"rawBody"`: a string sent verbatim as the UTF-8 body (malformed JSON);
/// - `"emptyBody": true`: a zero-length body;
/// - `"contentType"`: the Content-Type header, or `null` to send none (default
///   `application/json`).
///
/// `remove`, `set`, `setRepeated`, `setRawJSON` and `setNestedArrays` apply in that order (the
/// last two keep a field's place in the body, or append it); `jsonBody`, `rawBody` and
/// `emptyBody` replace the body and exclude each other and the editing members. `emptyBody`
/// is a zero-length body sent with `Content-Length: 0` (which production parses as `{}`), not a
/// request without a body. The empty mutation `{}` sends the base unchanged.
public struct CaseMutation: Sendable, Hashable {
    /// A field set to a text repeated a number of times.
    public struct RepeatedText: Sendable, Hashable {
        /// The field to set.
        public let field: String
        /// The text to repeat.
        public let text: String
        /// How many times.
        public let count: Int
    }

    /// A field whose value is written as raw text.
    public struct RawValue: Sendable, Hashable {
        /// The field to set.
        public let field: String
        /// The text spliced in as its value, verbatim.
        public let text: String
    }

    /// A field set to nested empty arrays.
    public struct NestedArrays: Sendable, Hashable {
        /// The field to set.
        public let field: String
        /// How many arrays deep (1 is `[]`).
        public let depth: Int

        /// The value's text: `depth` opening then `depth` closing brackets.
        public var text: String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
    }

    /// A body that replaces the base payload entirely.
    public enum Replacement: Sendable, Hashable {
        /// This JSON value, serialised.
        case json(JSONValue)
        /// This text, verbatim.
        case raw(String)
        /// No bytes at all.
        case empty
    }

    /// The Content-Type header of the default JSON body.
    public static let jsonContentType = "application/json"

    /// Keys removed from the base, in order.
    public let remove: [String]
    /// Members set on the base, in order.
    public let set: JSONObject
    /// Fields set to repeated text.
    public let setRepeated: [RepeatedText]
    /// Fields whose value is raw text spliced into the body.
    public let setRawJSON: [RawValue]
    /// Fields set to nested empty arrays.
    public let setNestedArrays: [NestedArrays]
    /// A body replacing the base, if any.
    public let replacement: Replacement?
    /// The Content-Type header to send, `nil` for none.
    public let contentType: String?

    /// The largest body `setRepeated` may build (bytes), so that a hostile catalog cannot exhaust
    /// memory.
    public static let maxRepeatedBytes = 32 * 1024 * 1024

    /// Applies the mutation to a base payload.
    ///
    /// - Parameter base: The catalog's `basePayload`, usually with a run-unique `microchipNumber`.
    /// - Returns: The body and Content-Type to send.
    /// - Throws: ``CaseMutationError`` when a removed key is not in `base`.
    public func apply(to base: JSONObject) throws(CaseMutationError) -> CaseBody {
        if let replacement {
            switch replacement {
            case .json(let value): return CaseBody(content: .json(value), contentType: contentType)
            case .raw(let text): return CaseBody(content: .raw(text), contentType: contentType)
            case .empty: return CaseBody(content: .empty, contentType: contentType)
            }
        }
        var body = base
        for key in remove {
            guard body.contains(key: key) else { throw CaseMutationError(key: key) }
            body[key] = nil
        }
        for member in set.members { body[member.key] = member.value }
        for repeated in setRepeated {
            body[repeated.field] = .string(String(repeating: repeated.text, count: repeated.count))
        }
        let spliced = setRawJSON.map { ($0.field, $0.text) } + setNestedArrays.map { ($0.field, $0.text) }
        guard !spliced.isEmpty else { return CaseBody(content: .json(.object(body)), contentType: contentType) }
        var rawValues: [String: String] = [:]
        for (field, text) in spliced {
            if !body.contains(key: field) { body[field] = .null }
            rawValues[field] = text
        }
        var text = "{"
        for (index, member) in body.members.enumerated() {
            if index > 0 { text += "," }
            text += JSONValue.string(member.key).serialized() + ":" + (rawValues[member.key] ?? member.value.serialized())
        }
        return CaseBody(content: .raw(text + "}"), contentType: contentType)
    }

    static func decode(_ node: CatalogNode) throws(CatalogDecodingError) -> CaseMutation {
        try node.requireOnlyKeys([
            "remove", "set", "setRepeated", "setRawJSON", "setNestedArrays", "jsonBody", "rawBody", "emptyBody", "contentType",
        ])
        let remove = try node.optionalMember("remove")?.stringList() ?? []
        let set = try node.optionalMember("set")?.object() ?? JSONObject()
        var repeated: [RepeatedText] = []
        if let repeatedNode = try node.optionalMember("setRepeated") {
            for (field, value) in try repeatedNode.object().members {
                let spec = repeatedNode.child(key: field, value: value)
                try spec.requireOnlyKeys(["text", "count"])
                let text = try spec.member("text").nonEmptyString()
                let limit = maxRepeatedBytes / max(text.utf8.count, 1)
                let count = try spec.member("count").int(in: 0...limit)
                repeated.append(RepeatedText(field: field, text: text, count: count))
            }
        }
        var rawValues: [RawValue] = []
        if let rawNode = try node.optionalMember("setRawJSON") {
            for (field, value) in try rawNode.object().members {
                rawValues.append(RawValue(field: field, text: try rawNode.child(key: field, value: value).nonEmptyString()))
            }
        }
        var nested: [NestedArrays] = []
        if let nestedNode = try node.optionalMember("setNestedArrays") {
            for (field, value) in try nestedNode.object().members {
                let depth = try nestedNode.child(key: field, value: value).int(in: 1...(maxRepeatedBytes / 2))
                guard !rawValues.contains(where: { $0.field == field }) else {
                    throw nestedNode.error("\(field) is set by both setRawJSON and setNestedArrays")
                }
                nested.append(NestedArrays(field: field, depth: depth))
            }
        }
        var replacements: [(String, Replacement)] = []
        if let json = try node.optionalMember("jsonBody") { replacements.append(("jsonBody", .json(json.value))) }
        if let raw = try node.optionalMember("rawBody") { replacements.append(("rawBody", .raw(try raw.string()))) }
        if let empty = try node.optionalMember("emptyBody") {
            guard try empty.bool() else { throw empty.error("emptyBody is either true or left out") }
            replacements.append(("emptyBody", .empty))
        }
        if replacements.count > 1 {
            throw node.error("\(replacements.map(\.0).joined(separator: " and ")) exclude each other")
        }
        if let first = replacements.first, !remove.isEmpty || !set.isEmpty || !repeated.isEmpty || !rawValues.isEmpty || !nested.isEmpty {
            throw node.error("\(first.0) replaces the body and cannot be combined with remove, set, setRepeated, setRawJSON or setNestedArrays")
        }
        var contentType: String? = jsonContentType
        if let typeNode = try node.optionalMember("contentType") {
            contentType = typeNode.value.isNull ? nil : try typeNode.nonEmptyString()
        }
        return CaseMutation(
            remove: remove, set: set, setRepeated: repeated, setRawJSON: rawValues, setNestedArrays: nested,
            replacement: replacements.first?.1, contentType: contentType)
    }
}

/// A mutation removed a key the base payload does not have.
public struct CaseMutationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key that was to be removed.
    public let key: String

    /// Names the missing key.
    public var description: String { "the mutation removes \"\(key)\", which the base payload does not have" }
}

/// The request body and Content-Type header a case sends.
public struct CaseBody: Sendable, Hashable {
    /// What the body holds.
    public enum Content: Sendable, Hashable {
        /// A JSON document (serialised compactly, members in order).
        case json(JSONValue)
        /// Text sent verbatim (not valid JSON on purpose).
        case raw(String)
        /// A zero-length body.
        case empty
    }

    /// The body.
    public let content: Content
    /// The Content-Type header value, or `nil` to send none.
    public let contentType: String?

    /// Creates a body.
    public init(content: Content, contentType: String?) {
        self.content = content
        self.contentType = contentType
    }

    /// The bytes to send.
    public var bytes: [UInt8] {
        switch content {
        case .json(let value): value.serializedBytes()
        case .raw(let text): Array(text.utf8)
        case .empty: []
        }
    }

    /// The JSON document, when the body is one.
    public var json: JSONValue? {
        if case .json(let value) = content { return value }
        return nil
    }
}
