/// How many connections an ``HTTPServer`` holds at once under the process's limit on open
/// descriptors (`ulimit -n`), read when the server starts.
///
/// Each connection, and each client waiting for a slot (``waitingAdmissions`` at most), costs a
/// descriptor, and the process keeps ``reservedDescriptors``: the slots are what is left (at most
/// the configured number), so the server reaches its slot limit before the descriptors run out.
///
/// Invariants: `1 <= connections <= configuredConnections`; `1 <= waitingAdmissions <= 64`;
/// `connections + waitingAdmissions + reservedDescriptors <= descriptorLimit` whenever the limit
/// leaves room for two connections.
public struct ConnectionBudget: Sendable, Equatable {
    /// Descriptors left for the process's own use.
    public static let reservedDescriptors = 16
    /// Clients waiting for a slot at most, when descriptors are plentiful.
    public static let maximumWaitingAdmissions = 64

    /// The connections asked for (``HTTPServer/Configuration/maxConnections``).
    public let configuredConnections: Int
    /// The soft limit on open descriptors this budget was made for (`Int.max` when unlimited).
    public let descriptorLimit: Int
    /// Connections held at once.
    public let connections: Int
    /// Clients accepted at the limit that may wait for a slot at once.
    public let waitingAdmissions: Int

    /// The budget of `configuredConnections` under a limit of `descriptorLimit` descriptors.
    public init(configuredConnections: Int, descriptorLimit: Int) {
        self.configuredConnections = configuredConnections
        self.descriptorLimit = descriptorLimit
        let available = max(0, descriptorLimit - Self.reservedDescriptors)
        waitingAdmissions = min(Self.maximumWaitingAdmissions, max(1, available / 8))
        connections = max(1, min(configuredConnections, available - waitingAdmissions))
    }

    /// Whether the descriptor limit lowered the connections below the configured number.
    public var isLowered: Bool { connections < configuredConnections }

    /// The descriptor limit at which `count` connections are held in full.
    public static func descriptorsNeeded(forConnections count: Int) -> Int {
        count + reservedDescriptors + maximumWaitingAdmissions
    }
}
