import PetSpotJSON
import PetSpotRegex

/// What the keywords of one schema evaluated, for `unevaluatedProperties`/`unevaluatedItems`.
/// A class because sibling keywords and subschemas all add to the same record.
/// Only allocated while some enclosing schema needs annotations: the `isValid` path of a
/// schema without `unevaluated*` never creates one.
final class EvaluatedLocations {
    var properties: Set<String> = []
    var allProperties = false
    /// Items `0..<itemPrefix` were evaluated (by `prefixItems`).
    var itemPrefix = 0
    /// Items matched by `contains`.
    var itemIndexes: Set<Int> = []
    var allItems = false

    func merge(_ other: EvaluatedLocations) {
        if other.allProperties { allProperties = true } else if !other.properties.isEmpty { properties.formUnion(other.properties) }
        if other.allItems { allItems = true }
        itemPrefix = max(itemPrefix, other.itemPrefix)
        if !other.itemIndexes.isEmpty { itemIndexes.formUnion(other.itemIndexes) }
    }
}

/// One step of a JSON Pointer, kept unformatted until an error needs it.
enum PathStep {
    case none
    case key(String)
    case index(Int)
}

/// Runs a compiled schema against one instance, schema by schema; each keyword checks itself
/// (``SchemaKeyword``) and calls back here for its subschemas. In fast mode it stops at the
/// first failure and builds nothing (keywords' ``SchemaKeyword/isValid(_:_:)``); in collecting
/// mode it keeps the instance and keyword paths and collects errors
/// (``SchemaKeyword/validate(_:_:_:)``). A struct, not a class: its counters are mutated on every
/// schema, and class properties would pay a dynamic exclusivity check each time.
///
/// An evaluation that cannot be decided (a pattern out of step budget, nesting beyond
/// ``SchemaOptions/maxEvaluationDepth``) throws ``SchemaEvaluationError`` and so never yields a
/// verdict. In fast mode the error carries no locations (no paths are kept); the caller
/// re-runs in collecting mode to locate it.
struct Evaluator {
    /// Whether errors are collected (and evaluation goes on after a failure).
    let collectErrors: Bool
    let usesDynamicScope: Bool
    let maxDepth: Int
    /// The schemas that forwarding nodes stand for, by index.
    let cycleTargets: [SchemaNode]
    let resources: [SchemaResource]
    /// The errors reported so far, in evaluation order.
    private(set) var errors: [ValidationError] = []
    private var instancePath: [String] = []
    private var keywordPath: [String] = []
    /// Indexes of the resources entered, outermost first.
    private var dynamicScope: [Int] = []
    private var depth = 0

    init(_ schema: CompiledSchema, collectErrors: Bool) {
        self.collectErrors = collectErrors
        self.usesDynamicScope = schema.usesDynamicScope
        self.maxDepth = schema.options.maxEvaluationDepth
        self.cycleTargets = schema.cycleTargets
        self.resources = schema.resources
    }

    mutating func run(_ root: SchemaNode, _ instance: JSONValue) throws(SchemaEvaluationError) -> Bool {
        try evaluate(root, instance, nil)
    }

    // MARK: Schemas

    /// Whether `instance` is valid against the subschema `node`, without paths or annotations:
    /// what a keyword's ``SchemaKeyword/isValid(_:_:)`` calls for its subschemas.
    @inline(__always)
    mutating func isValid(_ node: SchemaNode, _ instance: borrowing JSONValue) throws(SchemaEvaluationError) -> Bool {
        try evaluate(node, instance, nil)
    }

    /// ``isValid(_:_:)`` of the subschema at `position` of `subschemas`, read without reference counting.
    @inline(__always)
    mutating func isValid(_ subschemas: Subschemas, _ position: Int, _ instance: borrowing JSONValue) throws(SchemaEvaluationError) -> Bool {
        try subschemas.unretainedNodes[position].withObject { node throws(SchemaEvaluationError) in try evaluate(node, instance, nil) }
    }

    /// Evaluates `node`; when `evaluated` is given, merges what it evaluated into it (if valid).
    private mutating func evaluate(_ node: SchemaNode, _ instance: borrowing JSONValue, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        if let forward = node.forward { return try evaluate(cycleTargets[forward], instance, evaluated) }
        if let boolean = node.booleanValue {
            if !boolean { reportFalse(node) }
            return boolean
        }
        if collectErrors || evaluated != nil || node.tracksEvaluation || usesDynamicScope {
            return try evaluateFully(node, instance, evaluated)
        }
        // The fast path: no paths, no annotations, no dynamic scope. A schema that is only a
        // `$ref` is skipped straight to its (precomputed, loop-free) final target.
        if let target = node.unretainedReferenceTarget {
            return try target.withObject { target throws(SchemaEvaluationError) in try evaluateFast(target, instance) }
        }
        return try evaluateFast(node, instance)
    }

    /// The fast path of `target`, an object or Boolean schema (not a forwarding node).
    private mutating func evaluateFast(_ target: SchemaNode, _ instance: borrowing JSONValue) throws(SchemaEvaluationError) -> Bool {
        if let boolean = target.booleanValue { return boolean }
        if target.tracksEvaluation { return try evaluateFully(target, instance, nil) }
        depth += 1
        if depth > maxDepth { throw tooDeep(target) }
        // Each keyword is called in place, without reference counting.
        let keywords = target.unretainedKeywords
        for index in keywords.indices
        where try !keywords[index].withObject({ keyword throws(SchemaEvaluationError) in try keyword.isValid(instance, &self) }) {
            depth -= 1
            return false
        }
        depth -= 1
        return true
    }

    private mutating func evaluateFully(_ node: SchemaNode, _ instance: borrowing JSONValue, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        depth += 1
        defer { depth -= 1 }
        if depth > maxDepth { throw tooDeep(node) }
        var pushed = false
        if usesDynamicScope && dynamicScope.last != node.resource {
            dynamicScope.append(node.resource)
            pushed = true
        }
        defer { if pushed { dynamicScope.removeLast() } }

        let local: EvaluatedLocations? = evaluated != nil || node.tracksEvaluation ? EvaluatedLocations() : nil
        var valid = true
        let keywordList = node.keywords[...]
        let keywords = keywordList.span
        for index in keywords.indices where try !keywords[index].validate(instance, &self, local) {
            valid = false
            if !collectErrors { break }
        }
        if valid, let evaluated, let local { evaluated.merge(local) }
        return valid
    }

    /// Evaluates the subschema `node` of the keyword at `location` (below it at `sub`), on the
    /// instance's member or item at `step`: what a keyword's ``SchemaKeyword/validate(_:_:_:)``
    /// calls for its subschemas. Keeps the paths when errors are collected; when `evaluated` is
    /// given, merges what the subschema evaluated into it (if valid).
    @inline(__always)
    mutating func validate(
        _ node: SchemaNode, _ instance: borrowing JSONValue, _ location: KeywordLocation, _ sub: PathStep = .none,
        at step: PathStep = .none, into evaluated: EvaluatedLocations? = nil
    ) throws(SchemaEvaluationError) -> Bool {
        guard collectErrors else { return try evaluate(node, instance, evaluated) }
        keywordPath.append(location.name)
        if let text = text(of: sub) { keywordPath.append(text) }
        let pushedInstance = text(of: step).map { instancePath.append($0); return true } ?? false
        defer {
            if case .none = sub {} else { keywordPath.removeLast() }
            keywordPath.removeLast()
            if pushedInstance { instancePath.removeLast() }
        }
        return try evaluate(node, instance, evaluated)
    }

    /// The target of a `$dynamicRef` to `anchor`: the outermost schema resource in the dynamic
    /// scope with that dynamic anchor, if any.
    func dynamicTarget(anchor: String) -> SchemaNode? {
        for resource in dynamicScope {
            if let candidate = resources[resource].dynamicAnchors[anchor] { return candidate }
        }
        return nil
    }

    // MARK: Errors

    /// The error for evaluation nested deeper than the bound, at `node`.
    private func tooDeep(_ node: SchemaNode) -> SchemaEvaluationError {
        undecided(absoluteLocation: node.absoluteLocation, keyword: nil, .evaluationTooDeep(limit: maxDepth))
    }

    /// An evaluation error for the keyword at `location`, located when the paths are kept.
    func undecided(_ location: KeywordLocation, _ reason: SchemaEvaluationError.Reason, at step: PathStep = .none) -> SchemaEvaluationError {
        undecided(absoluteLocation: location.absolute, keyword: location.name, reason, at: step)
    }

    private func undecided(absoluteLocation: String, keyword: String?, _ reason: SchemaEvaluationError.Reason, at step: PathStep = .none) -> SchemaEvaluationError {
        guard collectErrors else {
            return SchemaEvaluationError(reason: reason, instanceLocation: "", keywordLocation: "", absoluteKeywordLocation: nil, isLocated: false)
        }
        var instanceTokens = instancePath
        if let text = text(of: step) { instanceTokens.append(text) }
        var keywordTokens = keywordPath
        if let keyword { keywordTokens.append(keyword) }
        return SchemaEvaluationError(
            reason: reason,
            instanceLocation: URIText.pointer(instanceTokens),
            keywordLocation: URIText.pointer(keywordTokens),
            absoluteKeywordLocation: absoluteLocation,
            isLocated: true
        )
    }

    /// Whether `pattern` matches `text`; an undecided search becomes an evaluation error of the
    /// keyword at `location`.
    func matches(_ pattern: RegexPattern, _ text: String, _ location: KeywordLocation, at step: PathStep = .none) throws(SchemaEvaluationError) -> Bool {
        do {
            return try pattern.matches(text)
        } catch {
            throw undecided(location, .patternStepBudgetExhausted(pattern: pattern.source), at: step)
        }
    }

    private func text(of step: PathStep) -> String? {
        switch step {
        case .none: nil
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// Records an error of the keyword at `location` (no-op unless errors are collected);
    /// always returns false.
    @discardableResult
    mutating func report(_ location: KeywordLocation, _ message: @autoclosure () -> String, at step: PathStep = .none) -> Bool {
        guard collectErrors else { return false }
        append(absoluteLocation: location.absolute, keyword: location.name, message(), at: step)
        return false
    }

    /// The error of a `false` schema.
    private mutating func reportFalse(_ node: SchemaNode) {
        guard collectErrors else { return }
        append(absoluteLocation: node.absoluteLocation, keyword: nil, "no value is allowed here (the schema is false)", at: .none)
    }

    private mutating func append(absoluteLocation: String, keyword: String?, _ message: String, at step: PathStep) {
        var instanceTokens = instancePath
        if let text = text(of: step) { instanceTokens.append(text) }
        var keywordTokens = keywordPath
        if let keyword { keywordTokens.append(keyword) }
        errors.append(ValidationError(
            instanceLocation: URIText.pointer(instanceTokens),
            keywordLocation: URIText.pointer(keywordTokens),
            absoluteKeywordLocation: absoluteLocation,
            message: message
        ))
    }

    /// How many errors have been reported: a mark for ``discardErrors(since:)`` and
    /// ``reportSummary(_:_:before:)``.
    var errorCount: Int { errors.count }

    /// Drops the errors reported since `mark` (those of subschemas that did not decide the
    /// outcome: the failed branches of a passing `anyOf`, the condition of `if`).
    mutating func discardErrors(since mark: Int) {
        if collectErrors { errors.removeSubrange(mark...) }
    }

    /// Reports an error of the keyword at `location` placed before the errors reported since
    /// `mark` (a summary, followed by the errors of its branches).
    mutating func reportSummary(_ location: KeywordLocation, _ message: @autoclosure () -> String, before mark: Int) {
        guard collectErrors else { return }
        report(location, message())
        if mark < errors.count - 1 {
            let summary = errors.removeLast()
            errors.insert(summary, at: mark)
        }
    }

    // MARK: Helpers for keywords

    /// Whether `object` has a member named `name` (length check first, then code points).
    @inline(__always)
    static func has(_ object: JSONObject, _ name: String) -> Bool {
        let length = name.utf8.count
        for key in object.keys where key.utf8.count == length && key.hasSameCodePoints(as: name) { return true }
        return false
    }

    /// A short rendering of an instance for messages (long values are cut).
    static func describe(_ value: borrowing JSONValue) -> String {
        let text = (copy value).serialized()
        if text.count <= 60 { return text }
        return String(text.prefix(57)) + "..."
    }
}
