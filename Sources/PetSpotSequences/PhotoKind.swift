import PetSpotJSON
import PetSpotPropertyEngine

/// The image type an upload sends.
enum PhotoKind: String, Hashable, Sendable {
    case png, jpeg

    /// The extension `photoUrl` takes for it.
    var fileExtension: String { rawValue }
    /// The declared Content-Type.
    var mediaType: String { "image/\(rawValue)" }
    /// The file name sent.
    var fileName: String { self == .png ? "pet.png" : "pet.jpg" }
}
