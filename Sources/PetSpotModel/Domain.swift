/// The kind of animal a report is about, as the iOS app sends it.
public enum Species: String, Sendable, CaseIterable, Codable {
    case dog = "DOG", cat = "CAT", bird = "BIRD", rabbit = "RABBIT", other = "OTHER"
}

/// The animal's sex, as the iOS app sends it.
public enum Sex: String, Sendable, CaseIterable, Codable {
    case male = "MALE", female = "FEMALE", unknown = "UNKNOWN"
}

/// An announcement's status in the app's domain, and its wire spelling.
///
/// The app calls a missing-pet announcement `.active`; the backend calls it `MISSING`.
/// `.closed` exists on the backend (`CLOSED`) but is never sent when creating an announcement:
/// ``ReportFlowKind/status`` only ever yields `.active` or `.found`.
public enum AnnouncementStatus: Sendable, CaseIterable, Hashable {
    case active, found, closed

    /// The backend's spelling: `MISSING`, `FOUND` or `CLOSED`.
    public var wireValue: String {
        switch self {
        case .active: "MISSING"
        case .found: "FOUND"
        case .closed: "CLOSED"
        }
    }

    /// The status for a backend spelling; `nil` for anything else (case-sensitive, as the
    /// backend is).
    public init?(wireValue: String) {
        switch wireValue {
        case "MISSING": self = .active
        case "FOUND": self = .found
        case "CLOSED": self = .closed
        default: return nil
        }
    }
}

/// Which of the two report wizards a report comes from.
public enum ReportFlowKind: String, Sendable, CaseIterable, Hashable, Codable {
    /// "Report missing animal": an owner, 4 steps and a summary.
    case missing
    /// "Report found animal": a finder, 3 steps, closes after submitting.
    case found

    /// The status every report of this flow is created with.
    public var status: AnnouncementStatus {
        switch self {
        case .missing: .active
        case .found: .found
        }
    }

    /// The wizard's steps in order (the summary is not a step).
    public var steps: [ReportStep] {
        switch self {
        case .missing: Self.missingSteps
        case .found: Self.foundSteps
        }
    }

    /// The fields a user can fill in this flow, step by step in screen order.
    public var fields: [ReportField] {
        switch self {
        case .missing: Self.missingFields
        case .found: Self.foundFields
        }
    }

    private static let missingSteps: [ReportStep] = [.chipNumber, .photo, .description, .contactDetails]
    private static let foundSteps: [ReportStep] = [.photo, .petDetails, .contactInfo]
    private static let missingFields = missingSteps.flatMap(\.fields)
    private static let foundFields = foundSteps.flatMap(\.fields)
}

/// One screen of a report wizard. Its ``name`` is the step name of the adapter protocol.
public enum ReportStep: Int, Sendable, CaseIterable, Hashable {
    // Missing flow
    case chipNumber, photo, description, contactDetails
    // Found flow (photo is shared)
    case petDetails, contactInfo

    /// The step's name in the adapter protocol (`chipNumber`, `photo`, `description`, ...).
    public var name: String { Self.names[rawValue] }

    /// The step named `name`, if there is one.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self = Self.allCases[index]
    }

    /// The fields shown on this step, in screen order (the field table's order).
    public var fields: [ReportField] { Self.fieldsByStep[rawValue] }

    // The case names, as an enum without a custom description prints them.
    private static let names = allCases.map { String(describing: $0) }

    private static let fieldsByStep: [[ReportField]] = allCases.map { step in
        FieldTable.specs.filter { $0.placement.missing == step || $0.placement.found == step }.map(\.field)
    }
}
