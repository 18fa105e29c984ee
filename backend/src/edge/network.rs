//! The network a client address counts in. Every limit keyed on the client address (the API's
//! rate limits, the sign-in and reset throttles) keys on its network instead: an IPv6 host is
//! usually given a whole /64, so counting single addresses would hand it endless fresh buckets.
//! The prefixes are `IPV4_PREFIX_BITS` (default 32) and `IPV6_PREFIX_BITS` (default 64).

use std::net::IpAddr;

use ipnet::IpNet;

use crate::config::Config;

/// How many leading bits of an address make its network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prefixes {
    pub ipv4: u8,
    pub ipv6: u8,
}

impl Prefixes {
    pub fn from_config(config: &Config) -> Self {
        Self {
            ipv4: config.ipv4_prefix_bits,
            ipv6: config.ipv6_prefix_bits,
        }
    }

    /// The network `address` counts in, e.g. `2001:db8:1:2::/64` or `192.0.2.7/32`. An IPv4
    /// address written as IPv6 (`::ffff:192.0.2.7`) counts as the IPv4 address it is.
    pub fn network_of(&self, address: IpAddr) -> IpNet {
        let address = address.to_canonical();
        let bits = match address {
            IpAddr::V4(_) => self.ipv4.min(32),
            IpAddr::V6(_) => self.ipv6.min(128),
        };
        // A prefix within the address's length always makes a network.
        IpNet::new(address, bits)
            .map(|net| net.trunc())
            .unwrap_or_else(|_| IpNet::from(address))
    }
}

impl Default for Prefixes {
    fn default() -> Self {
        Self { ipv4: 32, ipv6: 64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network(prefixes: Prefixes, address: &str) -> String {
        prefixes
            .network_of(address.parse().expect("an address"))
            .to_string()
    }

    #[test]
    fn ipv6_addresses_of_one_64_share_a_network() {
        let p = Prefixes::default();
        assert_eq!(network(p, "2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_eq!(
            network(p, "2001:db8:1:2:ffff:ffff:ffff:ffff"),
            "2001:db8:1:2::/64"
        );
        assert_ne!(network(p, "2001:db8:1:3::1"), network(p, "2001:db8:1:2::1"));
    }

    #[test]
    fn ipv4_addresses_stay_apart_by_default_and_group_when_told() {
        let p = Prefixes::default();
        assert_eq!(network(p, "192.0.2.7"), "192.0.2.7/32");
        assert_ne!(network(p, "192.0.2.7"), network(p, "192.0.2.8"));
        let p = Prefixes { ipv4: 24, ipv6: 48 };
        assert_eq!(network(p, "192.0.2.7"), "192.0.2.0/24");
        assert_eq!(network(p, "2001:db8:1:2::1"), "2001:db8:1::/48");
    }

    #[test]
    fn an_ipv4_address_written_as_ipv6_counts_as_ipv4() {
        let p = Prefixes::default();
        assert_eq!(network(p, "::ffff:192.0.2.7"), "192.0.2.7/32");
    }
}
