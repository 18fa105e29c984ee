//! The one check of an e-mail address, for every place that takes one: accounts, sign-in,
//! course registrations, shares to outside recipients, the content's mailboxes.

/// Longest e-mail accepted (RFC 5321 path limit).
pub const MAX_EMAIL_LEN: usize = 254;

/// A plausible e-mail address: one `@`, a local part, a dotted domain without empty labels at
/// its ends or in its middle, no spaces or control characters, at most [`MAX_EMAIL_LEN`] bytes.
/// Deliverability is the mail server's business; this only refuses what cannot be an address.
pub fn is_valid(email: &str) -> bool {
    if email.len() > MAX_EMAIL_LEN || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    domain(email).is_some()
}

/// The domain of a plausible address (no length or space check: see [`is_valid`]).
pub fn domain(email: &str) -> Option<&str> {
    let (local, domain) = email.split_once('@')?;
    (!local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains(".."))
    .then_some(domain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plausible_addresses_are_accepted() {
        for ok in ["anna.rossi@example.com", "a+tag@sub.example.co.uk", "x@y.z"] {
            assert!(is_valid(ok), "{ok}");
        }
        assert_eq!(domain("sofia@sso.example.com"), Some("sso.example.com"));
    }

    #[test]
    fn what_cannot_be_an_address_is_refused() {
        for bad in [
            "",
            "anna",
            "@example.com",
            "anna@",
            "anna@example",
            "anna@.example.com",
            "anna@example.com.",
            "anna@example..com",
            "anna@b@example.com",
            "anna rossi@example.com",
            "anna@exam\u{0}ple.com",
        ] {
            assert!(!is_valid(bad), "{bad:?}");
        }
        let long = format!("{}@example.com", "a".repeat(MAX_EMAIL_LEN));
        assert!(!is_valid(&long));
    }
}
