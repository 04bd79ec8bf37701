import Foundation

/// An executable of this package, found in the build products directory beside the running
/// test bundle (test targets that depend on an executable target get it built there).
public enum BuiltProduct {
    /// The path of the built executable `name`, or `nil` when it is not there.
    public static func path(_ name: String) -> String? {
        var directories: [URL] = []
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles { directories.append(bundle.bundleURL.deletingLastPathComponent()) }
        for directory in directories {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
