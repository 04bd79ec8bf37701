import PetSpotJSON

/// What the keywords of one schema evaluated, for `unevaluatedProperties`/`unevaluatedItems`.
/// Only allocated while some enclosing schema needs annotations: the `isValid` path of a
/// schema without `unevaluated*` never creates one.
final class _Evaluated {
    var properties: Set<String> = []
    var allProperties = false
    /// Items `0..<itemPrefix` were evaluated (by `prefixItems`).
    var itemPrefix = 0
    /// Items matched by `contains`.
    var itemIndexes: Set<Int> = []
    var allItems = false

    func merge(_ other: _Evaluated) {
        if other.allProperties { allProperties = true } else if !other.properties.isEmpty { properties.formUnion(other.properties) }
        if other.allItems { allItems = true }
        itemPrefix = max(itemPrefix, other.itemPrefix)
        if !other.itemIndexes.isEmpty { itemIndexes.formUnion(other.itemIndexes) }
    }
}

/// One step of a JSON Pointer, kept unformatted until an error needs it.
enum _PathStep {
    case none
    case key(String)
    case index(Int)
}

/// Runs a compiled schema against one instance. In `isValid` mode it stops at the first failure
/// and builds nothing; in `validate` mode it keeps the instance and keyword paths and collects errors.
/// A struct, not a class: its counters are mutated on every schema, and class properties would
/// pay a dynamic exclusivity check each time.
struct _Evaluator {
    let collectErrors: Bool
    let usesDynamicScope: Bool
    let maxDepth: Int
    var errors: [ValidationError] = []
    private var instancePath: [String] = []
    private var keywordPath: [String] = []
    private var dynamicScope: [_Resource] = []
    private var depth = 0

    init(collectErrors: Bool, usesDynamicScope: Bool, maxDepth: Int) {
        self.collectErrors = collectErrors
        self.usesDynamicScope = usesDynamicScope
        self.maxDepth = maxDepth
    }

    mutating func run(_ root: _Node, _ instance: JSONValue) -> Bool {
        evaluate(root, instance, nil)
    }

    // MARK: Schemas

    /// Evaluates `node`; when `evaluated` is given, merges what it evaluated into it (if valid).
    private mutating func evaluate(_ node: _Node, _ instance: JSONValue, _ evaluated: _Evaluated?) -> Bool {
        if let boolean = node.booleanValue {
            if !boolean { report(node, "", "no value is allowed here (the schema is false)") }
            return boolean
        }
        if collectErrors || evaluated != nil || node.tracksEvaluation || usesDynamicScope {
            return evaluateFully(node, instance, evaluated)
        }
        // The `isValid` path: no paths, no annotations, no dynamic scope. A schema that is only a
        // `$ref` is skipped straight to its (precomputed, loop-free) final target.
        let target = node.referenceTarget ?? node
        if let boolean = target.booleanValue { return boolean }
        if let leaf = target.leaf { return leaf.accepts(instance) }
        if target.tracksEvaluation { return evaluateFully(target, instance, nil) }
        depth += 1
        if depth > maxDepth {
            depth -= 1
            return false
        }
        let valid = target.keywords.withUnsafeBufferPointer { keywords in
            guard let first = keywords.baseAddress else { return true }
            for index in 0..<keywords.count where !apply(first + index, target, instance, nil) { return false }
            return true
        }
        depth -= 1
        return valid
    }

    private mutating func evaluateFully(_ node: _Node, _ instance: JSONValue, _ evaluated: _Evaluated?) -> Bool {
        depth += 1
        defer { depth -= 1 }
        if depth > maxDepth {
            let limit = maxDepth
            report(node, "", "evaluation nested deeper than \(limit) schemas (a reference loop?)")
            return false
        }
        var pushed = false
        if usesDynamicScope && dynamicScope.last !== node.resource {
            dynamicScope.append(node.resource)
            pushed = true
        }
        defer { if pushed { dynamicScope.removeLast() } }

        let local: _Evaluated? = evaluated != nil || node.tracksEvaluation ? _Evaluated() : nil
        let valid = node.keywords.withUnsafeBufferPointer { keywords in
            var valid = true
            guard let first = keywords.baseAddress else { return true }
            for index in 0..<keywords.count where !apply(first + index, node, instance, local) {
                valid = false
                if !collectErrors { break }
            }
            return valid
        }
        if valid, let evaluated, let local { evaluated.merge(local) }
        return valid
    }

    /// Evaluates a subschema, keeping the paths when errors are collected.
    @inline(__always)
    private mutating func descend(
        _ node: _Node, _ instance: JSONValue, keyword: String, _ sub: _PathStep, at step: _PathStep,
        _ evaluated: _Evaluated?
    ) -> Bool {
        guard collectErrors else { return evaluate(node, instance, evaluated) }
        keywordPath.append(keyword)
        if let text = text(of: sub) { keywordPath.append(text) }
        let pushedInstance = text(of: step).map { instancePath.append($0); return true } ?? false
        defer {
            if case .none = sub {} else { keywordPath.removeLast() }
            keywordPath.removeLast()
            if pushedInstance { instancePath.removeLast() }
        }
        return evaluate(node, instance, evaluated)
    }

    /// Evaluates a subschema whose annotations do not matter to this schema.
    @inline(__always)
    private mutating func check(_ node: _Node, _ instance: JSONValue, keyword: String, _ sub: _PathStep, at step: _PathStep) -> Bool {
        descend(node, instance, keyword: keyword, sub, at: step, nil)
    }

    private func text(of step: _PathStep) -> String? {
        switch step {
        case .none: nil
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// Records an error for `keyword` of `node` (no-op in `isValid` mode); always returns false.
    @discardableResult
    private mutating func report(_ node: _Node, _ keyword: String, _ message: @autoclosure () -> String, at step: _PathStep = .none) -> Bool {
        guard collectErrors else { return false }
        var instanceTokens = instancePath
        if let text = text(of: step) { instanceTokens.append(text) }
        var keywordTokens = keywordPath
        if !keyword.isEmpty { keywordTokens.append(keyword) }
        errors.append(ValidationError(
            instanceLocation: _URI.pointer(instanceTokens),
            keywordLocation: _URI.pointer(keywordTokens),
            absoluteKeywordLocation: keyword.isEmpty ? node.absoluteLocation : node.absoluteLocation + "/" + _URI.escapePointerToken(keyword),
            message: message()
        ))
        return false
    }

    // MARK: Keywords

    /// Applies one keyword. It is read through a pointer into the node's keyword array so the
    /// (large) enum is never copied whole, only the payload a case binds.
    private mutating func apply(_ keyword: UnsafePointer<_Keyword>, _ node: _Node, _ instance: JSONValue, _ evaluated: _Evaluated?) -> Bool {
        let collect = evaluated != nil
        switch keyword.pointee {
        case .type(let types):
            if types.admits(instance) { return true }
            return report(node, "type", "\(Self.describe(instance)) is not of type \(types.names.joined(separator: " or "))")

        case .required(let names):
            guard case .object(let object) = instance else { return true }
            if !collectErrors { return names.allPresent(in: object.keys) }
            var valid = true
            var hint = 0
            for position in names.names.indices where !names.find(position, in: object.keys, hint: &hint) {
                valid = false
                report(node, "required", "required property \"\(names.names[position])\" is missing")
                if !collectErrors { return false }
            }
            return valid

        case .ref(let target):
            return descend(target, instance, keyword: "$ref", .none, at: .none, evaluated)

        case .dynamicRef(let initial, let anchor):
            var target = initial
            if let anchor {
                for resource in dynamicScope {
                    if let candidate = resource.dynamicAnchors[anchor] {
                        target = candidate
                        break
                    }
                }
            }
            return descend(target, instance, keyword: "$dynamicRef", .none, at: .none, evaluated)

        case .allOf(let nodes):
            var valid = true
            for (position, child) in nodes.enumerated()
            where !descend(child, instance, keyword: "allOf", .index(position), at: .none, evaluated) {
                valid = false
                if !collectErrors { return false }
            }
            return valid

        case .anyOf(let nodes):
            let errorCount = errors.count
            var anyValid = false
            for (position, child) in nodes.enumerated() {
                if descend(child, instance, keyword: "anyOf", .index(position), at: .none, evaluated) {
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
            var branchEvaluated: _Evaluated?
            for (position, child) in nodes.enumerated() {
                let candidate: _Evaluated? = collect ? _Evaluated() : nil
                if descend(child, instance, keyword: "oneOf", .index(position), at: .none, candidate) {
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
            let childValid = check(child, instance, keyword: "not", .none, at: .none)
            if collectErrors { errors.removeSubrange(errorCount...) }
            if !childValid { return true }
            return report(node, "not", "\(Self.describe(instance)) must not be valid against the subschema in \"not\"")

        case .conditional(let condition, let then, let otherwise):
            let errorCount = errors.count
            let conditionEvaluated: _Evaluated? = collect ? _Evaluated() : nil
            let conditionValid = descend(condition, instance, keyword: "if", .none, at: .none, conditionEvaluated)
            if collectErrors { errors.removeSubrange(errorCount...) }
            if conditionValid {
                if let evaluated, let conditionEvaluated { evaluated.merge(conditionEvaluated) }
                guard let then else { return true }
                return descend(then, instance, keyword: "then", .none, at: .none, evaluated)
            }
            guard let otherwise else { return true }
            return descend(otherwise, instance, keyword: "else", .none, at: .none, evaluated)

        case .dependentSchemas(let dependencies):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for dependency in dependencies where Self.has(object, dependency.name) {
                if !descend(dependency.node, instance, keyword: "dependentSchemas", .key(dependency.name), at: .none, evaluated) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            return valid

        case .prefixItems(let nodes):
            guard case .array(let items) = instance else { return true }
            var valid = true
            let count = min(items.count, nodes.count)
            for position in 0..<count where !check(nodes[position], items[position], keyword: "prefixItems", .index(position), at: .index(position)) {
                valid = false
                if !collectErrors { return false }
            }
            if let evaluated { evaluated.itemPrefix = max(evaluated.itemPrefix, count) }
            return valid

        case .items(let child, let prefixCount):
            guard case .array(let items) = instance else { return true }
            var valid = true
            if prefixCount < items.count {
                for position in prefixCount..<items.count where !check(child, items[position], keyword: "items", .none, at: .index(position)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            evaluated?.allItems = true
            return valid

        case .contains(let child, let minimum, let maximum):
            guard case .array(let items) = instance else { return true }
            let errorCount = errors.count
            var matches = 0
            for (position, item) in items.enumerated() where check(child, item, keyword: "contains", .none, at: .index(position)) {
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
            guard case .object(let object) = instance else { return true }
            return applyMembers(members, node, object, evaluated)

        case .propertyNames(let child):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for key in object.keys where !check(child, .string(key), keyword: "propertyNames", .none, at: .key(key)) {
                valid = false
                if !collectErrors { return false }
            }
            return valid

        case .unevaluatedProperties(let child):
            guard case .object(let object) = instance, let evaluated else { return true }
            if evaluated.allProperties { return true }
            var valid = true
            for (key, value) in zip(object.keys, object.values) where !evaluated.properties.contains(key) {
                if child.booleanValue == false {
                    valid = false
                    report(node, "unevaluatedProperties", "property \"\(key)\" is not allowed (unevaluatedProperties)")
                    if !collectErrors { return false }
                } else if !check(child, value, keyword: "unevaluatedProperties", .none, at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            if valid { evaluated.allProperties = true }
            return valid

        case .unevaluatedItems(let child):
            guard case .array(let items) = instance, let evaluated else { return true }
            if evaluated.allItems { return true }
            var valid = true
            var position = evaluated.itemPrefix
            while position < items.count {
                defer { position += 1 }
                if evaluated.itemIndexes.contains(position) { continue }
                if !check(child, items[position], keyword: "unevaluatedItems", .none, at: .index(position)) {
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
            guard case .number(let number) = instance, !number.isMultiple(of: divisor) else { return true }
            return report(node, "multipleOf", "\(number) is not a multiple of \(divisor)")

        case .maximum(let limit):
            guard case .number(let number) = instance, limit < number else { return true }
            return report(node, "maximum", "\(number) is greater than the maximum \(limit)")

        case .exclusiveMaximum(let limit):
            guard case .number(let number) = instance, number >= limit else { return true }
            return report(node, "exclusiveMaximum", "\(number) is not less than \(limit)")

        case .minimum(let limit):
            guard case .number(let number) = instance, number < limit else { return true }
            return report(node, "minimum", "\(number) is less than the minimum \(limit)")

        case .exclusiveMinimum(let limit):
            guard case .number(let number) = instance, number <= limit else { return true }
            return report(node, "exclusiveMinimum", "\(number) is not greater than \(limit)")

        case .maxLength(let limit):
            guard case .string(let text) = instance, text.utf8.count > limit else { return true }
            let length = text.unicodeScalars.count
            if length <= limit { return true }
            return report(node, "maxLength", "the string has \(length) characters, more than the \(limit) allowed")

        case .minLength(let limit):
            guard case .string(let text) = instance else { return true }
            let bytes = text.utf8.count
            if bytes / 4 >= limit { return true }
            let length = bytes < limit ? bytes : text.unicodeScalars.count
            if length >= limit { return true }
            return report(node, "minLength", "the string has \(length) character\(length == 1 ? "" : "s"), fewer than the \(limit) required")

        case .pattern(let pattern):
            guard case .string(let text) = instance, !pattern.matches(text) else { return true }
            return report(node, "pattern", "\(Self.describe(instance)) does not match the pattern \(pattern.source)")

        case .maxItems(let limit):
            guard case .array(let items) = instance, items.count > limit else { return true }
            return report(node, "maxItems", "the array has \(items.count) items, more than the \(limit) allowed")

        case .minItems(let limit):
            guard case .array(let items) = instance, items.count < limit else { return true }
            return report(node, "minItems", "the array has \(items.count) items, fewer than the \(limit) required")

        case .uniqueItems:
            guard case .array(let items) = instance, let duplicate = Self.firstDuplicate(items) else { return true }
            return report(node, "uniqueItems", "items \(duplicate.0) and \(duplicate.1) are equal")

        case .maxProperties(let limit):
            guard case .object(let object) = instance, object.count > limit else { return true }
            return report(node, "maxProperties", "the object has \(object.count) properties, more than the \(limit) allowed")

        case .minProperties(let limit):
            guard case .object(let object) = instance, object.count < limit else { return true }
            return report(node, "minProperties", "the object has \(object.count) properties, fewer than the \(limit) required")

        case .dependentRequired(let dependencies):
            guard case .object(let object) = instance else { return true }
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
    private mutating func applyMembers(_ members: _ObjectMembers, _ node: _Node, _ object: JSONObject, _ evaluated: _Evaluated?) -> Bool {
        if evaluated == nil, members.patternProperties.isEmpty, members.additionalProperties == nil,
            let table = members.properties, table.names.count <= 4 || table.names.count * 4 <= object.count
        {
            // Only `properties`: walk the schema's names and look each up in the instance, which
            // beats probing the table for every member when the table is the smaller side.
            return applyPropertiesByName(table, object)
        }
        return object.values.withUnsafeBufferPointer { values in
            applyMembers(members, node, object.keys, values, evaluated)
        }
    }

    private mutating func applyPropertiesByName(_ table: _PropertyTable, _ object: JSONObject) -> Bool {
        let keys = object.keys
        var valid = true
        for position in table.names.indices {
            let length = table.lengths[position]
            let name = table.names[position]
            let ascii = table.ascii[position]
            var found = -1
            for candidate in keys.indices {
                let key = keys[candidate]
                if key.utf8.count == length && (ascii ? key == name : key.hasSameCodePoints(as: name)) {
                    found = candidate
                    break
                }
            }
            guard found >= 0 else { continue }
            let index = found
            if !collectErrors, !usesDynamicScope, position < table.leaves.count, let leaf = table.leaves[position] {
                let accepted = object.values.withUnsafeBufferPointer { values in
                    leaf._withUnsafeGuaranteedRef { $0.accepts(values.baseAddress.unsafelyUnwrapped + index) }
                }
                if !accepted { return false }
            } else if !check(table.nodes[position], object.values[index], keyword: "properties", .key(name), at: .key(name)) {
                valid = false
                if !collectErrors { return false }
            }
        }
        return valid
    }

    private mutating func applyMembers(_ members: _ObjectMembers, _ node: _Node, _ keys: [String], _ values: UnsafeBufferPointer<JSONValue>, _ evaluated: _Evaluated?) -> Bool {
        var valid = true
        var hint = 0
        let table = members.properties
        let fast = !collectErrors && evaluated == nil && !usesDynamicScope
        let patterns = members.patternProperties
        let additional = members.additionalProperties
        if fast, patterns.isEmpty, let table {
            return applyPropertiesByKey(table, additional, keys, values)
        }
        for index in keys.indices {
            let key = keys[index]
            var matched = false
            if let table, let position = table.position(of: key, hint: &hint) {
                matched = true
                if fast, position < table.leaves.count, let leaf = table.leaves[position] {
                    if !leaf._withUnsafeGuaranteedRef({ $0.accepts(values.baseAddress.unsafelyUnwrapped + index) }) { return false }
                } else if !check(table.nodes[position], values[index], keyword: "properties", .key(key), at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            for entry in patterns where entry.pattern.matches(key) {
                matched = true
                if !check(entry.node, values[index], keyword: "patternProperties", .key(entry.pattern.source), at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            if !matched, let additional {
                matched = true
                if additional.booleanValue == false {
                    valid = false
                    report(node, "additionalProperties", "property \"\(key)\" is not allowed (additionalProperties is false)")
                    if !collectErrors { return false }
                } else if !check(additional, values[index], keyword: "additionalProperties", .none, at: .key(key)) {
                    valid = false
                    if !collectErrors { return false }
                }
            }
            if matched { evaluated?.properties.insert(key) }
        }
        return valid
    }

    /// The `isValid` path of `properties` plus `additionalProperties` (no `patternProperties`):
    /// one probe per member, leaves called in place, nothing recorded.
    private mutating func applyPropertiesByKey(_ table: _PropertyTable, _ additional: _Node?, _ keys: [String], _ values: UnsafeBufferPointer<JSONValue>) -> Bool {
        var hint = 0
        let leaves = table.leaves
        for index in keys.indices {
            if let position = table.position(of: keys[index], hint: &hint) {
                if position < leaves.count, let leaf = leaves[position] {
                    if !leaf._withUnsafeGuaranteedRef({ $0.accepts(values.baseAddress.unsafelyUnwrapped + index) }) { return false }
                } else if !evaluate(table.nodes[position], values[index], nil) {
                    return false
                }
            } else if let additional {
                if additional.booleanValue == false || !evaluate(additional, values[index], nil) { return false }
            }
        }
        return true
    }

    private mutating func insertSummary(at position: Int, _ node: _Node, _ keyword: String, _ message: String) {
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
