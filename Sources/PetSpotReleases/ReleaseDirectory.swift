import Foundation
import PetSpotContractKit

/// The release files a team keeps (one `*.json` per release, committed beside the app or
/// uploaded from each release's CI), read for `can-i-deploy`.
///
/// Reading refuses, with one line naming the file: a directory that is missing or holds no
/// release file; a file that is not a release (``RecordedRelease/read(from:displayPath:)``); two
/// files of one release; and a supported release recorded against another major version of the
/// captured contract, whose answers at recording cannot be compared with this contract's (its
/// support ends, or it is recorded again). Nothing to check is never a pass.
public enum ReleaseDirectory {
    /// The extension of release files.
    public static let fileExtension = "json"

    /// The file name `record` gives the release `name` (characters outside letters, digits, `.`,
    /// `-` and `_` become `_`).
    public static func fileName(for name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" }) + "." + fileExtension
    }

    /// A release and the file it was read from.
    public struct File: Sendable {
        /// The release.
        public let release: RecordedRelease
        /// Its file.
        public let url: URL
        /// Its path as shown to the user.
        public let displayPath: String
    }

    /// Every release in `directory` (shown as `displayPath`), sorted by name.
    public static func load(_ directory: URL, displayPath: String) throws(ReleaseFileError) -> [RecordedRelease] {
        try files(directory, displayPath: displayPath).map(\.release)
    }

    /// Every release file in `directory` (shown as `displayPath`), sorted by release name.
    public static func files(_ directory: URL, displayPath: String) throws(ReleaseFileError) -> [File] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw ReleaseFileError(path: displayPath, reason: "no such directory: record a release first (petspot-contracts record --release NAME --out \(displayPath)/NAME.json)")
        }
        guard isDirectory.boolValue else { throw ReleaseFileError(path: displayPath, reason: "is a file, not a directory of release files") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ReleaseFileError(path: displayPath, reason: "cannot be listed (\(error.localizedDescription))")
        }
        let files = names.filter { $0.hasSuffix("." + fileExtension) && !$0.hasPrefix(".") }.sorted()
        guard !files.isEmpty else {
            throw ReleaseFileError(path: displayPath, reason: "holds no release file (*.\(fileExtension)): nothing to check is not a pass")
        }
        var releases: [File] = []
        var fileOfRelease: [String: String] = [:]
        for file in files {
            let shown = (displayPath as NSString).appendingPathComponent(file)
            let release = try RecordedRelease.read(from: directory.appendingPathComponent(file), displayPath: shown)
            if let other = fileOfRelease[release.name] {
                throw ReleaseFileError(path: shown, location: "release", reason: "release \"\(release.name)\" is also recorded in \(other): keep one file per release")
            }
            if release.isSupported && release.contractVersion != ContractSchemaName.majorVersion {
                throw ReleaseFileError(
                    path: shown, location: "contractVersion",
                    reason: "recorded against contract \(release.contractVersion), this tool checks contract \(ContractSchemaName.majorVersion): record the release again, or end its support (petspot-contracts release-support-ended)")
            }
            fileOfRelease[release.name] = shown
            releases.append(File(release: release, url: directory.appendingPathComponent(file), displayPath: shown))
        }
        return releases.sorted { $0.release.name.compare($1.release.name, options: .numeric) == .orderedAscending }
    }
}
