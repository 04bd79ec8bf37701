import PetSpotJSON

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

/// Runs a compiled schema against one instance. In fast mode it stops at the first failure
/// and builds nothing; in collecting mode it keeps the instance and keyword paths and collects
/// errors. A struct, not a class: its counters are mutated on every schema, and class
/// properties would pay a dynamic exclusivity check each time.
///
/// An evaluation that cannot be decided (a pattern out of step budget, nesting beyond
/// ``SchemaOptions/maxEvaluationDepth``) throws ``SchemaEvaluationError`` and so never yields a
/// verdict. In fast mode the error carries no locations (no paths are kept); the caller
/// re-runs in collecting mode to locate it.
struct Evaluator {
    let collectErrors: Bool
    let usesDynamicScope: Bool
    let maxDepth: Int
    /// The schemas that forwarding nodes stand for, by index.
    let cycleTargets: [SchemaNode]
    let resources: [SchemaResource]
    var errors: [ValidationError] = []
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

    /// Evaluates `node`; when `evaluated` is given, merges what it evaluated into it (if valid).
    private mutating func evaluate(_ node: SchemaNode, _ instance: JSONValue, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        if let forward = node.forward { return try evaluate(cycleTargets[forward], instance, evaluated) }
        if let boolean = node.booleanValue {
            if !boolean { report(node, "", "no value is allowed here (the schema is false)") }
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
    private mutating func evaluateFast(_ target: SchemaNode, _ instance: JSONValue) throws(SchemaEvaluationError) -> Bool {
        if let boolean = target.booleanValue { return boolean }
        if let leaf = target.unretainedLeaf {
            return try leaf.withObject { leaf throws(SchemaEvaluationError) in try accepts(leaf, instance) }
        }
        if target.tracksEvaluation { return try evaluateFully(target, instance, nil) }
        depth += 1
        if depth > maxDepth { throw tooDeep(target) }
        // Through a span, each keyword is read in place: no copy of the enum, no retains.
        let keywordList = target.keywords[...]
        let keywords = keywordList.span
        for index in keywords.indices where try !apply(keywords[index], target, instance, nil) {
            depth -= 1
            return false
        }
        depth -= 1
        return true
    }

    private mutating func evaluateFully(_ node: SchemaNode, _ instance: JSONValue, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
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
        for index in keywords.indices where try !apply(keywords[index], node, instance, local) {
            valid = false
            if !collectErrors { break }
        }
        if valid, let evaluated, let local { evaluated.merge(local) }
        return valid
    }

    /// A leaf's verdict (leaves run on the fast path only); a pattern it could not decide
    /// becomes an unlocated evaluation error.
    @inline(__always)
    private func accepts(_ leaf: LeafCheck, _ instance: borrowing JSONValue) throws(SchemaEvaluationError) -> Bool {
        do {
            return try leaf.accepts(instance)
        } catch {
            throw SchemaEvaluationError(
                reason: .patternStepBudgetExhausted(pattern: error.pattern), instanceLocation: "", keywordLocation: "",
                absoluteKeywordLocation: nil, isLocated: false)
        }
    }

    /// The error for evaluation nested deeper than the bound, at `node`.
    private func tooDeep(_ node: SchemaNode) -> SchemaEvaluationError {
        undecided(node, "", .evaluationTooDeep(limit: maxDepth))
    }

    /// An evaluation error for `keyword` of `node`, located when the paths are kept.
    private func undecided(_ node: SchemaNode, _ keyword: String, _ reason: SchemaEvaluationError.Reason, at step: PathStep = .none) -> SchemaEvaluationError {
        guard collectErrors else {
            return SchemaEvaluationError(reason: reason, instanceLocation: "", keywordLocation: "", absoluteKeywordLocation: nil, isLocated: false)
        }
        var instanceTokens = instancePath
        if let text = text(of: step) { instanceTokens.append(text) }
        var keywordTokens = keywordPath
        if !keyword.isEmpty { keywordTokens.append(keyword) }
        return SchemaEvaluationError(
            reason: reason,
            instanceLocation: URIText.pointer(instanceTokens),
            keywordLocation: URIText.pointer(keywordTokens),
            absoluteKeywordLocation: keyword.isEmpty ? node.absoluteLocation : node.absoluteLocation + "/" + URIText.escapePointerToken(keyword),
            isLocated: true
        )
    }

    /// Whether `pattern` matches `text`; an undecided search becomes an evaluation error.
    private func matches(_ pattern: RegexPattern, _ text: String, _ node: SchemaNode, _ keyword: String, at step: PathStep = .none) throws(SchemaEvaluationError) -> Bool {
        do {
            return try pattern.matches(text)
        } catch {
            throw undecided(node, keyword, .patternStepBudgetExhausted(pattern: pattern.source), at: step)
        }
    }

    /// Evaluates a subschema, keeping the paths when errors are collected.
    @inline(__always)
    private mutating func descend(
        _ node: SchemaNode, _ instance: JSONValue, keyword: String, _ sub: PathStep, at step: PathStep,
        _ evaluated: EvaluatedLocations?
    ) throws(SchemaEvaluationError) -> Bool {
        guard collectErrors else { return try evaluate(node, instance, evaluated) }
        keywordPath.append(keyword)
        if let text = text(of: sub) { keywordPath.append(text) }
        let pushedInstance = text(of: step).map { instancePath.append($0); return true } ?? false
        defer {
            if case .none = sub {} else { keywordPath.removeLast() }
            keywordPath.removeLast()
            if pushedInstance { instancePath.removeLast() }
        }
        return try evaluate(node, instance, evaluated)
    }

    /// Evaluates a subschema whose annotations do not matter to this schema.
    @inline(__always)
    private mutating func check(_ node: SchemaNode, _ instance: JSONValue, keyword: String, _ sub: PathStep, at step: PathStep) throws(SchemaEvaluationError) -> Bool {
        try descend(node, instance, keyword: keyword, sub, at: step, nil)
    }

    private func text(of step: PathStep) -> String? {
        switch step {
        case .none: nil
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// Records an error for `keyword` of `node` (no-op in `isValid` mode); always returns false.
    @discardableResult
    private mutating func report(_ node: SchemaNode, _ keyword: String, _ message: @autoclosure () -> String, at step: PathStep = .none) -> Bool {
        guard collectErrors else { return false }
        var instanceTokens = instancePath
        if let text = text(of: step) { instanceTokens.append(text) }
        var keywordTokens = keywordPath
        if !keyword.isEmpty { keywordTokens.append(keyword) }
        errors.append(ValidationError(
            instanceLocation: URIText.pointer(instanceTokens),
            keywordLocation: URIText.pointer(keywordTokens),
            absoluteKeywordLocation: keyword.isEmpty ? node.absoluteLocation : node.absoluteLocation + "/" + URIText.escapePointerToken(keyword),
            message: message()
        ))
        return false
    }

    // MARK: Keywords

    /// Applies one keyword of `node`.
    private mutating func apply(_ keyword: Keyword, _ node: SchemaNode, _ instance: borrowing JSONValue, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        let collect = evaluated != nil
        switch keyword {
        case .type(let types):
            if types.admits(instance) { return true }
            return report(node, "type", "\(Self.describe(instance)) is not of type \(types.names.joined(separator: " or "))")

        case .required(let names):
            // A borrowing switch reads the members in place (a `guard case` would copy them).
            let object: JSONObject
            switch instance {
            case .object(let members):
                if !collectErrors { return names.allPresent(in: members.keys) }
                object = copy members
            default:
                return true
            }
            var valid = true
            var hint = 0
            for position in names.names.indices where !names.find(position, in: object.keys, hint: &hint) {
                valid = false
                report(node, "required", "required property \"\(names.names[position])\" is missing")
                if !collectErrors { return false }
            }
            return valid

        case .ref(let target):
            return try descend(target, instance, keyword: "$ref", .none, at: .none, evaluated)

        case .dynamicRef(let initial, let anchor):
            var target = initial
            if let anchor {
                for resource in dynamicScope {
                    if let candidate = resources[resource].dynamicAnchors[anchor] {
                        target = candidate
                        break
                    }
                }
            }
            return try descend(target, instance, keyword: "$dynamicRef", .none, at: .none, evaluated)

        case .allOf(let nodes):
            var valid = true
            for (position, child) in nodes.enumerated()
            where try !descend(child, instance, keyword: "allOf", .index(position), at: .none, evaluated) {
                valid = false
                if !collectErrors { return false }
            }
            return valid

        case .anyOf(let nodes):
            let errorCount = errors.count
            var anyValid = false
            for (position, child) in nodes.enumerated() {
                if try descend(child, instance, keyword: "anyOf", .index(position), at: .none, evaluated) {
                    anyValid = true
                    if !collect { break }
                }
            }
            if anyValid {
                if collectErrors { errors.removeSubrange(errorCount...) }
                return true
            }
            insertSummary(at: errorCount, node, "anyOf", "\(Self.describe(instance)) is not valid against any of the \(nodes.count) subschemas")
            return false

        case .oneOf(let nodes):
            let errorCount = errors.count
            var validPositions: [Int] = []
            var branchEvaluated: EvaluatedLocations?
            for (position, child) in nodes.enumerated() {
                let candidate: EvaluatedLocations? = collect ? EvaluatedLocations() : nil
                if try descend(child, instance, keyword: "oneOf", .index(position), at: .none, candidate) {
                    validPositions.append(position)
                    branchEvaluated = candidate
                    if validPositions.count > 1 { break }
                }
            }
            if validPositions.count == 1 {
                if collectErrors { errors.removeSubrange(errorCount...) }
                if let evaluated, let branchEvaluated { evaluated.merge(branchEvaluated) }
                return true
            }
            if validPositions.isEmpty {
                insertSummary(at: errorCount, node, "oneOf", "\(Self.describe(instance)) is not valid against any of the \(nodes.count) subschemas")
            } else {
                if collectErrors { errors.removeSubrange(errorCount...) }
                report(node, "oneOf", "\(Self.describe(instance)) is valid against more than one subschema (at \(validPositions[0]) and \(validPositions[1]))")
            }
            return false

        case .not(let child):
            let errorCount = errors.count
            let childValid = try check(child, instance, keyword: "not", .none, at: .none)
            if collectErrors { errors.removeSubrange(errorCount...) }
            if !childValid { return true }
            return report(node, "not", "\(Self.describe(instance)) must not be valid against the subschema in \"not\"")

        case .conditional(let condition, let then, let otherwise):
            let errorCount = errors.count
            let conditionEvaluated: EvaluatedLocations? = collect ? EvaluatedLocations() : nil
            let conditionValid = try descend(condition, instance, keyword: "if", .none, at: .none, conditionEvaluated)
            if collectErrors { errors.removeSubrange(errorCount...) }
            if conditionValid {
                if let evaluated, let conditionEvaluated { evaluated.merge(conditionEvaluated) }
                guard let then else { return true }
                return try descend(then, instance, keyword: "then", .none, at: .none, evaluated)
            }
            guard let otherwise else { return true }
            return try descend(otherwise, instance, keyword: "else", .none, at: .none, evaluated)

        case .dependentSchemas(let dependencies):
            guard case .object(let object) = copy instance else { return true }
            var valid = true
            for dependency in dependencies where Self.has(object, dependency.name) {
                if try !descend(dependency.node, instance, keyword: "dependentSchemas", .key(dependency.name), at: .none, evaluated) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            return valid

        case .prefixItems(let nodes):
            guard case .array(let items) = copy instance else { return true }
            var valid = true
            let count = min(items.count, nodes.count)
            for position in 0..<count where try !check(nodes[position], items[position], keyword: "prefixItems", .index(position), at: .index(position)) {
                valid = false
                if !collectErrors { return false }
            }
            if let evaluated { evaluated.itemPrefix = max(evaluated.itemPrefix, count) }
            return valid

        case .items(let child, let prefixCount):
            guard case .array(let items) = copy instance else { return true }
            var valid = true
            if prefixCount < items.count {
                for position in prefixCount..<items.count where try !check(child, items[position], keyword: "items", .none, at: .index(position)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            evaluated?.allItems = true
            return valid

        case .contains(let child, let minimum, let maximum):
            guard case .array(let items) = copy instance else { return true }
            let errorCount = errors.count
            var matches = 0
            for (position, item) in items.enumerated() where try check(child, item, keyword: "contains", .none, at: .index(position)) {
                matches += 1
                evaluated?.itemIndexes.insert(position)
                if !collect && !collectErrors && matches >= minimum && maximum == nil { break }
            }
            if collectErrors { errors.removeSubrange(errorCount...) }
            if matches < minimum {
                return report(node, minimum == 1 ? "contains" : "minContains", "the array contains \(matches) matching item\(matches == 1 ? "" : "s"), fewer than the \(minimum) required")
            }
            if let maximum, matches > maximum {
                return report(node, "maxContains", "the array contains \(matches) matching items, more than the \(maximum) allowed")
            }
            return true

        case .members(let members):
            switch instance {
            case .object(let object): return try applyMembers(members, node, object, evaluated)
            default: return true
            }

        case .propertyNames(let child):
            guard case .object(let object) = copy instance else { return true }
            var valid = true
            for key in object.keys where try !check(child, .string(key), keyword: "propertyNames", .none, at: .key(key)) {
                valid = false
                if !collectErrors { return false }
            }
            return valid

        case .unevaluatedProperties(let child):
            guard case .object(let object) = copy instance, let evaluated else { return true }
            if evaluated.allProperties { return true }
            var valid = true
            for (key, value) in zip(object.keys, object.values) where !evaluated.properties.contains(key) {
                if child.booleanValue == false {
                    valid = false
                    report(node, "unevaluatedProperties", "property \"\(key)\" is not allowed (unevaluatedProperties)")
                    if !collectErrors { return false }
                } else if try !check(child, value, keyword: "unevaluatedProperties", .none, at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            if valid { evaluated.allProperties = true }
            return valid

        case .unevaluatedItems(let child):
            guard case .array(let items) = copy instance, let evaluated else { return true }
            if evaluated.allItems { return true }
            var valid = true
            var position = evaluated.itemPrefix
            while position < items.count {
                defer { position += 1 }
                if evaluated.itemIndexes.contains(position) { continue }
                if try !check(child, items[position], keyword: "unevaluatedItems", .none, at: .index(position)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            if valid { evaluated.allItems = true }
            return valid

        case .enumeration(let values):
            if values.contains(instance) { return true }
            return report(node, "enum", "\(Self.describe(instance)) is not one of \(JSONValue.array(values).serialized())")

        case .const(let value):
            if value == instance { return true }
            return report(node, "const", "\(Self.describe(instance)) is not the constant \(value.serialized())")

        case .multipleOf(let divisor):
            guard case .number(let number) = copy instance, !number.isMultiple(of: divisor) else { return true }
            return report(node, "multipleOf", "\(number) is not a multiple of \(divisor)")

        case .maximum(let limit):
            guard case .number(let number) = copy instance, limit < number else { return true }
            return report(node, "maximum", "\(number) is greater than the maximum \(limit)")

        case .exclusiveMaximum(let limit):
            guard case .number(let number) = copy instance, number >= limit else { return true }
            return report(node, "exclusiveMaximum", "\(number) is not less than \(limit)")

        case .minimum(let limit):
            guard case .number(let number) = copy instance, number < limit else { return true }
            return report(node, "minimum", "\(number) is less than the minimum \(limit)")

        case .exclusiveMinimum(let limit):
            guard case .number(let number) = copy instance, number <= limit else { return true }
            return report(node, "exclusiveMinimum", "\(number) is not greater than \(limit)")

        case .maxLength(let limit):
            guard case .string(let text) = copy instance, text.utf8.count > limit else { return true }
            let length = text.unicodeScalars.count
            if length <= limit { return true }
            return report(node, "maxLength", "the string has \(length) characters, more than the \(limit) allowed")

        case .minLength(let limit):
            guard case .string(let text) = copy instance else { return true }
            let bytes = text.utf8.count
            if bytes / 4 >= limit { return true }
            let length = bytes < limit ? bytes : text.unicodeScalars.count
            if length >= limit { return true }
            return report(node, "minLength", "the string has \(length) character\(length == 1 ? "" : "s"), fewer than the \(limit) required")

        case .pattern(let pattern):
            guard case .string(let text) = copy instance, try !matches(pattern, text, node, "pattern") else { return true }
            return report(node, "pattern", "\(Self.describe(instance)) does not match the pattern \(pattern.source)")

        case .maxItems(let limit):
            guard case .array(let items) = copy instance, items.count > limit else { return true }
            return report(node, "maxItems", "the array has \(items.count) items, more than the \(limit) allowed")

        case .minItems(let limit):
            guard case .array(let items) = copy instance, items.count < limit else { return true }
            return report(node, "minItems", "the array has \(items.count) items, fewer than the \(limit) required")

        case .uniqueItems:
            guard case .array(let items) = copy instance, let duplicate = Self.firstDuplicate(items) else { return true }
            return report(node, "uniqueItems", "items \(duplicate.0) and \(duplicate.1) are equal")

        case .maxProperties(let limit):
            guard case .object(let object) = copy instance, object.count > limit else { return true }
            return report(node, "maxProperties", "the object has \(object.count) properties, more than the \(limit) allowed")

        case .minProperties(let limit):
            guard case .object(let object) = copy instance, object.count < limit else { return true }
            return report(node, "minProperties", "the object has \(object.count) properties, fewer than the \(limit) required")

        case .dependentRequired(let dependencies):
            guard case .object(let object) = copy instance else { return true }
            var valid = true
            for dependency in dependencies where Self.has(object, dependency.name) {
                for name in dependency.required where !Self.has(object, name) {
                    valid = false
                    report(node, "dependentRequired", "property \"\(name)\" is required when \"\(dependency.name)\" is present")
                    if !collectErrors { return false }
                }
            }
            return valid

        case .format(let format):
            if format.accepts(instance) { return true }
            return report(node, "format", "\(Self.describe(instance)) is not a valid \(format.rawValue)")
        }
    }

    /// Whether `object` has a member named `name` (length check first, then code points).
    @inline(__always)
    static func has(_ object: JSONObject, _ name: String) -> Bool {
        let length = name.utf8.count
        for key in object.keys where key.utf8.count == length && key.hasSameCodePoints(as: name) { return true }
        return false
    }

    /// `properties`, `patternProperties` and `additionalProperties` in one pass.
    private mutating func applyMembers(_ members: ObjectMemberApplicators, _ node: SchemaNode, _ object: JSONObject, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        if evaluated == nil, members.patternProperties.isEmpty, members.additionalProperties == nil,
            let table = members.properties, table.names.count <= 4 || table.names.count * 4 <= object.count
        {
            // Only `properties`: walk the schema's names and look each up in the instance, which
            // beats probing the table for every member when the table is the smaller side.
            return try applyPropertiesByName(table, object)
        }
        let fast = !collectErrors && evaluated == nil && !usesDynamicScope
        if fast, members.patternProperties.isEmpty, let table = members.properties {
            return try applyPropertiesByKey(table, members.additionalProperties, object, node)
        }
        return try applyMembersCollecting(members, node, object, evaluated)
    }

    private mutating func applyPropertiesByName(_ table: PropertyTable, _ object: JSONObject) throws(SchemaEvaluationError) -> Bool {
        let keys = object.keys
        let fast = !collectErrors && !usesDynamicScope
        var valid = true
        for position in table.names.indices {
            let name = table.names[position]
            var found = -1
            for candidate in keys.indices where table.entry(position, isNamed: keys[candidate], length: keys[candidate].utf8.count) {
                found = candidate
                break
            }
            guard found >= 0 else { continue }
            if fast, let leaf = table.unretainedLeaves[position] {
                if try !leaf.withObject({ leaf throws(SchemaEvaluationError) in try accepts(leaf, object.values[found]) }) { return false }
            } else if try !check(table.nodes[position], object.values[found], keyword: "properties", .key(name), at: .key(name)) {
                valid = false
                if !collectErrors { return false }
            }
        }
        return valid
    }

    /// The fast path of `properties` plus `additionalProperties` (no `patternProperties`):
    /// one probe per member, leaves called in place, nothing recorded.
    private mutating func applyPropertiesByKey(_ table: PropertyTable, _ additional: SchemaNode?, _ object: JSONObject, _ node: SchemaNode) throws(SchemaEvaluationError) -> Bool {
        var hint = 0
        // Spans read keys and values in place, without copying (retaining) them. (Through
        // slices: an array slice's span exists back to macOS 10.14.4, an array's only from 26.)
        let keySlice = object.keys[...], valueSlice = object.values[...]
        let keys = keySlice.span
        let values = valueSlice.span
        for index in keys.indices {
            if let position = table.position(of: keys[index], hint: &hint) {
                if let leaf = table.unretainedLeaves[position] {
                    if try !leaf.withObject({ leaf throws(SchemaEvaluationError) in try accepts(leaf, values[index]) }) { return false }
                } else if try !evaluate(table.nodes[position], values[index], nil) {
                    return false
                }
            } else if let additional {
                if additional.booleanValue == false { return false }
                if try !evaluate(additional, values[index], nil) { return false }
            }
        }
        return true
    }

    /// The general path: every applicator, with paths, errors and annotations as asked.
    private mutating func applyMembersCollecting(_ members: ObjectMemberApplicators, _ node: SchemaNode, _ object: JSONObject, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        var valid = true
        var hint = 0
        let table = members.properties
        let keys = object.keys
        let values = object.values
        for index in keys.indices {
            let key = keys[index]
            var matched = false
            if let table, let position = table.position(of: key, hint: &hint) {
                matched = true
                if try !check(table.nodes[position], values[index], keyword: "properties", .key(key), at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            for entry in members.patternProperties where try matches(entry.pattern, key, node, "patternProperties", at: .key(key)) {
                matched = true
                if try !check(entry.node, values[index], keyword: "patternProperties", .key(entry.pattern.source), at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            if !matched, let additional = members.additionalProperties {
                matched = true
                if additional.booleanValue == false {
                    valid = false
                    report(node, "additionalProperties", "property \"\(key)\" is not allowed (additionalProperties is false)")
                    if !collectErrors { return false }
                } else if try !check(additional, values[index], keyword: "additionalProperties", .none, at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            if matched { evaluated?.properties.insert(key) }
        }
        return valid
    }

    private mutating func insertSummary(at position: Int, _ node: SchemaNode, _ keyword: String, _ message: String) {
        guard collectErrors else { return }
        let countBefore = errors.count
        report(node, keyword, message)
        if errors.count > countBefore, position < countBefore {
            let summary = errors.removeLast()
            errors.insert(summary, at: position)
        }
    }

    /// Positions of the first two equal items, if any.
    static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        if items.count < 16 {
            for first in items.indices {
                for second in (first + 1)..<items.count where items[first] == items[second] { return (first, second) }
            }
            return nil
        }
        var seen: [JSONValue: Int] = [:]
        for (position, item) in items.enumerated() {
            if let earlier = seen[item] { return (earlier, position) }
            seen[item] = position
        }
        return nil
    }

    /// A short rendering of an instance for messages (long values are cut).
    static func describe(_ value: JSONValue) -> String {
        let text = value.serialized()
        if text.count <= 60 { return text }
        return String(text.prefix(57)) + "..."
    }
}
