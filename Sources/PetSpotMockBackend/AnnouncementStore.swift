import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// A photo as the mock stores it.
public struct StoredPhoto: Sendable, Equatable {
    /// The format detected from the magic bytes.
    public let format: ImageFormat
    /// The file's bytes, exactly as uploaded.
    public let bytes: [UInt8]
}

/// One stored announcement.
struct StoredAnnouncement: Sendable {
    let id: String
    let sequence: Int
    /// The public representation (what details and list answer), keys in the documented order.
    var representation: JSONObject {
        didSet { serializedRepresentation = JSONValue.object(representation).serializedBytes() }
    }
    /// ``representation`` serialised, always in step with it: list answers are made of these
    /// arrays, shared rather than copied (see ``MockResponses/jsonList(_:)``).
    private(set) var serializedRepresentation: [UInt8]
    var password: SaltedPasswordHash
    /// The key under which the microchip number is unique, if one was given.
    let microchipKey: String?
    var photo: StoredPhoto?
    /// The name of its file under `/images` (`{id}.{ext}`), once a photo was uploaded.
    var photoFileName: String?

    init(id: String, sequence: Int, representation: JSONObject, password: SaltedPasswordHash, microchipKey: String?,
         photo: StoredPhoto?, photoFileName: String? = nil) {
        self.id = id
        self.sequence = sequence
        self.representation = representation
        self.serializedRepresentation = JSONValue.object(representation).serializedBytes()
        self.password = password
        self.microchipKey = microchipKey
        self.photo = photo
        self.photoFileName = photoFileName
    }
}

/// The in-memory announcement store and the `/images` files: every operation holds one lock, so
/// concurrent requests see a consistent store and an accepted create is never lost. The insert
/// refuses a taken microchip under the same lock, like the database's unique index (production
/// checks first with ``isMicrochipTaken(_:)``, and two creates can both pass that check).
///
/// Files are kept apart from the announcements, as production keeps them on disk: the file of
/// an announcement is written by an upload, replaced by the next one, and removed with the
/// announcement (planted defects keep a stale or orphaned file).
///
/// Planted sequence and concurrency defects (``MockDefect``) use the rest: tombstones of soft
/// deletes, a reusable id, details and list caches, a version that only creates bump, a shared
/// staging file, and an insert that rewrites a stale snapshot. Without those defects none of it
/// is read.
final class AnnouncementStore: Sendable {
    private struct State {
        var records: [String: StoredAnnouncement] = [:]
        var microchipOwners: [String: String] = [:]
        var files: [String: StoredPhoto] = [:]
        var nextSequence = 0
        /// Deleted records a planted defect still sees (soft deletes), by id.
        var tombstones: [String: StoredAnnouncement] = [:]
        /// The id of the newest announcement, deleted: a rowid-reuse defect hands it out again.
        var reusableId: String?
        /// Details answers cached by a planted defect, by id.
        var detailsCache: [String: JSONObject] = [:]
        /// List answers cached by a planted defect, by query, with the create version they saw.
        var listCache: [String: (version: Int, rows: [StoredAnnouncement])] = [:]
        /// Bumped by every create (not by an upload or a delete: a planted defect's cache misses them).
        var createVersion = 0
        /// The one shared staging file of a planted upload race.
        var staging: StoredPhoto?
    }

    private let state = Locked(State())

    /// Inserts the record built by `make` unless `microchipKey` is taken (with
    /// `enforcingUniqueMicrochip`, the database's unique index).
    /// - Returns: the stored record, or `nil` on a microchip conflict.
    func insert(
        microchipKey: String?, enforcingUniqueMicrochip: Bool = true, make: (Int) -> StoredAnnouncement
    ) -> StoredAnnouncement? {
        state.withLock { state in
            if enforcingUniqueMicrochip, let microchipKey, state.microchipOwners[microchipKey] != nil { return nil }
            let record = make(state.nextSequence)
            state.nextSequence += 1
            state.records[record.id] = record
            state.createVersion += 1
            state.reusableId = nil
            if let microchipKey { state.microchipOwners[microchipKey] = record.id }
            return record
        }
    }

    /// Inserts the record built by `make` as a store kept in one file does when two writers
    /// race (a planted defect): reads every record, waits `window`, then writes back what it read
    /// plus the new record, losing whatever was written meanwhile. The microchip number is
    /// checked at the write, against what the file holds then (a unique index).
    /// - Returns: the stored record, or `nil` on a microchip conflict (nothing written).
    func insertRewritingSnapshot(
        after window: Duration, microchipKey: String?, make: (Int) -> StoredAnnouncement
    ) -> StoredAnnouncement? {
        let (snapshot, sequence) = state.withLock { state -> ([String: StoredAnnouncement], Int) in
            defer { state.nextSequence += 1 }
            return (state.records, state.nextSequence)
        }
        Thread.sleep(forTimeInterval: AnnouncementStore.seconds(window))
        let record = make(sequence)
        return state.withLock { state -> StoredAnnouncement? in
            if let microchipKey, state.microchipOwners[microchipKey] != nil { return nil }
            state.records = snapshot
            state.records[record.id] = record
            state.microchipOwners = [:]
            for kept in state.records.values {
                if let key = kept.microchipKey { state.microchipOwners[key] = kept.id }
            }
            state.createVersion += 1
            return record
        }
    }

    /// Seeds records and their `/images` files (production's sample rows), before any request.
    func seed(_ records: [(make: (Int) -> StoredAnnouncement, file: (name: String, photo: StoredPhoto)?)]) {
        state.withLock { state in
            for entry in records {
                let record = entry.make(state.nextSequence)
                state.nextSequence += 1
                state.records[record.id] = record
                if let key = record.microchipKey { state.microchipOwners[key] = record.id }
                if let file = entry.file { state.files[file.name] = file.photo }
            }
        }
    }

    /// The id a rowid-reuse defect hands to the next create, if the newest announcement was deleted.
    var reusableId: String? {
        state.withLock { $0.reusableId }
    }

    /// Seconds of a duration.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Whether a stored announcement uses `microchipKey` (production's pre-check).
    func isMicrochipTaken(_ microchipKey: String) -> Bool {
        state.withLock { $0.microchipOwners[microchipKey] != nil }
    }

    func record(id: String) -> StoredAnnouncement? {
        state.withLock { $0.records[id] }
    }

    /// Sets the photo, its `/images` file and the matching representation fields.
    /// - Parameters:
    ///   - overwritingFile: `false` keeps an existing file of the same name (a stale cache).
    /// - Returns: `false` when the announcement is gone.
    ///   - rehashingPassword: a planted defect: the record is saved with its password hash hashed again.
    func setPhoto(
        id: String, photo: StoredPhoto, fileName: String, updatedAt: String, overwritingFile: Bool = true, rehashingPassword: Bool = false
    ) -> Bool {
        state.withLock { state in
            guard var record = state.records[id] else { return false }
            if let previous = record.photoFileName, previous != fileName { state.files[previous] = nil }
            if overwritingFile || state.files[fileName] == nil { state.files[fileName] = photo }
            record.photo = photo
            record.photoFileName = fileName
            record.representation["photoUrl"] = .string("/images/\(fileName)")
            record.representation["updatedAt"] = .string(updatedAt)
            if rehashingPassword { record.password = SaltedPasswordHash(password: record.password.digest.map { String(format: "%02x", $0) }.joined()) }
            state.records[id] = record
            return true
        }
    }

    /// Puts `photo` in the shared staging file, waits `window`, and takes back what the staging
    /// file then holds: another upload's bytes when two race (a planted defect).
    func stagedPhoto(_ photo: StoredPhoto, window: Duration) -> StoredPhoto {
        state.withLock { $0.staging = photo }
        Thread.sleep(forTimeInterval: AnnouncementStore.seconds(window))
        return state.withLock { $0.staging ?? photo }
    }

    /// The file served at `/images/{fileName}`, if any.
    func file(named fileName: String) -> StoredPhoto? {
        state.withLock { $0.files[fileName] }
    }

    /// What a delete leaves behind, each a planted defect.
    struct Remnants: OptionSet, Sendable {
        let rawValue: Int
        /// The photo file stays served.
        static let file = Remnants(rawValue: 1)
        /// The microchip number stays taken.
        static let microchip = Remnants(rawValue: 2)
        /// The record stays as a tombstone (a soft delete).
        static let tombstone = Remnants(rawValue: 4)
        /// The id goes to the next create when the record was the newest (rowid reuse).
        static let reusableId = Remnants(rawValue: 8)
    }

    /// Removes an announcement, its photo file, its microchip claim and its cached details,
    /// leaving the `remnants` planted defects keep.
    /// - Returns: `false` when there was none.
    func remove(id: String, leaving remnants: Remnants = []) -> Bool {
        state.withLock { state in
            guard let record = state.records.removeValue(forKey: id) else { return false }
            if !remnants.contains(.microchip), let key = record.microchipKey { state.microchipOwners.removeValue(forKey: key) }
            if !remnants.contains(.file), let fileName = record.photoFileName { state.files[fileName] = nil }
            if remnants.contains(.tombstone) { state.tombstones[id] = record }
            if remnants.contains(.reusableId), record.sequence == state.nextSequence - 1 { state.reusableId = id }
            state.detailsCache[id] = nil
            return true
        }
    }

    /// A deleted record a soft delete kept, if any.
    func tombstone(id: String) -> StoredAnnouncement? {
        state.withLock { $0.tombstones[id] }
    }

    /// Every announcement (only those with a photo unless `includingPhotoless`; with
    /// `includingTombstones`, soft-deleted ones too), oldest first.
    func announcements(includingPhotoless: Bool = false, includingTombstones: Bool = false) -> [StoredAnnouncement] {
        let selected = state.withLock { state in
            var all = Array(state.records.values)
            if includingTombstones { all += state.tombstones.values }
            return includingPhotoless ? all : all.filter { $0.photo != nil }
        }
        return selected.sorted { $0.sequence < $1.sequence }
    }

    /// The details a planted cache answered before for `id`, if any.
    func cachedDetails(id: String) -> JSONObject? {
        state.withLock { $0.detailsCache[id] }
    }

    /// Caches the details of `id` (a planted defect).
    func cacheDetails(_ representation: JSONObject, id: String) {
        state.withLock { $0.detailsCache[id] = representation }
    }

    /// The rows a planted list cache holds for `query`, if no create came since.
    func cachedList(query: String) -> [StoredAnnouncement]? {
        state.withLock { state in
            guard let entry = state.listCache[query], entry.version == state.createVersion else { return nil }
            return entry.rows
        }
    }

    /// Caches the rows of `query` (a planted defect), as of the current create version.
    func cacheList(_ rows: [StoredAnnouncement], query: String) {
        state.withLock { $0.listCache[query] = ($0.createVersion, rows) }
    }

    var count: Int {
        state.withLock { $0.records.count }
    }

    var allIdentifiers: [String] {
        announcements(includingPhotoless: true).map(\.id)
    }

    func removeAll() {
        state.withLock { state in
            state.records.removeAll()
            state.microchipOwners.removeAll()
            state.files.removeAll()
            state.tombstones.removeAll()
            state.detailsCache.removeAll()
            state.listCache.removeAll()
            state.reusableId = nil
            state.createVersion += 1
        }
    }
}
