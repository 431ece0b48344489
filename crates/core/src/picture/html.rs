//! Self-contained HTML pages (no network, no external file): a replay of a
//! playback, and the suite's report (an index and a page per level).
//!
//! A replay page draws the board once and two layers per frame: the cells
//! that changed, under the path, and the pieces, over it (as the picture
//! `show --svg` writes has them), so a changed cell never hides a step's
//! mark. It shows one frame's layers at a time: play/pause,
//! the arrow keys, Home and End step through it, and a slider drags it, with
//! a move counter and the move's text highlighted; `#at=N` opens every
//! replay of the page at move N. Opened with `#selftest`, the page steps forward
//! once by a key press of its own and writes what the counter said before
//! and after into `data-selftest` on `<body>`; script errors are counted in
//! `data-errors`. The browser test reads both.

use std::fmt::Write as _;

use super::Playback;
use super::svg::{self, CELL, escape};

const STYLE: &str = "body{background:#12161f;color:#e8e8e8;font-family:sans-serif;margin:1.5em}\
a{color:#8ab4f8}table{border-collapse:collapse}td,th{padding:4px 8px;border-bottom:1px solid #2a3040;\
text-align:left;vertical-align:middle}.ok{color:#7bd88f}.stale{color:#f0c674}.fail{color:#ff6b6b;font-weight:bold}\
.moves span{padding:1px 3px;margin:1px;display:inline-block;border-radius:3px}\
.moves span.current{background:#ff7a5c;color:#000}button{font-size:1em;margin-right:.4em}\
.side{display:inline-block;vertical-align:top;margin-right:2em}pre{white-space:pre-wrap}\
.accept code{user-select:all;background:#1f2533;padding:3px 6px;border-radius:3px}";

/// Collects script errors into `data-errors` on `<body>`.
const ERRORS_SCRIPT: &str = "<script>(function(){var n=0;function bump(){n++;\
document.body.dataset.errors=String(n);}window.addEventListener('error',bump);\
var e=console.error;console.error=function(){bump();e.apply(console,arguments);};\
document.addEventListener('DOMContentLoaded',function(){document.body.dataset.errors=String(n);});\
})();</script>";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{}</title><style>{STYLE}</style>{ERRORS_SCRIPT}</head>\n<body>\n{body}</body></html>\n",
        escape(title)
    )
}

/// The replay of `playback`: the SVG and the controls, as an HTML fragment.
/// `id` keeps two replays on one page apart.
pub fn replay(playback: &Playback, id: &str) -> String {
    let first = &playback.frames[0].scene;
    let mut cells = String::new();
    let mut pieces = String::new();
    for (index, frame) in playback.frames.iter().enumerate() {
        let hidden = if index == 0 {
            ""
        } else {
            " style=\"display:none\""
        };
        let _ = writeln!(
            cells,
            "<g class=\"frame\" data-cost=\"{}\"{hidden}>{}</g>",
            frame.cost,
            svg::changes(first, &frame.scene)
        );
        let _ = writeln!(
            pieces,
            "<g class=\"frame-pieces\"{hidden}>{}</g>",
            svg::pieces(&frame.scene)
        );
    }
    let body = format!(
        "{}{}{cells}{}{pieces}{}{}",
        svg::sprites(playback.frames.iter().map(|frame| &frame.scene)),
        svg::board(first),
        svg::path(playback),
        svg::legend(playback, first.width * CELL + 12),
        svg::unsolved(playback)
    );
    let (width, height) = svg::size(playback);
    let picture = svg::document(width, height, &body);
    let moves: String = playback
        .frames
        .iter()
        .skip(1)
        .map(|frame| format!("<span class=\"move\">{}</span>", escape(&frame.text)))
        .collect();
    let total = playback.moves();
    let ending = match (&playback.refused, playback.won, &playback.unsolved) {
        (Some(reason), _, _) => format!("<p class=\"fail\">stopped: {}</p>", escape(reason)),
        (None, true, _) => "<p class=\"ok\">won</p>".to_string(),
        (None, false, Some(why)) => format!("<p class=\"stale\">{}</p>", escape(why)),
        (None, false, None) => {
            "<p class=\"fail\">the moves end before the level is won</p>".to_string()
        }
    };
    format!(
        "<div class=\"replay\" id=\"{id}\">\n<p><button class=\"play\">play</button>\
         <button class=\"back\">◀</button><button class=\"forward\">▶</button>\
         <input type=\"range\" class=\"scrub\" min=\"0\" max=\"{total}\" value=\"0\" \
         aria-label=\"move\"> \
         move <span class=\"counter\">0 / {total}</span> · <span class=\"cost\">0</span> \
         counted toward par (arrow keys step, space plays)</p>\n\
         {picture}<p class=\"moves\">{moves}</p>{ending}</div>\n"
    )
}

/// The script that drives every `.replay` on a page; the arrow keys drive
/// the first one.
const REPLAY_SCRIPT: &str = "<script>(function(){\
function Replay(root){var frames=root.querySelectorAll('.frame'),pieces=root.querySelectorAll('.frame-pieces'),\
moves=root.querySelectorAll('.move'),\
counter=root.querySelector('.counter'),cost=root.querySelector('.cost'),play=root.querySelector('.play'),\
scrub=root.querySelector('.scrub'),at=0,timer=null,self=this;\
function show(i){at=Math.max(0,Math.min(frames.length-1,i));for(var k=0;k<frames.length;k++)\
{frames[k].style.display=k===at?'':'none';if(pieces[k]){pieces[k].style.display=k===at?'':'none';}}\
for(var m=0;m<moves.length;m++)\
{moves[m].classList.toggle('current',m===at-1);}counter.textContent=at+' / '+(frames.length-1);cost.textContent=frames[at].dataset.cost;\
if(scrub){scrub.value=String(at);}}\
function stop(){if(timer){clearInterval(timer);timer=null;}play.textContent='play';}\
function start(){if(at>=frames.length-1){show(0);}timer=setInterval(function(){\
if(at>=frames.length-1){stop();}else{show(at+1);}},350);play.textContent='pause';}\
this.step=function(d){stop();show(at+d);};this.toggle=function(){if(timer){stop();}else{start();}};\
this.home=function(){stop();show(0);};this.end=function(){stop();show(frames.length-1);};\
this.go=function(i){stop();show(i);};\
if(scrub){scrub.addEventListener('input',function(){self.go(Number(scrub.value));});}\
play.addEventListener('click',function(){self.toggle();});\
root.querySelector('.back').addEventListener('click',function(){self.step(-1);});\
root.querySelector('.forward').addEventListener('click',function(){self.step(1);});show(0);}\
var replays=[].map.call(document.querySelectorAll('.replay'),function(r){return new Replay(r);});\
document.addEventListener('keydown',function(e){var r=replays[0];if(!r)return;\
if(e.key==='ArrowRight'){r.step(1);}else if(e.key==='ArrowLeft'){r.step(-1);}\
else if(e.key===' '){r.toggle();}else if(e.key==='Home'){r.home();}else if(e.key==='End'){r.end();}\
else{return;}e.preventDefault();});\
var goTo=/^#at=(\\d+)$/.exec(location.hash);if(goTo){replays.forEach(function(r){r.go(Number(goTo[1]));});}\
if(location.hash==='#selftest'){var c=document.querySelector('.counter');var before=c?c.textContent:'';\
document.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight'}));\
document.body.dataset.selftest=before+' -> '+(c?c.textContent:'');}\
})();</script>";

/// A page replaying `playback`, titled `title`, with `intro` (HTML) above.
pub fn replay_page(title: &str, intro: &str, playback: &Playback) -> String {
    let body = format!(
        "<h1>{}</h1>\n{intro}{}{REPLAY_SCRIPT}",
        escape(title),
        replay(playback, "replay")
    );
    page(title, &body)
}

/// A page with two replays side by side (the old solution and the new one
/// of a level whose par changed).
pub fn compare_page(
    title: &str,
    intro: &str,
    (old_title, old): (&str, &Playback),
    (new_title, new): (&str, &Playback),
) -> String {
    let body = format!(
        "<h1>{}</h1>\n{intro}<div class=\"side\"><h2>{}</h2>{}</div>\
         <div class=\"side\"><h2>{}</h2>{}</div>{REPLAY_SCRIPT}",
        escape(title),
        escape(old_title),
        replay(old, "old"),
        escape(new_title),
        replay(new, "new"),
    );
    page(title, &body)
}

/// A command a reviewer copies (the one that accepts a change), with a
/// button that puts it on the clipboard; a click on the command selects it
/// whole where the clipboard is not offered (a page opened from a file in
/// some browsers).
pub fn copyable(caption: &str, command: &str) -> String {
    format!(
        "<p class=\"accept\">{}: <code>{}</code> <button type=\"button\" \
         onclick=\"copyCommand(this)\">copy</button></p>{COPY_SCRIPT}\n",
        escape(caption),
        escape(command)
    )
}

/// Copies the command beside the button, or selects it if the clipboard
/// refuses; the button says which.
const COPY_SCRIPT: &str = "<script>function copyCommand(button){\
var code=button.previousElementSibling,text=code.textContent;\
function selectIt(){var r=document.createRange();r.selectNodeContents(code);\
var s=window.getSelection();s.removeAllRanges();s.addRange(r);button.textContent='selected: press Ctrl+C';}\
if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(text)\
.then(function(){button.textContent='copied';},selectIt);}else{selectIt();}}</script>";

/// One level's row in the suite's index.
pub struct IndexRow {
    /// `game::level`.
    pub name: String,
    /// The level's page, relative to the index.
    pub link: String,
    /// A small SVG of the level, if the game draws.
    pub thumbnail: Option<String>,
    /// The level's par, if its search ran and found one.
    pub par: Option<u32>,
    /// States the search stored; 0 if it did not run.
    pub states: u64,
    /// How long the search took, in milliseconds; 0 if it did not run.
    pub ms: f64,
    /// Each check and its verdict as a table cell shows it: `ok`,
    /// `stale` or `FAIL`.
    pub checks: Vec<(String, &'static str)>,
}

impl IndexRow {
    fn failed(&self) -> bool {
        self.checks.iter().any(|(_, label)| *label != "ok")
    }
}

/// The suite's index: every level (failures first, then by name) with its
/// thumbnail, par, states, time and a verdict per check.
pub fn index(rows: &mut [IndexRow]) -> String {
    rows.sort_by(|a, b| {
        b.failed()
            .cmp(&a.failed())
            .then_with(|| a.name.cmp(&b.name))
    });
    let failed = rows.iter().filter(|row| row.failed()).count();
    let mut table = String::from(
        "<table>\n<tr><th>level</th><th></th><th>par</th><th>states</th><th>ms</th>\
         <th>checks</th></tr>\n",
    );
    for row in rows.iter() {
        let checks: Vec<String> = row
            .checks
            .iter()
            .map(|(check, label)| {
                let class = match *label {
                    "ok" => "ok",
                    "stale" => "stale",
                    _ => "fail",
                };
                format!("{} <span class=\"{class}\">{label}</span>", escape(check))
            })
            .collect();
        let _ = writeln!(
            table,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td>\
             <td>{}</td></tr>",
            escape(&row.link),
            escape(&row.name),
            row.thumbnail.as_deref().unwrap_or(""),
            row.par.map_or("-".to_string(), |par| par.to_string()),
            row.states,
            row.ms,
            checks.join(" · ")
        );
    }
    table.push_str("</table>\n");
    let summary = format!(
        "<p>{} levels: <span class=\"{}\">{failed} failing</span></p>\n",
        rows.len(),
        if failed == 0 { "ok" } else { "fail" }
    );
    page(
        "puzzle-qa report",
        &format!("<h1>puzzle-qa report</h1>\n{summary}{table}"),
    )
}

/// A page for a level the game cannot draw, or whose moves do not read.
pub fn text_page(title: &str, intro: &str) -> String {
    page(title, &format!("<h1>{}</h1>\n{intro}", escape(title)))
}
