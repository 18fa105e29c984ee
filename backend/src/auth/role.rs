//! What an account may do. Stored and sent as lowercase words (`user`, `admin`, `auditor`,
//! `publisher`, `approver`), the same in the database and on the wire.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A rep, surgeon or member of staff.
    User,
    /// May manage accounts and publish notifications and app updates.
    Admin,
    /// Reads the history of every document.
    Auditor,
    /// Prepares the company's content: drafts library documents and news, uploads versions,
    /// submits them for approval, withdraws them.
    Publisher,
    /// Releases the company's content: approves or rejects what a publisher submitted (never a
    /// version they wrote themselves), withdraws it.
    Approver,
}

/// A role name that is none of `user`, `admin`, `auditor`, `publisher` or `approver`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("The role must be user, admin, auditor, publisher or approver")]
pub struct UnknownRole;

impl Role {
    pub const ALL: [Role; 5] = [
        Role::User,
        Role::Admin,
        Role::Auditor,
        Role::Publisher,
        Role::Approver,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Admin => "admin",
            Role::Auditor => "auditor",
            Role::Publisher => "publisher",
            Role::Approver => "approver",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or(UnknownRole)
    }
}

/// Reads the `role` column.
impl TryFrom<String> for Role {
    type Error = UnknownRole;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_read_and_write_the_stored_words() {
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
            assert_eq!(
                serde_json::to_value(role).unwrap(),
                serde_json::json!(role.as_str())
            );
        }
        assert_eq!(
            serde_json::to_value(Role::Auditor).unwrap(),
            serde_json::json!("auditor")
        );
        assert_eq!("Admin".parse::<Role>(), Err(UnknownRole));
        assert_eq!("".parse::<Role>(), Err(UnknownRole));
    }
}
