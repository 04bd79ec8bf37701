import PetSpotMockBackend

/// The historic builds of sut-protocol.md as the example and Python adapters play them
/// (`--release NAME`), and what `can-i-deploy` must say of each against each of the mock's
/// planted contract changes: the release gate's expected matrix, for its tests and its `bench` row.
package enum HistoricBuilds {
    /// The release names, oldest first.
    package static let names = ["1.0", "1.4", "2.0"]

    /// The row of the unchanged mock in ``expected``.
    package static let unchanged = "none"

    /// The verdict of each build against each change (and the unchanged mock): the first builds
    /// have no Found flow and no petName, breed or age, and send 0,0 for an unset location; 1.4
    /// sends petName, breed and age and MISSING for a found report; 2.0 sends the status by flow.
    /// A user of any build can type 0 and 0 as the location, so the refused 0,0 breaks each.
    package static let expected: [String: [String: String]] = [
        unchanged: all("compatible"),
        MockChange.statusMissingRenamedLost.name: all("breaks"),
        MockChange.statusFoundRenamedSighted.name: ["1.0": "compatible", "1.4": "compatible", "2.0": "breaks"],
        MockChange.petNameRequired.name: all("breaks"),
        MockChange.breedRemoved.name: ["1.0": "compatible", "1.4": "breaks", "2.0": "breaks"],
        MockChange.ageAsText.name: ["1.0": "compatible", "1.4": "breaks", "2.0": "breaks"],
        MockChange.ageMax30.name: ["1.0": "compatible", "1.4": "breaks", "2.0": "breaks"],
        MockChange.nullIslandRefused.name: all("breaks"),
        MockChange.microchipMax15.name: all("compatible"),
        MockChange.emailRequired.name: all("compatible"),
        MockChange.phoneDigits7To15.name: all("compatible"),
        MockChange.unknownKeysIgnored.name: all("compatible"),
        MockChange.optionalNullAccepted.name: all("compatible"),
    ]

    /// `verdict` for every build.
    package static func all(_ verdict: String) -> [String: String] { Dictionary(uniqueKeysWithValues: names.map { ($0, verdict) }) }
}
