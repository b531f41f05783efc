//! How a person reads a country on a document: the English or German name
//! of the countries kontor's sellers and buyers are commonly in, as an
//! address line writes it; the ISO 3166-1 code stands for the others. Pure.

use crate::rules::locale::Lang;

/// The name of a country for an address line; the ISO code for the ones
/// not listed.
pub fn name(code: &str, lang: Lang) -> &str {
    let (en, de) = match code {
        "DE" => ("Germany", "Deutschland"),
        "AT" => ("Austria", "Österreich"),
        "CH" => ("Switzerland", "Schweiz"),
        "LI" => ("Liechtenstein", "Liechtenstein"),
        "FR" => ("France", "Frankreich"),
        "BE" => ("Belgium", "Belgien"),
        "NL" => ("Netherlands", "Niederlande"),
        "LU" => ("Luxembourg", "Luxemburg"),
        "IT" => ("Italy", "Italien"),
        "ES" => ("Spain", "Spanien"),
        "PT" => ("Portugal", "Portugal"),
        "PL" => ("Poland", "Polen"),
        "CZ" => ("Czechia", "Tschechien"),
        "DK" => ("Denmark", "Dänemark"),
        "SE" => ("Sweden", "Schweden"),
        "FI" => ("Finland", "Finnland"),
        "NO" => ("Norway", "Norwegen"),
        "IE" => ("Ireland", "Irland"),
        "GB" => ("United Kingdom", "Vereinigtes Königreich"),
        "XI" => ("Northern Ireland", "Nordirland"),
        "BG" => ("Bulgaria", "Bulgarien"),
        "CY" => ("Cyprus", "Zypern"),
        "EE" => ("Estonia", "Estland"),
        "GR" => ("Greece", "Griechenland"),
        "HR" => ("Croatia", "Kroatien"),
        "HU" => ("Hungary", "Ungarn"),
        "LT" => ("Lithuania", "Litauen"),
        "LV" => ("Latvia", "Lettland"),
        "MT" => ("Malta", "Malta"),
        "RO" => ("Romania", "Rumänien"),
        "SI" => ("Slovenia", "Slowenien"),
        "SK" => ("Slovakia", "Slowakei"),
        "US" => ("United States", "Vereinigte Staaten"),
        "JP" => ("Japan", "Japan"),
        _ => return code,
    };
    lang.pick(en, de)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_country_is_named_in_the_language_or_by_its_code() {
        assert_eq!(name("AT", Lang::De), "Österreich");
        assert_eq!(name("AT", Lang::En), "Austria");
        assert_eq!(name("BR", Lang::De), "BR");
    }
}
