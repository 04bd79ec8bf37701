import PetSpotJSON
import PetSpotRegex

/// One JSON Schema keyword: how it compiles from the schema and how it checks an instance.
///
/// Each keyword is one final class in one file under `Keywords/`, listed once in
/// ``Draft202012/keywords`` (the vocabulary table the compiler walks). A compiled keyword is
/// immutable (`let`s of `Sendable` types only) and stores what it needs, precomputed, including
/// its own ``KeywordLocation``. It subclasses ``CompiledKeyword``, so that the fast path calls
/// it in place, through one vtable entry, without copying it or counting references. It has two
/// ways to check an instance, which must agree on valid versus invalid:
///
/// - ``isValid(_:_:)``, the fast path: no errors, no annotations, stop at the first failure;
/// - ``validate(_:_:_:)``: report each failure located (``Evaluator/report(_:_:at:)``, a no-op
///   unless the evaluator collects errors), record what it evaluated into `evaluated` when given
///   (for `unevaluated*`), and go on after a failure when collecting.
///
/// A keyword that does not apply to the instance's type says nothing (returns true).
protocol SchemaKeyword: CompiledKeyword, Sendable {
    /// The keyword as written in a schema.
    static var name: String { get }
    /// Every name this type compiles from (default: ``name``). The object-member applicators
    /// are one keyword with three names, evaluated in one pass over the members.
    static var names: [String] { get }
    /// The vocabulary that must be in force for the keyword to apply; nil for keywords that
    /// always compile (the core's references, `format`, which decides itself).
    static var vocabulary: Vocabularies? { get }
    /// Where the keyword runs among its schema's keywords (default: where it is written).
    static var order: KeywordOrder { get }
    /// Whether the keyword reads the annotations of its siblings (`unevaluated*`), so that its
    /// schema must collect them.
    static var needsAnnotations: Bool { get }

    /// The compiled keyword, or nil when it asserts nothing (`uniqueItems: false`, a `format`
    /// that only annotates).
    /// - Parameters:
    ///   - value: The keyword's value in the schema.
    ///   - schema: The schema the keyword is in: its siblings, its location, subschema compilation.
    /// - Throws: ``SchemaCompileError`` for a value of the wrong shape or an unresolvable reference.
    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> Self?

    /// Whether `instance` passes, on the fast path (see the type's documentation).
    /// - Throws: ``SchemaEvaluationError`` when the evaluation cannot be decided.
    func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool

    /// Whether `instance` passes, reporting located errors and recording annotations into
    /// `evaluated` when it is given (see the type's documentation).
    /// - Throws: ``SchemaEvaluationError`` when the evaluation cannot be decided.
    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool
}

extension SchemaKeyword {
    static var names: [String] { [name] }
    static var order: KeywordOrder { .asWritten }
    static var needsAnnotations: Bool { false }
}

/// The base class of every keyword: the one method the fast path calls, through a vtable entry on
/// an unretained reference (``SchemaNode/unretainedKeywords``), copying nothing and counting no
/// references. (A protocol requirement called on an existential read from an array copies the
/// existential first: a retain and a release per keyword, and value-witness calls.)
///
/// `@unchecked Sendable` because a non-final class cannot be checked; it has no state, and its
/// subclasses, the keywords, hold `let`s of `Sendable` types only (`KeywordTableTests` fails
/// on a `var` in `Keywords/`). Each subclass restates `@unchecked Sendable`, as Swift requires.
class CompiledKeyword: @unchecked Sendable {
    init() {}

    /// The keyword's ``SchemaKeyword/isValid(_:_:)``; every keyword overrides it.
    func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        preconditionFailure("\(Self.self) does not override isValid")
    }
}

/// Where a keyword runs among the keywords of its schema. Keywords of one order run in the
/// order they are written.
enum KeywordOrder: Int, Comparable, Sendable {
    /// `type`: the cheapest check that rules out most wrong instances.
    case first
    /// `required`: cheap and decisive, right after `type`.
    case second
    /// Every other keyword, in the order written.
    case asWritten
    /// `unevaluated*`: after every keyword whose annotations they read.
    case last

    static func < (left: KeywordOrder, right: KeywordOrder) -> Bool { left.rawValue < right.rawValue }
}

/// A keyword's place: its name (the step it adds to the evaluation path) and its absolute URI
/// (`absoluteKeywordLocation`), computed once at compile time.
struct KeywordLocation: Sendable {
    let name: String
    let absolute: String
}

/// What a keyword's ``SchemaKeyword/compile(_:in:)`` sees of its schema: the sibling keywords,
/// the location, the vocabularies in force and the compiler, to compile subschemas and resolve
/// references. Errors it makes name the keyword's location.
struct KeywordContext {
    /// The schema object the keyword is in.
    let object: JSONObject
    /// Where the schema is.
    let location: SchemaLocation
    /// The schema's absolute URI (`base#pointer`).
    let absoluteLocation: String
    /// The base URI in force, for references.
    let base: String
    let vocabularies: Vocabularies
    let compiler: SchemaCompiler

    /// Whether `format` asserts here: asked for in the options, or by the meta-schema.
    var assertsFormat: Bool { compiler.options.assertFormat || vocabularies.contains(.formatAssertion) }

    /// The location of `keyword` of this schema.
    func location(of keyword: String) -> KeywordLocation {
        KeywordLocation(name: keyword, absolute: absoluteLocation + "/" + URIText.escapePointerToken(keyword))
    }

    /// An error at `keyword` of this schema.
    func fail(_ keyword: String, _ message: String) -> SchemaCompileError {
        SchemaCompileError(location: location.key + "/" + URIText.escapePointerToken(keyword), message: message)
    }

    /// The subschema at `keyword` (and `tokens` below it), compiled.
    func subschema(_ keyword: String, _ tokens: String...) throws(SchemaCompileError) -> SchemaNode {
        var target = location
        target.pointer.append(keyword)
        target.pointer.append(contentsOf: tokens)
        return try compiler.node(at: target, vocabularies: vocabularies)
    }

    /// The subschema of sibling `keyword`, compiled, or nil when the schema does not have it.
    func optionalSubschema(_ keyword: String) throws(SchemaCompileError) -> SchemaNode? {
        object[keyword] == nil ? nil : try subschema(keyword)
    }

    /// A non-empty array of schemas, compiled.
    func schemaArray(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> [SchemaNode] {
        guard case .array(let items) = value, !items.isEmpty else {
            throw fail(keyword, "\(keyword) must be a non-empty array of schemas")
        }
        var nodes: [SchemaNode] = []
        for position in items.indices { nodes.append(try subschema(keyword, String(position))) }
        return nodes
    }

    /// An object of schemas, compiled, in the order written.
    func schemaMap(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> [(name: String, node: SchemaNode)] {
        guard case .object(let members) = value else { throw fail(keyword, "\(keyword) must be an object of schemas") }
        var result: [(name: String, node: SchemaNode)] = []
        for member in members.members { result.append((member.key, try subschema(keyword, member.key))) }
        return result
    }

    func nonNegativeInteger(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> Int {
        guard case .number(let number) = value, number.isInteger, !number.isNegative else {
            throw fail(keyword, "\(keyword) must be a non-negative integer")
        }
        return number.intValue ?? Int.max
    }

    func number(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> JSONNumber {
        guard case .number(let number) = value else { throw fail(keyword, "\(keyword) must be a number") }
        return number
    }

    func strings(_ keyword: String, _ value: JSONValue, _ message: String) throws(SchemaCompileError) -> [String] {
        guard case .array(let items) = value else { throw fail(keyword, message) }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw fail(keyword, message) }
            result.append(text)
        }
        return result
    }

    func pattern(_ keyword: String, _ source: String) throws(SchemaCompileError) -> RegexPattern {
        do {
            return try RegexPattern(source)
        } catch {
            throw fail(keyword, "invalid regular expression \"\(source)\": \(error.message)")
        }
    }
}
