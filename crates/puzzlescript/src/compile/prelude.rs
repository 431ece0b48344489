//! The prelude: the options that change play, and the checks of those
//! that only change how the game looks.

use crate::ast::Parsed;
use crate::log::Log;
use crate::palette;

/// Prelude options that change play.
#[derive(Clone, Debug, Default)]
pub struct Prelude {
    /// `title`, as written.
    pub title: Option<String>,
    /// `author`, as written.
    pub author: Option<String>,
    /// Rules run once when a level starts.
    pub run_rules_on_level_start: bool,
    /// A turn in which no player moves is undone.
    pub require_player_movement: bool,
    /// There is no action input.
    pub noaction: bool,
    /// Undo does nothing.
    pub noundo: bool,
    /// Restart does nothing.
    pub norestart: bool,
    /// Seconds between ticks, when the game runs in real time.
    pub realtime_interval: Option<f64>,
    /// The palette's name.
    pub palette: &'static str,
    /// `background_color`, as hex.
    pub background_color: Option<String>,
}

/// The options that change play, with the checks of the screen's
/// dimensions.
pub(super) fn compile(parsed: &Parsed, palette_name: &'static str, log: &mut Log) -> Prelude {
    let mut p = Prelude {
        palette: palette_name,
        ..Prelude::default()
    };
    let mut dims: Vec<(&str, &str, usize)> = Vec::new();
    for (key, value, line) in &parsed.metadata {
        match key.as_str() {
            "title" => p.title = Some(value.clone()),
            "author" => p.author = Some(value.clone()),
            "run_rules_on_level_start" => p.run_rules_on_level_start = true,
            "require_player_movement" => p.require_player_movement = true,
            "noaction" => p.noaction = true,
            "noundo" => p.noundo = true,
            "norestart" => p.norestart = true,
            "realtime_interval" => p.realtime_interval = value.trim().parse().ok(),
            "background_color" => p.background_color = palette::to_hex(palette_name, value),
            "flickscreen" | "zoomscreen" => dims.push((key, value, *line)),
            _ => {}
        }
    }
    // Only the last of each dimension option counts, as in a table.
    let mut last: Vec<(&str, &str, usize)> = Vec::new();
    for d in dims {
        last.retain(|x| x.0 != d.0);
        last.push(d);
    }
    last.sort_by_key(|d| if d.0 == "flickscreen" { 0 } else { 1 });
    for (_, value, line) in last {
        check_dimensions(value, line, log);
    }
    p
}

/// Logs a title screen colour that is not a colour: the last of each
/// option counts.
pub(super) fn check_colors(parsed: &Parsed, palette_name: &str, log: &mut Log) {
    for (key, fallback) in [("text_color", "white"), ("background_color", "black")] {
        if let Some((_, value, line)) = parsed.metadata.iter().rev().find(|(k, _, _)| k == key)
            && palette::to_hex(palette_name, value).is_none()
        {
            log.error(*line, format!("{key} in incorrect format - found {value}, but I expect a color name (like 'pink') or hex-formatted color (like '#1412FA').  Defaulting to {fallback}."));
        }
    }
}

/// Warns of a `flickscreen` or `zoomscreen` value that is not two whole
/// numbers above 0, `AxB`.
fn check_dimensions(value: &str, line: usize, log: &mut Log) {
    let parts: Vec<&str> = value.split('x').collect();
    if parts.len() != 2 {
        log.warning(line, "Dimensions must be of the form AxB.");
        return;
    }
    let mut ok = true;
    for s in &parts {
        match s.trim().parse::<f64>() {
            Ok(v) if v.fract() == 0.0 && v.is_finite() => {
                if v <= 0.0 {
                    log.warning(line, format!("The dimension given to me (you gave \"{s}\") is baad - it should be greater than 0."));
                }
            }
            _ => {
                log.warning(
                    line,
                    format!("Wasn't able to make sense of \"{s}\" as a (whole number) dimension."),
                );
                ok = false;
            }
        }
    }
    if !ok {
        log.warning(line, format!("Couldn't understand the dimensions given to me (you gave \"{value}\") - should be of the form AxB."));
    } else if parts
        .iter()
        .any(|s| s.trim().parse::<f64>().is_ok_and(|v| v <= 0.0))
    {
        log.warning(
            line,
            format!(
                "The dimensions given to me (you gave \"{value}\") are baad - they should be > 0."
            ),
        );
    }
}
