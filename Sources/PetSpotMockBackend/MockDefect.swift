import PetSpotContractKit

/// A realistic backend bug the mock can be told to have, so that the contract runner's power
/// to find bugs can be measured: run it against `petspot-contracts mock --break NAME` and it
/// must fail.
///
/// Each defect changes what the mock answers over the HTTP API, and nothing else; the mock
/// without defects answers as backend-contract.md says. A defect belongs to one surface of the
/// contract (``surface``) and is observable in the profiles listed by ``profiles`` (a few only
/// make sense against production's rules, e.g. accepting an empty optional text, which the
/// strict profile refuses anyway).
///
/// ```swift
/// let broken = MockBackend(profile: .production, defects: [.deleteAnyTokenAccepted, .echoHTMLKept])
/// let names = try MockDefect.parseList("delete-any-token-accepted,echo-html-kept")
/// ```
public enum MockDefect: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    // MARK: List
    /// Announcements without a photo are listed.
    case listShowsPhotoless = "list-shows-photoless"
    /// Without `range`, the filter uses 10 km instead of 5.
    case listDefaultRange10km = "list-default-range-10km"
    /// Distances are rounded to whole kilometres and compared with `<=`.
    case listRangeRoundedInclusive = "list-range-rounded-inclusive"
    /// The distance uses the Earth's radius in miles (3959) while `range` is in kilometres.
    case listEarthRadiusMiles = "list-earth-radius-miles"
    /// A `lat` outside -90...90 is accepted.
    case listLatitudeUnchecked = "list-latitude-unchecked"
    /// `lat` without `lng` (or the reverse) is accepted and the filter ignored.
    case listPartnerOptional = "list-partner-optional"
    /// `range=0` is accepted.
    case listRangeZeroAccepted = "list-range-zero-accepted"
    /// A negative `range` is accepted.
    case listRangeNegativeAccepted = "list-range-negative-accepted"
    /// A non-integer `range` (1.5) is accepted.
    case listRangeFractionAccepted = "list-range-fraction-accepted"
    /// Query numbers are read with `Number()`: `lat=50.06abc` is refused instead of read as 50.06.
    case listStrictNumberParsing = "list-strict-number-parsing"
    /// An empty `lat=` is refused instead of counting as absent.
    case listEmptyParameterRejected = "list-empty-parameter-rejected"
    /// The list answers at most 50 announcements, newest first, and says nothing of the rest
    /// (a page size left as a `LIMIT`).
    case listPage50 = "list-page-50"
    /// The list answers at most 100 announcements, newest first, and says nothing of the rest.
    case listPage100 = "list-page-100"

    // MARK: Details
    /// Details answer the stored `managementPassword` hash.
    case detailsLeaksPassword = "details-leaks-password"
    /// An unknown id answers 200 with `null` instead of the 404 envelope.
    case detailsUnknownID200 = "details-unknown-id-200"
    /// An id that is not a UUID answers 500 instead of the 404 envelope.
    case detailsMalformedID500 = "details-malformed-id-500"

    // MARK: Photo upload and /images
    /// `photoUrl`'s extension follows the part's declared Content-Type, not the detected type.
    case photoURLDeclaredType = "photo-url-declared-type"
    /// `/images` serves every photo as `application/octet-stream`.
    case imagesWrongContentType = "images-wrong-content-type"
    /// `/images` keeps serving the first upload's bytes after a replacement of the same type.
    case imagesStaleBytes = "images-stale-bytes"
    /// `/images/{id}.{ext}` serves the photo whatever the extension.
    case imagesAnyExtension = "images-any-extension"
    /// A second upload answers 201 but the first photo stays.
    case photoSecondUploadIgnored = "photo-second-upload-ignored"
    /// The photo is still served after the announcement is deleted.
    case photoKeptAfterDelete = "photo-kept-after-delete"
    /// The password is checked before the lookup: an unknown id answers 403, not 404.
    case photo403Before404 = "photo-403-before-404"
    /// The upload is parsed before authentication: no credentials and no file answer 400, not 401.
    case photoFileBeforeAuth = "photo-file-before-auth"
    /// An animated PNG (APNG) is accepted.
    case photoAPNGAccepted = "photo-apng-accepted"
    /// A file of exactly 20 MB is accepted (`>` instead of `>=`).
    case photoSizeLimitInclusive = "photo-size-limit-inclusive"

    // MARK: Admin delete
    /// A delete without an Authorization header is accepted.
    case deleteNoTokenAccepted = "delete-no-token-accepted"
    /// A delete with any token is accepted.
    case deleteAnyTokenAccepted = "delete-any-token-accepted"
    /// The token under a scheme (`Bearer T`) is accepted.
    case deleteBearerAccepted = "delete-bearer-accepted"
    /// Delete answers 204 but the announcement stays.
    case deleteKeepsAnnouncement = "delete-keeps-announcement"
    /// Deleting an unknown id answers 204 instead of 404.
    case deleteUnknown204 = "delete-unknown-204"

    // MARK: Echo
    /// Text fields come back with their HTML.
    case echoHTMLKept = "echo-html-kept"
    /// Stored values come back trimmed instead of as sent.
    case echoTrimmed = "echo-trimmed"
    /// An empty optional text comes back as `""` instead of `null` (production accepts it).
    case echoEmptyStringKept = "echo-empty-string-kept"
    /// Coordinates come back as strings (`"52.2297"`).
    case echoNumbersAsStrings = "echo-numbers-as-strings"

    // MARK: Routing and shared HTTP behaviour
    /// An unknown route answers Express's HTML page instead of the JSON envelope.
    case routingHTML404 = "routing-html-404"
    /// No `Access-Control-Allow-Origin` header.
    case routingNoCORS = "routing-no-cors"
    /// `HEAD` answers 404.
    case routingHead404 = "routing-head-404"
    /// An `OPTIONS` preflight answers 404.
    case routingOptions404 = "routing-options-404"
    /// Error envelopes are sent as `text/plain`.
    case routingErrorsTextPlain = "routing-errors-text-plain"
    /// `Content-Encoding` is ignored: a gzip body is parsed as it arrives.
    case routingGzipIgnored = "routing-gzip-ignored"
    /// A JSON charset that is not UTF (latin1) is accepted instead of answering 500.
    case routingCharsetIgnored = "routing-charset-ignored"
    /// An `:id` that is not valid percent-encoding answers 404 instead of 500.
    case routingBadEscape404 = "routing-bad-escape-404"

    // MARK: Create
    /// A microchip number longer than 15 digits is refused (production has no cap).
    case createMicrochipMax15 = "create-microchip-max-15"
    /// A date past the month's end (2025-02-30) is refused instead of rolled over.
    case createDateNoRollover = "create-date-no-rollover"
    /// An empty optional text is refused in production too.
    case createEmptyOptionalRefused = "create-empty-optional-refused"
    /// `status` is matched case-insensitively (`missing` accepted).
    case createStatusCaseInsensitive = "create-status-case-insensitive"
    /// The contact rule is skipped: no email and no phone is accepted.
    case createContactUnchecked = "create-contact-unchecked"
    /// An unknown key is reported before the field problems.
    case createUnknownKeyFirst = "create-unknown-key-first"
    /// The missing contact is reported before the field problems.
    case createContactBeforeFields = "create-contact-before-fields"
    /// JSON nested deeper than 512 levels answers 500 (a recursive parser's limit).
    case createDeepJSON500 = "create-deep-json-500"
    /// A number whose exponent is out of range (`1e-99999999999999999999`) answers 500.
    case createHugeExponent500 = "create-huge-exponent-500"
    /// A body over 100 KB answers 500 instead of 413.
    case createBodyLimit500 = "create-body-limit-500"

    // MARK: Messages
    /// Production's messages are replaced by generic ones (`Validation failed`, `Not found`).
    case messagesGeneric = "messages-generic"
    /// zod's default messages replace production's own (`Number must be less than or equal to 90`).
    case messagesZodDefaults = "messages-zod-defaults"
    /// The unknown-key message loses its key (`is not a valid field`).
    case messagesUnknownKeyUnnamed = "messages-unknown-key-unnamed"

    // MARK: Sequences (what only an order of requests shows)
    /// A deleted announcement's microchip number stays taken: a later create with it answers 409.
    case sequenceMicrochipKeptAfterDelete = "sequence-microchip-kept-after-delete"
    /// Ids come from SQLite rowids without AUTOINCREMENT: after the newest announcement is
    /// deleted, the next create answers its id again.
    case sequenceIdsReusedAfterDelete = "sequence-ids-reused-after-delete"
    /// Details are served from a cache that an upload does not invalidate (photoUrl stays old).
    case sequenceDetailsCacheStaleAfterUpload = "sequence-details-cache-stale-after-upload"
    /// List answers are cached per query and only a create invalidates them: an upload or a
    /// delete is not seen until the next create.
    case sequenceListCacheStale = "sequence-list-cache-stale"
    /// A delete is a soft delete the list query forgets: deleted announcements stay listed.
    case sequenceSoftDeleteListed = "sequence-soft-delete-listed"
    /// An upload to a deleted announcement finds its soft-deleted row and answers 201.
    case sequenceUploadAfterDelete201 = "sequence-upload-after-delete-201"
    /// An upload saves the record again and hashes the stored hash once more: the management
    /// password stops working after the first upload.
    case sequencePasswordRehashedOnUpload = "sequence-password-rehashed-on-upload"
    /// The list answers at most 20 announcements (a LIMIT left from paging), oldest first.
    case sequenceListLimit20 = "sequence-list-limit-20"
    /// The location filter reads a spatial index whose cells hold 10 entries: past 10 announcements
    /// near one point, the rest are silently left out.
    case sequenceListBucket10 = "sequence-list-bucket-10"

    // MARK: Concurrency (what only requests at once show)
    /// The microchip check and the insert are not atomic and the unique index is missing: two
    /// concurrent creates with one new microchip number both answer 201.
    case concurrencyDuplicateMicrochipBoth201 = "concurrency-duplicate-microchip-both-201"
    /// Each create reads the whole store, adds its record and writes it back: of two concurrent
    /// creates, one is answered 201 and lost.
    case concurrencyLostInsert = "concurrency-lost-insert"
    /// Uploads are staged in one shared temporary file: concurrent uploads to different
    /// announcements store each other's bytes.
    case concurrencyUploadsCrossed = "concurrency-uploads-crossed"
    /// The delete looks the announcement up, then removes it in a second step: of two
    /// concurrent deletes of one announcement, both answer 204.
    case concurrencyDeleteTwice204 = "concurrency-delete-twice-204"

    /// The part of the contract a defect breaks (declared in PetSpotContractKit, where the route
    /// table names the same surfaces).
    public typealias Surface = ContractSurface

    /// Whether the defect has a race window: the mock sleeps ``raceWindow`` between a check and
    /// the act that depends on it, so that concurrent requests reliably meet there.
    public var hasRaceWindow: Bool { surface == .concurrency }

    /// How long a request of a race defect waits between its check and its act.
    public static let raceWindow: Duration = .milliseconds(30)

    /// The defect's name on the command line (`--break NAME`).
    public var name: String { rawValue }

    /// `name: summary`.
    public var description: String { "\(rawValue): \(summary)" }

    /// The surface of the contract it breaks.
    public var surface: Surface {
        switch self {
        case .listShowsPhotoless, .listDefaultRange10km, .listRangeRoundedInclusive, .listEarthRadiusMiles, .listLatitudeUnchecked,
             .listPartnerOptional, .listRangeZeroAccepted, .listRangeNegativeAccepted, .listRangeFractionAccepted,
             .listStrictNumberParsing, .listEmptyParameterRejected, .listPage50, .listPage100:
            .list
        case .detailsLeaksPassword, .detailsUnknownID200, .detailsMalformedID500: .details
        case .photoURLDeclaredType, .imagesWrongContentType, .imagesStaleBytes, .imagesAnyExtension, .photoSecondUploadIgnored,
             .photoKeptAfterDelete, .photo403Before404, .photoFileBeforeAuth, .photoAPNGAccepted, .photoSizeLimitInclusive:
            .photo
        case .deleteNoTokenAccepted, .deleteAnyTokenAccepted, .deleteBearerAccepted, .deleteKeepsAnnouncement, .deleteUnknown204:
            .adminDelete
        case .echoHTMLKept, .echoTrimmed, .echoEmptyStringKept, .echoNumbersAsStrings: .echo
        case .routingHTML404, .routingNoCORS, .routingHead404, .routingOptions404, .routingErrorsTextPlain, .routingGzipIgnored,
             .routingCharsetIgnored, .routingBadEscape404:
            .routing
        case .createMicrochipMax15, .createDateNoRollover, .createEmptyOptionalRefused, .createStatusCaseInsensitive,
             .createContactUnchecked, .createUnknownKeyFirst, .createContactBeforeFields, .createDeepJSON500, .createHugeExponent500,
             .createBodyLimit500:
            .create
        case .messagesGeneric, .messagesZodDefaults, .messagesUnknownKeyUnnamed: .messages
        case .sequenceMicrochipKeptAfterDelete, .sequenceIdsReusedAfterDelete, .sequenceDetailsCacheStaleAfterUpload,
             .sequenceListCacheStale, .sequenceSoftDeleteListed, .sequenceUploadAfterDelete201,
             .sequencePasswordRehashedOnUpload, .sequenceListLimit20, .sequenceListBucket10:
            .sequences
        case .concurrencyDuplicateMicrochipBoth201, .concurrencyLostInsert, .concurrencyUploadsCrossed, .concurrencyDeleteTwice204:
            .concurrency
        }
    }

    /// The profiles in which the defect changes an answer. Most break both; accepting an empty
    /// optional text is production's rule (strict refuses it anyway), and the messages
    /// contracted are production's.
    public var profiles: Set<BackendProfile> {
        switch self {
        case .createEmptyOptionalRefused, .echoEmptyStringKept, .messagesGeneric, .messagesZodDefaults, .messagesUnknownKeyUnnamed:
            [.production]
        default: Set(BackendProfile.allCases)
        }
    }

    /// One line saying what the backend does wrong.
    public var summary: String {
        switch self {
        case .listShowsPhotoless: "announcements without a photo are listed"
        case .listDefaultRange10km: "without range, the location filter uses 10 km instead of 5"
        case .listRangeRoundedInclusive: "distances are rounded to whole km and compared with <=, so 5.4 km is within range=5"
        case .listEarthRadiusMiles: "distances use the Earth radius in miles (3959) while range is in km"
        case .listLatitudeUnchecked: "lat outside -90...90 is accepted"
        case .listPartnerOptional: "lat without lng (or lng without lat) is accepted and the filter ignored"
        case .listRangeZeroAccepted: "range=0 is accepted"
        case .listRangeNegativeAccepted: "a negative range is accepted"
        case .listRangeFractionAccepted: "a non-integer range (1.5) is accepted"
        case .listStrictNumberParsing: "query numbers read with Number(): lat=50.06abc is refused instead of read as 50.06"
        case .listEmptyParameterRejected: "an empty lat= is refused instead of counting as absent"
        case .listPage50: "the list answers at most 50 announcements (newest first), silently"
        case .listPage100: "the list answers at most 100 announcements (newest first), silently"
        case .detailsLeaksPassword: "details include the stored managementPassword hash"
        case .detailsUnknownID200: "an unknown id answers 200 null instead of the 404 envelope"
        case .detailsMalformedID500: "an id that is not a UUID answers 500 instead of the 404 envelope"
        case .photoURLDeclaredType: "photoUrl's extension follows the declared Content-Type, not the detected type"
        case .imagesWrongContentType: "/images serves every photo as application/octet-stream"
        case .imagesStaleBytes: "/images keeps serving the first upload's bytes after a same-type replacement"
        case .imagesAnyExtension: "/images/{id}.{ext} serves the photo whatever the extension"
        case .photoSecondUploadIgnored: "a second upload answers 201 but the first photo stays"
        case .photoKeptAfterDelete: "the photo is still served after the announcement is deleted"
        case .photo403Before404: "the password is checked before the lookup: an unknown id answers 403, not 404"
        case .photoFileBeforeAuth: "the upload is parsed before authentication: no credentials and no file answer 400, not 401"
        case .photoAPNGAccepted: "an animated PNG (acTL before IDAT) is accepted"
        case .photoSizeLimitInclusive: "a file of exactly 20 MB is accepted (> instead of >=)"
        case .deleteNoTokenAccepted: "a delete without an Authorization header is accepted"
        case .deleteAnyTokenAccepted: "a delete with a wrong token is accepted"
        case .deleteBearerAccepted: "the admin token under a scheme (Bearer T) is accepted"
        case .deleteKeepsAnnouncement: "delete answers 204 but the announcement stays"
        case .deleteUnknown204: "deleting an unknown id answers 204 instead of 404"
        case .echoHTMLKept: "text fields come back with their HTML tags"
        case .echoTrimmed: "stored values come back trimmed instead of as sent"
        case .echoEmptyStringKept: "an empty optional text comes back as \"\" instead of null"
        case .echoNumbersAsStrings: "locationLatitude and locationLongitude come back as strings"
        case .routingHTML404: "an unknown route answers an HTML page instead of the JSON 404 envelope"
        case .routingNoCORS: "no Access-Control-Allow-Origin header on any answer"
        case .routingHead404: "HEAD answers 404 instead of the GET route's head"
        case .routingOptions404: "an OPTIONS preflight answers 404 instead of 204"
        case .routingErrorsTextPlain: "error envelopes are sent with Content-Type text/plain"
        case .routingGzipIgnored: "Content-Encoding is ignored: a gzip body is parsed as it arrives"
        case .routingCharsetIgnored: "a JSON charset that is not UTF (latin1) is accepted instead of answering 500"
        case .routingBadEscape404: "an :id with bad percent-encoding answers 404 instead of 500"
        case .createMicrochipMax15: "a microchip number longer than 15 digits is refused"
        case .createDateNoRollover: "a date past the month's end (2025-02-30) is refused instead of rolled over"
        case .createEmptyOptionalRefused: "an empty optional text (petName \"\") is refused in production too"
        case .createStatusCaseInsensitive: "status is matched case-insensitively (missing is accepted)"
        case .createContactUnchecked: "the contact rule is skipped: neither email nor phone is accepted"
        case .createUnknownKeyFirst: "an unknown key is reported before field problems"
        case .createContactBeforeFields: "a missing contact is reported before field problems"
        case .createDeepJSON500: "JSON nested deeper than 512 levels answers 500"
        case .createHugeExponent500: "a number with an out-of-range exponent (1e-99999999999999999999) answers 500"
        case .createBodyLimit500: "a body over 100 KB answers 500 instead of 413"
        case .messagesGeneric: "production's error messages are replaced by generic ones"
        case .messagesZodDefaults: "zod's default messages replace production's own rule messages"
        case .messagesUnknownKeyUnnamed: "the unknown-key message loses its key: 'is not a valid field'"
        case .sequenceMicrochipKeptAfterDelete: "a deleted announcement's microchip number stays taken (a later create with it answers 409)"
        case .sequenceIdsReusedAfterDelete: "after the newest announcement is deleted, the next create answers its id again (rowid reuse)"
        case .sequenceDetailsCacheStaleAfterUpload: "details come from a cache an upload does not invalidate (photoUrl stays old)"
        case .sequenceListCacheStale: "list answers are cached per query and only a create invalidates them (uploads and deletes go unseen)"
        case .sequenceSoftDeleteListed: "a delete is a soft delete the list forgets: deleted announcements stay listed"
        case .sequenceUploadAfterDelete201: "an upload to a deleted announcement answers 201 instead of 404"
        case .sequencePasswordRehashedOnUpload: "an upload hashes the stored password hash again: later uploads answer 403"
        case .sequenceListLimit20: "the list answers at most 20 announcements (oldest first), silently"
        case .sequenceListBucket10: "past 10 announcements near one point, a location query silently leaves the rest out"
        case .concurrencyDuplicateMicrochipBoth201: "two concurrent creates with one new microchip number both answer 201"
        case .concurrencyLostInsert: "of two concurrent creates, one answers 201 and is lost (read-modify-write of the store)"
        case .concurrencyUploadsCrossed: "concurrent uploads to different announcements store each other's bytes"
        case .concurrencyDeleteTwice204: "two concurrent deletes of one announcement both answer 204 (look-up, then removal)"
        }
    }

    /// The most rows a list answers under this defect (newest first), or `nil` when it caps
    /// nothing so: a page size left as a `LIMIT` without paging.
    public var listPageSize: Int? {
        switch self {
        case .listPage50: 50
        case .listPage100: 100
        default: nil
        }
    }

    /// Every defect of a surface, in declaration order.
    public static func defects(of surface: Surface) -> [MockDefect] {
        allCases.filter { $0.surface == surface }
    }

    /// The defects named in a comma-separated list (`a,b`; spaces around names are ignored).
    /// - Throws: ``MockDefectParseError`` naming the first unknown or empty name.
    public static func parseList(_ text: String) throws(MockDefectParseError) -> Set<MockDefect> {
        var defects: Set<MockDefect> = []
        for rawName in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = rawName.trimmingASCIIWhitespace()
            guard let defect = MockDefect(rawValue: name) else { throw MockDefectParseError(name: name) }
            defects.insert(defect)
        }
        return defects
    }
}

/// A defect name that is not one of ``MockDefect``'s.
public struct MockDefectParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name as written (trimmed; empty for an empty list item).
    public let name: String

    /// `unknown defect 'NAME' (see --break list)`, or the empty-name sentence.
    public var description: String {
        name.isEmpty ? "empty defect name in the list" : "unknown defect '\(name)' (see --break list)"
    }
}
