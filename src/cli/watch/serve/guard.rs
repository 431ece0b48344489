//! Who may use the page: a request must carry this run's token, and its
//! Host and Origin must name the address the server is bound to, so that
//! a page of another origin can neither read the API nor accept a change
//! (a cross-site request has a foreign Origin; a DNS-rebinding one, a
//! foreign Host).
//!
//! The token is 32 bytes from the operating system's random source, new
//! each run, accepted as the `token` query parameter (what the printed
//! URL carries, and what the page's event stream uses) or as an
//! `Authorization: Bearer TOKEN` header (what the page's own requests
//! send, and what a script may prefer).

use std::net::{IpAddr, SocketAddr};

use tiny_http::Request;

/// The checks of one server.
pub struct Guard {
    token: String,
    port: u16,
    /// Bound to a loopback address: only a loopback Host is right.
    loopback: bool,
}

/// Why a request is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No Host, or one that is not the bound address (DNS rebinding).
    Host,
    /// An Origin other than the page's own.
    Origin,
    /// No token, or a wrong one.
    Token,
}

impl Refusal {
    /// The HTTP status and the reason, for the response.
    pub fn status_and_reason(&self) -> (u16, &'static str) {
        match self {
            Refusal::Host => (
                403,
                "the Host header does not name the address watch is bound to",
            ),
            Refusal::Origin => (403, "requests from another origin are refused"),
            Refusal::Token => (
                401,
                "this run's token is missing or wrong: open the address `puzzle-qa watch` \
                 printed, with its ?token=",
            ),
        }
    }
}

impl Guard {
    /// The guard of a server bound to `address`, with a fresh token.
    pub fn new(address: SocketAddr) -> Result<Guard, String> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|error| format!("no random token from the system: {error}"))?;
        Ok(Guard {
            token: bytes.iter().map(|byte| format!("{byte:02x}")).collect(),
            port: address.port(),
            loopback: address.ip().is_loopback(),
        })
    }

    /// The token, for the address printed.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether `request` may be answered.
    pub fn check(&self, request: &Request) -> Result<(), Refusal> {
        let header = |name: &str| {
            request
                .headers()
                .iter()
                .find(|header| header.field.as_str().as_str().eq_ignore_ascii_case(name))
                .map(|header| header.value.as_str().to_string())
        };
        let host = header("Host").ok_or(Refusal::Host)?;
        if !self.host_is_ours(&host) {
            return Err(Refusal::Host);
        }
        if let Some(origin) = header("Origin")
            && origin != format!("http://{host}")
        {
            return Err(Refusal::Origin);
        }
        let bearer = header("Authorization")
            .and_then(|value| value.strip_prefix("Bearer ").map(str::to_string));
        let query = query_value(request.url(), "token");
        let given = bearer.or(query).ok_or(Refusal::Token)?;
        if !same(given.as_bytes(), self.token.as_bytes()) {
            return Err(Refusal::Token);
        }
        Ok(())
    }

    /// Whether a Host header names this server: its port, and a host that
    /// no DNS name can rebind (`localhost` or an address; a loopback one
    /// when the server is bound to loopback).
    fn host_is_ours(&self, host: &str) -> bool {
        let Some((name, port)) = host.rsplit_once(':') else {
            return false;
        };
        if port.parse::<u16>() != Ok(self.port) {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let bare = name
            .strip_prefix('[')
            .and_then(|name| name.strip_suffix(']'))
            .unwrap_or(name);
        match bare.parse::<IpAddr>() {
            Ok(address) => !self.loopback || address.is_loopback(),
            Err(_) => false,
        }
    }
}

/// Compares two secrets in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The value of query parameter `name` in `url`, percent-decoded.
pub fn query_value(url: &str, name: &str) -> Option<String> {
    let (_, query) = url.split_once('?')?;
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (decode(key)? == name).then(|| decode(value)).flatten()
    })
}

/// `url`'s path, without its query.
pub fn path_of(url: &str) -> &str {
    url.split_once('?').map_or(url, |(path, _)| path)
}

/// Percent-decoding (and `+` as a space, as forms send it); `None` when the
/// result is not UTF-8 or an escape is broken.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'%' => {
                let hex = text.get(index + 1..index + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                index += 3;
            }
            b'+' => {
                out.push(b' ');
                index += 1;
            }
            byte => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(address: &str) -> Guard {
        Guard::new(address.parse().unwrap()).unwrap()
    }

    #[test]
    fn a_host_must_name_the_port_and_an_address_no_dns_name_can_rebind() {
        let local = guard("127.0.0.1:4000");
        assert!(local.host_is_ours("127.0.0.1:4000"));
        assert!(local.host_is_ours("localhost:4000"));
        assert!(local.host_is_ours("[::1]:4000"));
        assert!(!local.host_is_ours("127.0.0.1:4001"));
        assert!(!local.host_is_ours("127.0.0.1"));
        assert!(!local.host_is_ours("attacker.example:4000"));
        assert!(!local.host_is_ours("192.168.1.5:4000"));
        let everywhere = guard("0.0.0.0:4000");
        assert!(everywhere.host_is_ours("192.168.1.5:4000"));
        assert!(!everywhere.host_is_ours("attacker.example:4000"));
    }

    #[test]
    fn tokens_are_fresh_and_long() {
        let (a, b) = (guard("127.0.0.1:1"), guard("127.0.0.1:1"));
        assert_eq!(a.token().len(), 64);
        assert_ne!(a.token(), b.token());
    }

    #[test]
    fn query_values_are_percent_decoded() {
        let url = "/api/level?token=ab&level=bloxorz%3A%3Alevel01";
        assert_eq!(
            query_value(url, "level").as_deref(),
            Some("bloxorz::level01")
        );
        assert_eq!(query_value(url, "token").as_deref(), Some("ab"));
        assert_eq!(query_value(url, "other"), None);
        assert_eq!(query_value("/x?level=%zz", "level"), None);
        assert_eq!(path_of(url), "/api/level");
    }
}
