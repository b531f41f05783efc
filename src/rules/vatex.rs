//! VATEX codes, the reasons for a VAT exemption (BT-121), as the EN 16931
//! code lists (CEN validation artefacts 1.3.16, rule BR-CL-22) accept them.

/// Every code, sorted.
const CODES: &[&str] = &[
    "VATEX-EU-132",
    "VATEX-EU-132-1A",
    "VATEX-EU-132-1B",
    "VATEX-EU-132-1C",
    "VATEX-EU-132-1D",
    "VATEX-EU-132-1E",
    "VATEX-EU-132-1F",
    "VATEX-EU-132-1G",
    "VATEX-EU-132-1H",
    "VATEX-EU-132-1I",
    "VATEX-EU-132-1J",
    "VATEX-EU-132-1K",
    "VATEX-EU-132-1L",
    "VATEX-EU-132-1M",
    "VATEX-EU-132-1N",
    "VATEX-EU-132-1O",
    "VATEX-EU-132-1P",
    "VATEX-EU-132-1Q",
    "VATEX-EU-135-1",
    "VATEX-EU-143",
    "VATEX-EU-143-1A",
    "VATEX-EU-143-1B",
    "VATEX-EU-143-1C",
    "VATEX-EU-143-1D",
    "VATEX-EU-143-1E",
    "VATEX-EU-143-1F",
    "VATEX-EU-143-1FA",
    "VATEX-EU-143-1G",
    "VATEX-EU-143-1H",
    "VATEX-EU-143-1I",
    "VATEX-EU-143-1J",
    "VATEX-EU-143-1K",
    "VATEX-EU-143-1L",
    "VATEX-EU-144",
    "VATEX-EU-146-1E",
    "VATEX-EU-148",
    "VATEX-EU-148-A",
    "VATEX-EU-148-B",
    "VATEX-EU-148-C",
    "VATEX-EU-148-D",
    "VATEX-EU-148-E",
    "VATEX-EU-148-F",
    "VATEX-EU-148-G",
    "VATEX-EU-151",
    "VATEX-EU-151-1A",
    "VATEX-EU-151-1AA",
    "VATEX-EU-151-1B",
    "VATEX-EU-151-1C",
    "VATEX-EU-151-1D",
    "VATEX-EU-151-1E",
    "VATEX-EU-153",
    "VATEX-EU-159",
    "VATEX-EU-309",
    "VATEX-EU-79-C",
    "VATEX-EU-AE",
    "VATEX-EU-D",
    "VATEX-EU-F",
    "VATEX-EU-G",
    "VATEX-EU-I",
    "VATEX-EU-IC",
    "VATEX-EU-J",
    "VATEX-EU-O",
    "VATEX-FR-298SEXDECIESA",
    "VATEX-FR-AE",
    "VATEX-FR-CGI261-1",
    "VATEX-FR-CGI261-2",
    "VATEX-FR-CGI261-3",
    "VATEX-FR-CGI261-4",
    "VATEX-FR-CGI261-5",
    "VATEX-FR-CGI261-7",
    "VATEX-FR-CGI261-8",
    "VATEX-FR-CGI261A",
    "VATEX-FR-CGI261B",
    "VATEX-FR-CGI261C-1",
    "VATEX-FR-CGI261C-2",
    "VATEX-FR-CGI261C-3",
    "VATEX-FR-CGI261D-1",
    "VATEX-FR-CGI261D-1BIS",
    "VATEX-FR-CGI261D-2",
    "VATEX-FR-CGI261D-3",
    "VATEX-FR-CGI261D-4",
    "VATEX-FR-CGI261E-1",
    "VATEX-FR-CGI261E-2",
    "VATEX-FR-CGI275",
    "VATEX-FR-CGI277A",
    "VATEX-FR-CGI295",
    "VATEX-FR-CNWVAT",
    "VATEX-FR-FRANCHISE",
];

/// Whether `code` (exactly, upper case) is on the list.
pub fn known(code: &str) -> bool {
    CODES.binary_search(&code).is_ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_list_is_sorted_and_holds_its_codes() {
        assert!(super::CODES.windows(2).all(|w| w[0] < w[1]));
        for code in super::CODES {
            assert!(super::known(code));
        }
    }
}
