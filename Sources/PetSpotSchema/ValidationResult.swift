import PetSpotJSON

/// The verdict of ``CompiledSchema/validity(of:)``: valid, invalid, or no verdict at all.
public enum Validity: Sendable, Hashable {
    /// The instance is valid.
    case valid
    /// The instance is invalid.
    case invalid
    /// The validator could not decide; this is not a verdict about the instance.
    case undecided(SchemaEvaluationError)

    /// `true` for valid, `false` for invalid.
    /// - Throws: The ``SchemaEvaluationError`` of an undecided evaluation.
    public func decided() throws(SchemaEvaluationError) -> Bool {
        switch self {
        case .valid: true
        case .invalid: false
        case .undecided(let error): throw error
        }
    }
}

/// Why an evaluation ended without a verdict. It is an error of the validator's evaluation, not
/// of the instance: the instance may well be valid.
public struct SchemaEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stopped the evaluation.
    public enum Reason: Sendable, Hashable {
        /// The search for a `pattern` or `patternProperties` regular expression ran out of its
        /// step budget (a backtracking-heavy pattern with backreferences or lookarounds) before
        /// it proved a match or its absence.
        case patternStepBudgetExhausted(pattern: String)
        /// Schemas nested deeper than ``SchemaOptions/maxEvaluationDepth`` (a `$ref` loop that
        /// consumes nothing, or an instance nested that deep).
        case evaluationTooDeep(limit: Int)
    }

    /// What stopped the evaluation.
    public let reason: Reason
    /// JSON Pointer to the part of the instance being evaluated (`""` for the whole instance).
    public let instanceLocation: String
    /// JSON Pointer of the keyword along the evaluation path (`/properties/code/pattern`).
    public let keywordLocation: String
    /// Absolute URI of the keyword in its schema resource, when known.
    public let absoluteKeywordLocation: String?
    /// Whether the locations were recorded (the fast path keeps no paths; the compiled schema
    /// locates its errors before returning them).
    let isLocated: Bool

    /// Creates an error.
    public init(reason: Reason, instanceLocation: String, keywordLocation: String, absoluteKeywordLocation: String?) {
        self.init(reason: reason, instanceLocation: instanceLocation, keywordLocation: keywordLocation,
                  absoluteKeywordLocation: absoluteKeywordLocation, isLocated: true)
    }

    init(reason: Reason, instanceLocation: String, keywordLocation: String, absoluteKeywordLocation: String?, isLocated: Bool) {
        self.reason = reason
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.isLocated = isLocated
    }

    /// The regular expression that could not be decided, if that is the reason.
    public var pattern: String? {
        if case .patternStepBudgetExhausted(let pattern) = reason { return pattern }
        return nil
    }

    /// A readable explanation, saying that no verdict was reached.
    public var message: String {
        switch reason {
        case .patternStepBudgetExhausted(let pattern):
            "undecided: the regular expression \(pattern) ran out of its step budget before matching or failing (an evaluation error, not a validation failure)"
        case .evaluationTooDeep(let limit):
            "undecided: evaluation nested deeper than \(limit) schemas (a reference loop, or an instance nested that deep; an evaluation error, not a validation failure)"
        }
    }

    /// `<instance location>: <message> [<keyword location>]`, with `(root)` for the whole instance.
    public var description: String {
        "\(instanceLocation.isEmpty ? "(root)" : instanceLocation): \(message) [\(keywordLocation)]"
    }
}

/// One failed assertion: where in the instance, which keyword, and why.
public struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// JSON Pointer to the failing part of the instance (`""` for the whole instance).
    public let instanceLocation: String
    /// JSON Pointer of the keyword along the evaluation path, through `$ref`s (`/properties/age/minimum`).
    public let keywordLocation: String
    /// Absolute URI of the keyword in its schema resource (`https://example.com/s#/properties/age/minimum`).
    public let absoluteKeywordLocation: String?
    /// A readable explanation.
    public let message: String

    /// Creates an error.
    public init(instanceLocation: String, keywordLocation: String, absoluteKeywordLocation: String?, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.message = message
    }

    /// `<instance location>: <message> [<keyword location>]`, with `(root)` for the whole instance.
    public var description: String {
        "\(instanceLocation.isEmpty ? "(root)" : instanceLocation): \(message) [\(keywordLocation)]"
    }
}

/// The outcome of ``CompiledSchema/validate(_:)``: valid, invalid with the flat list of errors
/// (shaped like the specification's "basic" output format), or undecided.
///
/// Read ``outcome`` to tell the three apart. ``isValid`` and ``errors`` stay for callers written
/// before there were three: an undecided result has `isValid == false` and, so that such callers
/// report it rather than pass it, one entry in ``errors`` whose message begins "undecided:".
public struct ValidationResult: Sendable, Hashable {
    /// Valid, invalid or undecided.
    public enum Outcome: Sendable, Hashable {
        /// The instance is valid.
        case valid
        /// The instance is invalid; ``ValidationResult/errors`` says why.
        case invalid
        /// The validator could not decide; not a verdict about the instance.
        case undecided(SchemaEvaluationError)
    }

    /// Valid, invalid or undecided.
    public let outcome: Outcome
    /// Every error, in evaluation order; empty when valid; for an undecided result, the
    /// evaluation error as one entry. Errors of subschemas that did not decide the outcome (a
    /// failed `anyOf` branch when another passed) are not listed.
    public let errors: [ValidationError]

    /// Whether the instance is proven valid (`false` when invalid or undecided).
    public var isValid: Bool { outcome == .valid }

    /// The evaluation error of an undecided result, else nil.
    public var evaluationError: SchemaEvaluationError? {
        if case .undecided(let error) = outcome { return error }
        return nil
    }

    /// A valid or invalid result.
    public init(isValid: Bool, errors: [ValidationError]) {
        self.outcome = isValid ? .valid : .invalid
        self.errors = errors
    }

    /// An undecided result.
    public init(undecided error: SchemaEvaluationError) {
        self.outcome = .undecided(error)
        self.errors = [ValidationError(
            instanceLocation: error.instanceLocation, keywordLocation: error.keywordLocation,
            absoluteKeywordLocation: error.absoluteKeywordLocation, message: error.message)]
    }

    /// The result in the "basic" output format:
    /// `{"valid": false, "errors": [{"keywordLocation", "absoluteKeywordLocation", "instanceLocation", "error"}]}`.
    public var basicOutput: JSONValue {
        var output = JSONObject()
        output["valid"] = .bool(isValid)
        if !isValid {
            output["errors"] = .array(errors.map { error in
                var entry = JSONObject()
                entry["keywordLocation"] = .string(error.keywordLocation)
                if let absolute = error.absoluteKeywordLocation { entry["absoluteKeywordLocation"] = .string(absolute) }
                entry["instanceLocation"] = .string(error.instanceLocation)
                entry["error"] = .string(error.message)
                return .object(entry)
            })
        }
        return .object(output)
    }
}
