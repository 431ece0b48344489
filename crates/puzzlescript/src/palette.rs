//! Colour names to hex, by the game's palette.

#[path = "palette_data.rs"]
mod data;

/// A colour as hex (`#rgb` or `#rrggbb`, as written), `transparent`, or
/// `None` when it is not a colour. Names are looked up in `palette`.
pub(crate) fn to_hex(palette: &str, color: &str) -> Option<String> {
    let c = color.trim().to_lowercase();
    if c == "transparent" {
        return Some(c);
    }
    if let Some(hex) = c.strip_prefix('#') {
        let ok = (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|h| h.is_ascii_hexdigit());
        return ok.then_some(c);
    }
    let table = |name: &str| {
        data::PALETTES
            .iter()
            .find(|(p, _)| *p == name)
            .map(|(_, t)| *t)
    };
    // Whether a name is a colour at all is decided by the default palette.
    table("arnecolors")?.iter().find(|(n, _)| *n == c)?;
    let colors = table(palette).or_else(|| table("arnecolors"))?;
    colors
        .iter()
        .find(|(n, _)| *n == c)
        .map(|(_, h)| h.to_lowercase())
}
