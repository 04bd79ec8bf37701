/// The Found flow's English copy, per screen, as data (report-flows.md, "Copy").
public struct FoundFlowCopy: Sendable, Hashable {
    /// Step 1, "Upload photo".
    public struct UploadPhoto: Sendable, Hashable {
        /// The navigation title.
        public let title = "Upload photo"
        /// The screen heading.
        public let heading = "Upload photo"
        /// The paragraph under the heading.
        public let body = "Upload a clear photo of the pet you found. This helps the owner recognize them quickly."
        /// The photo placeholder's first line.
        public let emptyStateTitle = "Tap to upload a photo"
        /// The photo placeholder's second line.
        public let emptyStateSubtitle = "PNG or JPG up to 10 MB"
        /// The primary button.
        public let button = "Continue"
    }

    /// Step 2, "Pet details".
    public struct PetDetails: Sendable, Hashable {
        /// The navigation title.
        public let title = "Pet details"
        /// The screen heading.
        public let heading = "Pet details"
        /// The paragraph under the heading.
        public let body = "Tell us what you know about the animal you found."
        /// The date field's label.
        public let dateLabel = "Date found"
        /// The date field's placeholder.
        public let datePlaceholder = "DD/MM/YYYY"
        /// The collar data (microchip) field's label.
        public let collarLabel = "Collar data (optional)"
        /// The collar data field's placeholder, the microchip display format.
        public let collarPlaceholder = "00000-00000-00000"
        /// The additional description field's label.
        public let descriptionLabel = "Additional description (optional)"
        /// The additional description field's placeholder.
        public let descriptionPlaceholder = "Any details that could help identify the pet..."
        /// The GPS button that fills latitude and longitude.
        public let locationButton = "Use current location"
        /// The primary button.
        public let button = "Continue"
    }

    /// Step 3, "Contact info".
    public struct ContactInfo: Sendable, Hashable {
        /// The navigation title.
        public let title = "Contact info"
        /// The screen heading.
        public let heading = "Contact information"
        /// The paragraph under the heading.
        public let body = "Share your contact details so the pet’s owner can reach you."
        /// The phone field's label.
        public let phoneLabel = "Your phone number"
        /// The phone field's placeholder.
        public let phonePlaceholder = "+1 (555) 000-0000"
        /// The email field's label.
        public let emailLabel = "Your email"
        /// The email field's placeholder.
        public let emailPlaceholder = "email@example.com"
        /// The caregiver phone field's label.
        public let caregiverPhoneLabel = "Caregiver phone number (optional)"
        /// The caregiver phone field's placeholder.
        public let caregiverPhonePlaceholder = "+1 (555) 000-0000"
        /// The current physical address field's label.
        public let addressLabel = "Current physical address (optional)"
        /// The current physical address field's placeholder.
        public let addressPlaceholder = "Full address where the animal is currently located"
        /// The primary button.
        public let button = "Submit report"
    }

    /// Step 1, "Upload photo".
    public let uploadPhoto = UploadPhoto()
    /// Step 2, "Pet details".
    public let petDetails = PetDetails()
    /// Step 3, "Contact info".
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
