import PetSpotJSON

/// JSON Schema draft 2020-12: compile a schema once, then validate many instances against it.
///
/// ```swift
/// let schema = try JSONSchema.compile([
///     "type": "object",
///     "properties": ["age": ["type": "integer", "minimum": 1]],
///     "required": ["age"],
/// ])
/// schema.validity(of: ["age": 3])            // .valid
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
        let compiler = SchemaCompiler(registry: registry, options: options)
        let root = try compiler.compileRoot(schema, defaultURI: options.defaultBaseURI)
        let (resources, cycleTargets) = try compiler.finish()
        return CompiledSchema(
            root: root, cycleTargets: cycleTargets, resources: resources,
            usesDynamicScope: compiler.usesDynamicScope, options: options)
    }
}

/// Settings for ``JSONSchema/compile(_:registry:options:)``.
public struct SchemaOptions: Sendable {
    /// Whether `format` is an assertion (true) or only an annotation (false, the 2020-12 default).
    public var assertFormat: Bool
    /// Deepest chain of nested schema evaluations before evaluation stops with a
    /// ``SchemaEvaluationError`` (guards against `$ref` loops that never consume the instance);
    /// an instance nested deeper than this is undecided, not invalid.
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
///
/// Evaluation has three outcomes, not two: valid, invalid, or undecided, when the validator could
/// not reach a verdict (a `pattern` whose search ran out of its step budget, or evaluation nested
/// deeper than ``SchemaOptions/maxEvaluationDepth``). An undecided evaluation is a
/// ``SchemaEvaluationError``, never "invalid": ``validity(of:)`` and ``validate(_:)`` report it
/// as a third outcome; ``isValid(_:)`` throws it.
public struct CompiledSchema: Sendable {
    let root: SchemaNode
    /// The schemas that forwarding nodes (reference cycles) stand for, by index.
    let cycleTargets: [SchemaNode]
    let resources: [SchemaResource]
    let usesDynamicScope: Bool
    let options: SchemaOptions

    /// Whether `instance` is valid, invalid, or undecided (with the evaluation error), stopping
    /// at the first failure without building errors.
    public func validity(of instance: JSONValue) -> Validity {
        var evaluator = Evaluator(self, collectErrors: false)
        let verdict: Validity
        do {
            verdict = try evaluator.run(root, instance) ? .valid : .invalid
        } catch {
            verdict = .undecided(located(error, in: instance))
        }
        #if DEBUG
        checkAgainstSafePath(verdict, instance)
        #endif
        return verdict
    }

    #if DEBUG
    /// Debug builds only: the fast path (each keyword's `isValid`) must agree with the
    /// collecting evaluator (each keyword's `validate`). Only a valid/invalid disagreement is a bug:
    /// the collecting evaluator keeps going after a failure, so it may meet an undecidable
    /// pattern the fast path never reached.
    private func checkAgainstSafePath(_ verdict: Validity, _ instance: JSONValue) {
        let safe = validate(instance).outcome
        switch (verdict, safe) {
        case (.valid, .invalid), (.invalid, .valid):
            preconditionFailure("validator fast path says \(verdict), safe path says \(safe) for \(instance.serialized())")
        default:
            break
        }
    }
    #endif

    /// Whether `instance` is valid.
    ///
    /// - Throws: ``SchemaEvaluationError`` when the evaluation cannot be decided (a pattern's
    ///   step budget ran out, or the instance nests too deep): no verdict is ever guessed.
    public func isValid(_ instance: JSONValue) throws(SchemaEvaluationError) -> Bool {
        try validity(of: instance).decided()
    }

    /// Validates `instance` and returns every error, located; or, when the evaluation cannot
    /// be decided, the evaluation error (see ``ValidationResult/outcome``).
    public func validate(_ instance: JSONValue) -> ValidationResult {
        var evaluator = Evaluator(self, collectErrors: true)
        do {
            let valid = try evaluator.run(root, instance)
            return ValidationResult(isValid: valid, errors: valid ? [] : evaluator.errors)
        } catch {
            return ValidationResult(undecided: error)
        }
    }

    /// `error` from the fast path, located by re-running with paths kept (the same evaluation
    /// order meets the same undecidable keyword).
    private func located(_ error: SchemaEvaluationError, in instance: JSONValue) -> SchemaEvaluationError {
        guard !error.isLocated else { return error }
        var evaluator = Evaluator(self, collectErrors: true)
        do {
            _ = try evaluator.run(root, instance)
        } catch {
            return error
        }
        return error
    }
}
