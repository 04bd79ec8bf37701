import PetSpotHTTP

/// A path the backend serves, with its `:id` or file name percent-decoded.
enum MockRoute: Equatable {
    case health
    case announcements
    case announcement(id: String)
    case photos(id: String)
    case adminAnnouncement(id: String)
    case image(fileName: String)
}

/// Matches request paths as Express does: against the raw (still percent-encoded) path,
/// segment by segment, decoding an `:id` with `decodeURIComponent` only once its pattern
/// matched. The strict profile matches exact, case-sensitive paths; production, like Express,
/// ignores the case of the fixed segments and one trailing slash.
///
/// A malformed escape in an `:id` position fails the request whatever the method (Express
/// decodes parameters while matching, before it looks at the method), answered 500; in an
/// `/images` file name it only misses the file (404), as the static file server falls through.
struct MockRouter {
    let behaviour: MockBehaviour

    /// The raw path of a request target: up to `?` or `#`.
    static func rawPath(of target: String) -> Substring {
        let end = target.firstIndex { $0 == "?" || $0 == "#" } ?? target.endIndex
        return target[..<end]
    }

    /// The route `target`'s path matches, or `nil`.
    /// - Throws: ``MockProblem/malformedPercentEncoding(_:)`` for a bad escape in an `:id`.
    func route(for target: String) throws(MockProblem) -> MockRoute? {
        var segments = MockRouter.rawPath(of: target).split(separator: "/", omittingEmptySubsequences: false)
        guard segments.first == "" else { return nil }
        segments.removeFirst()
        let production = behaviour.isProduction
        if production, segments.count > 1, segments.last == "" { segments.removeLast() }
        func fixed(_ actual: Substring, _ expected: String) -> Bool {
            production ? actual.lowercased() == expected : actual == expected
        }
        func matches(_ pattern: [String?]) -> Bool {
            guard segments.count == pattern.count else { return false }
            for (actual, expected) in zip(segments, pattern) {
                if let expected {
                    if !fixed(actual, expected) { return false }
                } else if actual.isEmpty {
                    return false
                }
            }
            return true
        }
        func identifier(at position: Int) throws(MockProblem) -> String {
            let raw = String(segments[position])
            if let decoded = JavaScript.decodeURIComponent(raw) { return decoded }
            if behaviour.has(.routingBadEscape404) { return HTTPRequest.percentDecode(raw, plusAsSpace: false) }
            throw .malformedPercentEncoding(raw)
        }
        if matches(["api", "health"]) { return .health }
        if matches(["api", "v1", "announcements"]) { return .announcements }
        if matches(["api", "v1", "announcements", nil]) { return .announcement(id: try identifier(at: 3)) }
        if matches(["api", "v1", "announcements", nil, "photos"]) { return .photos(id: try identifier(at: 3)) }
        if matches(["api", "admin", "v1", "announcements", nil]) { return .adminAnnouncement(id: try identifier(at: 4)) }
        if segments.count == 2, fixed(segments[0], "images"), !segments[1].isEmpty,
           let fileName = JavaScript.decodeURIComponent(String(segments[1]))
        {
            return .image(fileName: fileName)
        }
        return nil
    }
}
