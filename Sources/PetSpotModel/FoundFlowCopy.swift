/// The Found flow's English copy, per screen, as data (report-flows.md, "Copy").
public struct FoundFlowCopy: Sendable, Hashable {
    /// Step 1, "Upload photo".
    public struct UploadPhoto: Sendable, Hashable {
        public let title = "Upload photo"
        public let heading = "Upload photo"
        public let body = "Upload a clear photo of the pet you found. This helps the owner recognize them quickly."
        public let emptyStateTitle = "Tap to upload a photo"
        public let emptyStateSubtitle = "PNG or JPG up to 10 MB"
        public let button = "Continue"
    }

    /// Step 2, "Pet details".
    public struct PetDetails: Sendable, Hashable {
        public let title = "Pet details"
        public let heading = "Pet details"
        public let body = "Tell us what you know about the animal you found."
        public let dateLabel = "Date found"
        public let datePlaceholder = "DD/MM/YYYY"
        public let collarLabel = "Collar data (optional)"
        public let collarPlaceholder = "00000-00000-00000"
        public let descriptionLabel = "Additional description (optional)"
        public let descriptionPlaceholder = "Any details that could help identify the pet..."
        public let locationButton = "Use current location"
        public let button = "Continue"
    }

    /// Step 3, "Contact info".
    public struct ContactInfo: Sendable, Hashable {
        public let title = "Contact info"
        public let heading = "Contact information"
        public let body = "Share your contact details so the pet’s owner can reach you."
        public let phoneLabel = "Your phone number"
        public let phonePlaceholder = "+1 (555) 000-0000"
        public let emailLabel = "Your email"
        public let emailPlaceholder = "email@example.com"
        public let caregiverPhoneLabel = "Caregiver phone number (optional)"
        public let caregiverPhonePlaceholder = "+1 (555) 000-0000"
        public let addressLabel = "Current physical address (optional)"
        public let addressPlaceholder = "Full address where the animal is currently located"
        public let button = "Submit report"
    }

    public let uploadPhoto = UploadPhoto()
    public let petDetails = PetDetails()
    public let contactInfo = ContactInfo()

    /// The English copy.
    public static let english = FoundFlowCopy()

    /// Every string with a name, for checks that compare the copy with its source.
    public var allStrings: [(name: String, text: String)] {
        [
            ("uploadPhoto.title", uploadPhoto.title), ("uploadPhoto.heading", uploadPhoto.heading),
            ("uploadPhoto.body", uploadPhoto.body), ("uploadPhoto.emptyStateTitle", uploadPhoto.emptyStateTitle),
            ("uploadPhoto.emptyStateSubtitle", uploadPhoto.emptyStateSubtitle), ("uploadPhoto.button", uploadPhoto.button),
            ("petDetails.title", petDetails.title), ("petDetails.heading", petDetails.heading),
            ("petDetails.body", petDetails.body), ("petDetails.dateLabel", petDetails.dateLabel),
            ("petDetails.datePlaceholder", petDetails.datePlaceholder), ("petDetails.collarLabel", petDetails.collarLabel),
            ("petDetails.collarPlaceholder", petDetails.collarPlaceholder),
            ("petDetails.descriptionLabel", petDetails.descriptionLabel),
            ("petDetails.descriptionPlaceholder", petDetails.descriptionPlaceholder),
            ("petDetails.locationButton", petDetails.locationButton), ("petDetails.button", petDetails.button),
            ("contactInfo.title", contactInfo.title), ("contactInfo.heading", contactInfo.heading),
            ("contactInfo.body", contactInfo.body), ("contactInfo.phoneLabel", contactInfo.phoneLabel),
            ("contactInfo.phonePlaceholder", contactInfo.phonePlaceholder), ("contactInfo.emailLabel", contactInfo.emailLabel),
            ("contactInfo.emailPlaceholder", contactInfo.emailPlaceholder),
            ("contactInfo.caregiverPhoneLabel", contactInfo.caregiverPhoneLabel),
            ("contactInfo.caregiverPhonePlaceholder", contactInfo.caregiverPhonePlaceholder),
            ("contactInfo.addressLabel", contactInfo.addressLabel),
            ("contactInfo.addressPlaceholder", contactInfo.addressPlaceholder), ("contactInfo.button", contactInfo.button),
        ]
    }
}
