import PetSpotJSON

/// A text field over its `x-maxCharacters` cap in the client-payload schema.
public struct CharacterLimitViolation: Sendable, Hashable, CustomStringConvertible {
    /// The payload key.
    public let field: String
    /// The cap, in Swift `Character`s (grapheme clusters).
    public let maxCharacters: Int
    /// The value's length in `Character`s.
    public let characters: Int

    /// `description has 501 characters, at most 500 allowed`.
    public var description: String { "\(field) has \(characters) characters, at most \(maxCharacters) allowed" }
}

extension ContractDocuments {
    /// The annotation keyword carrying a cap in Swift `Character`s, which JSON Schema's
    /// `maxLength` (code points) cannot express without rejecting valid text.
    public static let maxCharactersKeyword = "x-maxCharacters"

    /// The character caps of the client-payload schema by field (`description`: 500,
    /// `reward`: 120), read from its `x-maxCharacters` annotations.
    public var characterLimits: [String: Int] {
        var limits: [String: Int] = [:]
        for branch in self[.clientPayload]["allOf"]?.arrayValue ?? [] {
            for member in branch["properties"]?.objectValue?.members ?? [] {
                if let cap = member.value[Self.maxCharactersKeyword]?.numberValue?.intValue {
                    limits[member.key] = cap
                }
            }
        }
        return limits
    }

    /// The string fields of `payload` longer than their cap, counting `Character`s as the app
    /// does; checks the one client rule the schema cannot.
    ///
    /// - Parameter payload: A create payload.
    /// - Returns: One violation per field over its cap, in payload order.
    public func characterLimitViolations(in payload: JSONObject) -> [CharacterLimitViolation] {
        let limits = characterLimits
        return payload.members.compactMap { member in
            guard let cap = limits[member.key], let text = member.value.stringValue, text.count > cap else { return nil }
            return CharacterLimitViolation(field: member.key, maxCharacters: cap, characters: text.count)
        }
    }
}
