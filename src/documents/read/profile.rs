//! The profile a received document declares in its specification
//! identifier (BT-24, CII `ram:GuidelineSpecifiedDocumentContextParameter`,
//! UBL `cbc:CustomizationID`), as the Factur-X 1.0 and ZUGFeRD 2.x
//! specifications list them (ZUGFeRD 2.0's `urn:zugferd.de:2p0:` spellings
//! too), and what follows from it for a receiver: the profiles MINIMUM and
//! BASIC WL are booking aids, not invoices. They carry no lines (MINIMUM
//! not even a VAT breakdown), so they do not meet EN 16931, and in Germany
//! they are no invoice under § 14 UStG (the ZUGFeRD specification calls
//! them "Buchungshilfe"); the e-invoice itself must come in another
//! profile.

/// A profile of the documents kontor reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// Factur-X / ZUGFeRD MINIMUM: totals only.
    Minimum,
    /// Factur-X / ZUGFeRD BASIC WL: document level, without lines.
    BasicWl,
    /// Factur-X / ZUGFeRD BASIC: a subset of EN 16931 with lines.
    Basic,
    /// EN 16931 itself (Factur-X / ZUGFeRD EN 16931, formerly COMFORT).
    En16931,
    /// Factur-X / ZUGFeRD EXTENDED: conformant to EN 16931, with more.
    Extended,
    /// XRechnung, the German CIUS.
    XRechnung,
    /// Peppol BIS Billing 3.0.
    Peppol,
    /// ZUGFeRD 1.0 (BASIC, COMFORT or EXTENDED of its own).
    Zugferd1,
    /// Any other identifier, or none.
    Other,
}

impl Profile {
    /// The profile `specification` (BT-24) names; surrounding white space
    /// and letter case ignored (generators write `urn:cen.eu:EN16931:2017`
    /// too).
    pub fn of(specification: Option<&str>) -> Profile {
        let Some(id) = specification.map(str::trim) else {
            return Profile::Other;
        };
        let lower = id.to_ascii_lowercase();
        match lower.as_str() {
            "urn:factur-x.eu:1p0:minimum" | "urn:zugferd.de:2p0:minimum" => Profile::Minimum,
            "urn:factur-x.eu:1p0:basicwl" | "urn:zugferd.de:2p0:basicwl" => Profile::BasicWl,
            "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic"
            | "urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic" => Profile::Basic,
            "urn:cen.eu:en16931:2017" => Profile::En16931,
            "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended"
            | "urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended" => Profile::Extended,
            id if id.starts_with(
                "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung",
            ) || id.starts_with(
                "urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung",
            ) =>
            {
                Profile::XRechnung
            }
            id if id.starts_with(
                "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
            ) =>
            {
                Profile::Peppol
            }
            id if id.starts_with("urn:ferd:crossindustrydocument:invoice:1p0") => Profile::Zugferd1,
            _ => Profile::Other,
        }
    }

    /// The profile's name as its specification writes it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Minimum => "MINIMUM",
            Profile::BasicWl => "BASIC WL",
            Profile::Basic => "BASIC",
            Profile::En16931 => "EN 16931",
            Profile::Extended => "EXTENDED",
            Profile::XRechnung => "XRECHNUNG",
            Profile::Peppol => "Peppol BIS Billing 3.0",
            Profile::Zugferd1 => "ZUGFeRD 1.0",
            Profile::Other => "another specification",
        }
    }

    /// Whether the profile is a booking aid only (MINIMUM, BASIC WL): no
    /// invoice under EN 16931 or § 14 UStG.
    pub fn is_booking_aid(self) -> bool {
        matches!(self, Profile::Minimum | Profile::BasicWl)
    }
}

#[cfg(test)]
mod tests {
    use super::Profile;

    #[test]
    fn each_guideline_id_names_its_profile() {
        for (id, profile) in [
            ("urn:factur-x.eu:1p0:minimum", Profile::Minimum),
            (" urn:zugferd.de:2p0:minimum\n", Profile::Minimum),
            ("urn:factur-x.eu:1p0:basicwl", Profile::BasicWl),
            ("urn:zugferd.de:2p0:basicwl", Profile::BasicWl),
            (
                "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic",
                Profile::Basic,
            ),
            (
                "urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic",
                Profile::Basic,
            ),
            ("urn:cen.eu:en16931:2017", Profile::En16931),
            ("urn:cen.eu:EN16931:2017", Profile::En16931),
            (
                "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended",
                Profile::Extended,
            ),
            (
                "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
                Profile::XRechnung,
            ),
            (
                "urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.0",
                Profile::XRechnung,
            ),
            (
                "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
                Profile::Peppol,
            ),
            (
                "urn:ferd:CrossIndustryDocument:invoice:1p0:comfort",
                Profile::Zugferd1,
            ),
            ("urn:example:own", Profile::Other),
        ] {
            assert_eq!(Profile::of(Some(id)), profile, "{id}");
        }
        assert_eq!(Profile::of(None), Profile::Other);
        assert!(Profile::Minimum.is_booking_aid() && Profile::BasicWl.is_booking_aid());
        assert!(!Profile::Basic.is_booking_aid() && !Profile::Extended.is_booking_aid());
    }
}
