/// Which backend behaviour an expectation describes.
///
/// The project's mock backend is deliberately stricter and clearer than production in a few
/// places (empty or blank optional text is rejected; a body that is not JSON, a photo under
/// another part name or a corrupt compressed body is a 400, not a 500; its messages name the
/// field; see Contracts/README.md) and can be switched to reproduce production exactly. Catalog cases carry the production answer and,
/// where the strict mock differs, a separate strict answer; ``NegativeCase/expected(for:)`` picks
/// the one for a profile.
public enum BackendProfile: String, CaseIterable, Sendable, Hashable {
    /// The project's mock with its stricter rules (the default of `petspot-contracts mock`).
    case strict
    /// The production backend, or the mock reproducing it (`--profile production`).
    case production
}
