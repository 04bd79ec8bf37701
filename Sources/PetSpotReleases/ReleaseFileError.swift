/// Why a release file, or a directory of them, cannot be checked: one line naming the file and,
/// where there is one, the key path or byte offset at fault. `can-i-deploy` stops with exit code
/// 2 on any of them, because nothing to check is never a pass.
public struct ReleaseFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or directory at fault, as the user named it.
    public let path: String
    /// The key path (`reports[3].payload`) or `byte 120`, when the fault has a place.
    public let location: String?
    /// What is wrong.
    public let reason: String

    /// An error about `path`.
    public init(path: String, location: String? = nil, reason: String) {
        self.path = path
        self.location = location
        self.reason = reason
    }

    /// `releases/2.0.json: reports[3].contract.status: expected an integer, found "201"`.
    public var description: String {
        [path, location, reason].compactMap { $0 }.joined(separator: ": ")
    }
}
