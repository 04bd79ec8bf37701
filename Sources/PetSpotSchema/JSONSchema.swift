import PetSpotJSON

/// JSON Schema draft 2020-12: compile a schema once, then validate many instances against it.
///
/// ```swift
/// let schema = try JSONSchema.compile([
///     "type": "object",
///     "properties": ["age": ["type": "integer", "minimum": 1]],
///     "required": ["age"],
/// ])
/// schema.isValid(["age": 3])                 // true
/// schema.validate(["age": 0]).errors[0]      // /age: 0 is less than the minimum 1
/// ```
///
/// Compilation resolves every `$ref` (inside the schema or from the ``SchemaRegistry``; never the
/// network), precompiles patterns and orders keywords for a cheap valid path. The result is an
/// immutable, `Sendable` ``CompiledSchema`` that any number of threads may use at once.
/// Every keyword of the core, applicator, unevaluated, validation, format-annotation, content and
/// meta-data vocabularies is implemented; `format` asserts only when
/// ``SchemaOptions/assertFormat`` is set (or the meta-schema asks for format assertion).
public enum JSONSchema {
    /// Compiles `schema` for validation.
    /// - Parameters:
    ///   - schema: The schema document (an object or a Boolean).
    ///   - registry: Documents that references outside `schema` may resolve to.
    ///   - options: Format assertion, depth bound and the base URI of a schema without `$id`.
    /// - Returns: The compiled schema.
    /// - Throws: ``SchemaCompileError`` for an unresolvable reference, an invalid regular
    ///   expression or a keyword with a value of the wrong shape.
    public static func compile(
        _ schema: JSONValue,
        registry: SchemaRegistry = SchemaRegistry(),
        options: SchemaOptions = SchemaOptions()
    ) throws(SchemaCompileError) -> CompiledSchema {
        var compiler = _Compiler(registry: registry, options: options)
        let root = try compiler.compileRoot(schema, defaultURI: options.defaultBaseURI)
        compiler.linkReferenceChains()
        return CompiledSchema(root: root, usesDynamicScope: compiler.usesDynamicScope, options: options)
    }
}

/// Settings for ``JSONSchema/compile(_:registry:options:)``.
public struct SchemaOptions: Sendable {
    /// Whether `format` is an assertion (true) or only an annotation (false, the 2020-12 default).
    public var assertFormat: Bool
    /// Deepest chain of nested schema evaluations before validation gives up with an error
    /// (guards against `$ref` loops that never consume the instance).
    public var maxEvaluationDepth: Int
    /// The base URI of a root schema without `$id`.
    public var defaultBaseURI: String

    /// Creates options; the defaults annotate formats and allow 300 nested evaluations.
    public init(assertFormat: Bool = false, maxEvaluationDepth: Int = 300, defaultBaseURI: String = "urn:petspot:schema") {
        self.assertFormat = assertFormat
        self.maxEvaluationDepth = maxEvaluationDepth
        self.defaultBaseURI = defaultBaseURI
    }
}

/// Why a schema could not be compiled.
public struct SchemaCompileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Absolute URI of the offending schema location (`base#/json/pointer`).
    public let location: String
    /// What is wrong there.
    public let message: String

    /// Creates an error for `location`.
    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    /// `invalid schema at <location>: <message>`.
    public var description: String { "invalid schema at \(location): \(message)" }
}

/// A schema ready to validate instances; immutable and safe to share across threads.
public struct CompiledSchema: Sendable {
    let root: _Node
    let usesDynamicScope: Bool
    let options: SchemaOptions

    /// Whether `instance` is valid, stopping at the first failure (no error is built).
    public func isValid(_ instance: JSONValue) -> Bool {
        var evaluator = _Evaluator(collectErrors: false, usesDynamicScope: usesDynamicScope, maxDepth: options.maxEvaluationDepth)
        return evaluator.run(root, instance)
    }

    /// Validates `instance` and returns every error, located.
    public func validate(_ instance: JSONValue) -> ValidationResult {
        var evaluator = _Evaluator(collectErrors: true, usesDynamicScope: usesDynamicScope, maxDepth: options.maxEvaluationDepth)
        let valid = evaluator.run(root, instance)
        return ValidationResult(isValid: valid, errors: valid ? [] : evaluator.errors)
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

/// The outcome of ``CompiledSchema/validate(_:)``: validity and the flat list of errors, shaped
/// like the specification's "basic" output format.
public struct ValidationResult: Sendable, Hashable {
    /// Whether the instance is valid.
    public let isValid: Bool
    /// Every error, in evaluation order; empty when valid. Errors of subschemas that did not
    /// decide the outcome (a failed `anyOf` branch when another passed) are not listed.
    public let errors: [ValidationError]

    /// Creates a result.
    public init(isValid: Bool, errors: [ValidationError]) {
        self.isValid = isValid
        self.errors = errors
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
