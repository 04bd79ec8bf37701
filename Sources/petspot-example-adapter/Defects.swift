// The defects the example adapter can plant: each one a switch in its own implementation of the
// rules (FlowApp.swift), the kind of mistake an app team makes at a rule's edge, or in its
// submission code (Submission.swift), the kind of mistake an app makes when the network fails.

/// One plantable defect: its `--break` name, the field it breaks (`submission` for the submission
/// code), the boundary class of the catalogue that exposes it (for a submission defect: the short
/// id of the property of the submission contracts it breaks), and what it does.
struct Defect: Sendable {
    let name: String
    let field: String
    let boundaryClass: String
    let summary: String

    /// Every defect: the flow's, then the submission's. `petspot-example-adapter --list-defects`
    /// prints them as `name<TAB>field<TAB>class<TAB>summary`; the runner's tests and `bench` read
    /// that list.
    static let all: [Defect] = flow + submission

    /// The defects of the report flows (protocol version 1 finds them), by field.
    static let flow: [Defect] = [
        Defect(name: "chip-keeps-16", field: "chipNumber", boundaryClass: "limit + 1", summary: "keeps 16 digits"),
        Defect(name: "chip-keeps-14", field: "chipNumber", boundaryClass: "limit", summary: "keeps only 14 digits"),
        Defect(name: "chip-unicode-digits", field: "chipNumber", boundaryClass: "look-alike", summary: "keeps any decimal digit (Arabic-Indic, fullwidth)"),
        Defect(name: "chip-any-number", field: "chipNumber", boundaryClass: "look-alike", summary: "keeps any Character.isNumber (², ①, ½, Ⅻ, other scripts' digits)"),
        Defect(name: "chip-scalar-filter", field: "chipNumber", boundaryClass: "look-alike", summary: "filters Unicode scalars, not Characters (keeps the 7 of 7 + U+0301)"),
        Defect(name: "chip-blank-sent", field: "chipNumber", boundaryClass: "empty", summary: "sends \"\" when no digit was typed"),
        Defect(name: "phone-min-6", field: "phone", boundaryClass: "limit - 1", summary: "accepts 6 digits"),
        Defect(name: "phone-min-8", field: "phone", boundaryClass: "limit", summary: "refuses 7 digits"),
        Defect(name: "phone-max-12", field: "phone", boundaryClass: "limit + 1", summary: "accepts 12 digits"),
        Defect(name: "phone-max-10", field: "phone", boundaryClass: "limit", summary: "refuses 11 digits"),
        Defect(name: "phone-unicode-digits", field: "phone", boundaryClass: "look-alike", summary: "counts and keeps any decimal digit"),
        Defect(name: "phone-scalar-filter", field: "phone", boundaryClass: "look-alike", summary: "filters Unicode scalars, not Characters"),
        Defect(name: "phone-nfkc", field: "phone", boundaryClass: "look-alike", summary: "folds fullwidth forms to ASCII before filtering"),
        Defect(name: "phone-optional", field: "phone", boundaryClass: "empty", summary: "lets an empty phone through"),
        Defect(name: "caregiver-unchecked", field: "caregiverPhone", boundaryClass: "not a member", summary: "never checks the caregiver phone"),
        Defect(name: "caregiver-untrimmed", field: "caregiverPhone", boundaryClass: "whitespace-only", summary: "checks a caregiver phone of spaces"),
        Defect(name: "caregiver-wide-trim", field: "caregiverPhone", boundaryClass: "invisible-only", summary: "trims zero-width characters, so skips an invisible caregiver phone"),
        Defect(name: "caregiver-max-12", field: "caregiverPhone", boundaryClass: "limit + 1", summary: "accepts a 12-digit caregiver phone"),
        Defect(name: "email-max-255", field: "email", boundaryClass: "limit + 1", summary: "accepts 255 characters"),
        Defect(name: "email-max-253", field: "email", boundaryClass: "limit", summary: "refuses 254 characters"),
        Defect(name: "email-length-before-trim", field: "email", boundaryClass: "padded", summary: "counts the length before trimming"),
        Defect(name: "email-case-folding", field: "email", boundaryClass: "look-alike", summary: "matches after Unicode case mapping (U+017F, U+212A pass)"),
        Defect(name: "email-unicode-letters", field: "email", boundaryClass: "look-alike", summary: "accepts any Unicode letter or digit"),
        Defect(name: "email-tld-1", field: "email", boundaryClass: "limit - 1", summary: "accepts a one-letter top-level domain"),
        Defect(name: "email-optional", field: "email", boundaryClass: "empty", summary: "lets an empty email through"),
        Defect(name: "untrimmed-email", field: "email", boundaryClass: "padded", summary: "sends the email untrimmed"),
        Defect(name: "email-wide-trim", field: "email", boundaryClass: "padded", summary: "trims zero-width characters too"),
        Defect(name: "latitude-exclusive", field: "latitude", boundaryClass: "limit", summary: "refuses -90 and 90"),
        Defect(name: "latitude-rounded", field: "latitude", boundaryClass: "just past the limit", summary: "range-checks the value rounded to 5 decimals"),
        Defect(name: "latitude-any-double", field: "latitude", boundaryClass: "not a number", summary: "reads any Double spelling (hexadecimal floats)"),
        Defect(name: "latitude-nfkc", field: "latitude", boundaryClass: "look-alike", summary: "folds fullwidth digits to ASCII"),
        Defect(name: "longitude-limit-90", field: "longitude", boundaryClass: "limit - 1", summary: "checks the longitude against 90"),
        Defect(name: "longitude-comma", field: "longitude", boundaryClass: "not a number", summary: "reads a decimal comma"),
        Defect(name: "longitude-untrimmed", field: "longitude", boundaryClass: "padded", summary: "does not trim the longitude"),
        Defect(name: "age-max-41", field: "age", boundaryClass: "limit + 1", summary: "accepts 41"),
        Defect(name: "age-min-0", field: "age", boundaryClass: "limit - 1", summary: "accepts 0"),
        Defect(name: "age-max-39", field: "age", boundaryClass: "limit", summary: "refuses 40"),
        Defect(name: "age-unicode-digits", field: "age", boundaryClass: "look-alike", summary: "reads any decimal digit"),
        Defect(name: "age-untrimmed-blank", field: "age", boundaryClass: "whitespace-only", summary: "refuses an age of spaces"),
        Defect(name: "age-wide-trim", field: "age", boundaryClass: "invisible-only", summary: "takes an invisible age for empty"),
        Defect(name: "description-cap-501", field: "description", boundaryClass: "limit + 1", summary: "keeps 501 characters"),
        Defect(name: "description-cap-scalars", field: "description", boundaryClass: "multi-scalar characters", summary: "caps at 500 Unicode scalars"),
        Defect(name: "description-trim-before-cap", field: "description", boundaryClass: "padded", summary: "trims before capping"),
        Defect(name: "reward-cap-119", field: "reward", boundaryClass: "limit", summary: "keeps only 119 characters"),
        Defect(name: "reward-cap-utf16", field: "reward", boundaryClass: "multi-scalar characters", summary: "caps at 120 UTF-16 units"),
        Defect(name: "breed-blank-sent", field: "breed", boundaryClass: "whitespace-only", summary: "sends a breed of spaces"),
        Defect(name: "breed-wide-trim", field: "breed", boundaryClass: "invisible-only", summary: "drops an invisible-only breed"),
        Defect(name: "petname-untrimmed", field: "petName", boundaryClass: "padded", summary: "sends the pet name untrimmed"),
        Defect(name: "leak-current-address", field: "currentAddress", boundaryClass: "member", summary: "sends the iOS-only current address"),
        Defect(name: "photo-cap-plus-one", field: "photo", boundaryClass: "limit + 1", summary: "accepts 10 MB + 1 byte"),
        Defect(name: "photo-cap-exclusive", field: "photo", boundaryClass: "limit", summary: "refuses exactly 10 MB"),
        Defect(name: "photo-empty-accepted", field: "photo", boundaryClass: "limit - 1", summary: "accepts an empty file"),
        Defect(name: "photo-type-case-sensitive", field: "photo", boundaryClass: "member", summary: "refuses IMAGE/PNG"),
        Defect(name: "photo-any-image", field: "photo", boundaryClass: "not a member", summary: "accepts any image/ type"),
        Defect(name: "date-local-today", field: "lastSeenDate", boundaryClass: "day after the latest allowed date", summary: "allows the user's today east of UTC after midnight"),
        Defect(name: "date-utc-today", field: "lastSeenDate", boundaryClass: "day after the latest allowed date", summary: "allows UTC's today west of UTC after UTC midnight"),
        Defect(name: "date-before-today", field: "lastSeenDate", boundaryClass: "latest allowed date", summary: "refuses the latest allowed date"),
        Defect(name: "species-optional", field: "species", boundaryClass: "empty", summary: "lets a report without species through"),
        Defect(name: "sex-optional", field: "sex", boundaryClass: "empty", summary: "lets a report without sex through"),
        Defect(name: "status-lowercase", field: "status", boundaryClass: "member", summary: "sends missing/found in lower case"),
        Defect(name: "leak-caregiver-phone", field: "caregiverPhone", boundaryClass: "member", summary: "sends the iOS-only caregiver phone"),
        Defect(name: "drop-email", field: "email", boundaryClass: "member", summary: "leaves the email out of the payload"),
        Defect(name: "empty-breed", field: "breed", boundaryClass: "empty", summary: "sends \"breed\": \"\" when no breed was typed"),
    ]

    /// The defects of the submission code (protocol version 2 finds them), field `submission`,
    /// class the short id of the property that catches them (docs: "Submission under faults").
    static let submission: [Defect] = [
        Defect(name: "submit-success-despite-upload-failure", field: "submission", boundaryClass: "leaves-flow",
               summary: "answers submitted once the create answered 201, whatever the upload's outcome"),
        Defect(name: "submit-timeout-says-went-wrong", field: "submission", boundaryClass: "alert",
               summary: "a time-out shows \"Something went wrong. Please try again later.\""),
        Defect(name: "submit-server-error-says-no-connection", field: "submission", boundaryClass: "alert",
               summary: "a 5xx answer shows \"No connection. Please check your network and try again.\""),
        Defect(name: "submit-cancel-clears-optional", field: "submission", boundaryClass: "inputs-kept",
               summary: "Cancel clears the optional texts (petName, breed, description, reward) and the microchip: the next attempt sends a smaller report"),
        Defect(name: "submit-retry-drops-microchip", field: "submission", boundaryClass: "inputs-kept",
               summary: "Try Again leaves the microchip out of the payload (to dodge a 409)"),
        Defect(name: "submit-retry-stale-password", field: "submission", boundaryClass: "gets-through",
               summary: "Try Again uploads to the new announcement with the first attempt's password (403 every time)"),
        Defect(name: "submit-upload-to-first-id", field: "submission", boundaryClass: "leaves-flow",
               summary: "Try Again uploads the photo to the first attempt's announcement (its id and password), not the new one"),
        Defect(name: "submit-double-create", field: "submission", boundaryClass: "one-announcement",
               summary: "every attempt sends the create twice (a double tap not debounced) and uploads to the second"),
        Defect(name: "submit-upload-answer-needs-body", field: "submission", boundaryClass: "gets-through",
               summary: "takes the upload's 201 {} for a failure (expects a photoUrl in it): an alert after a successful upload"),
        Defect(name: "submit-shows-first-password", field: "submission", boundaryClass: "leaves-flow",
               summary: "after a retry, the submitted answer shows the first attempt's managementPassword"),
        Defect(name: "submit-retry-untrimmed", field: "submission", boundaryClass: "inputs-kept",
               summary: "Try Again rebuilds the body from the untrimmed inputs: petName, breed, description, reward and email as typed"),
    ]
}
