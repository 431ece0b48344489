//! Pictures of levels in the game's own art: a small game of our own
//! drawn as a snapshot, layers stacked in collision-layer order, a
//! sprite-less object a square of its colour, the terminal grid the
//! replay's, an object without a legend character drawn by a letter of its
//! name, every step of a solution that presses `X` numbered, a big level's
//! SVG kept small, and every level of the example games drawn (when this
//! checkout has them).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use puzzle_qa_core::_cli_support::picture::{ascii, html, svg};
use puzzle_qa_core::game::{Draw, Game as _};
use puzzle_qa_core::level::AnyLevel;
use puzzle_qa_core::picture::{Look, Playback, Scene, Sprite};
use puzzle_qa_core::search::SearchOptions;
use puzzlescript::level::Level;
use puzzlescript::play;

/// A small game of our own. Its objects are listed out of layer order
/// (the crate before the target, the cloud before the player), so only
/// the collision layers can put them in order. The wall has no sprite.
const GAME: &str = "title Pictures
author puzzle-qa tests

OBJECTS

Background
#223344 #334455
00000
00000
00100
00000
00000

Wall
#888888

Crate
orange #ffee00
00000
01..0
0.1.0
0...0
00000

Target
#00cc00 transparent
.....
.000.
.010.
.000.
.....

Cloud
#ffffff
0....
.....
.....
.....
.....

Player
#0000ff #ff0000
.000.
.010.
.000.
.0.0.
.....

LEGEND

. = Background
# = Wall
C = Crate
T = Target
@ = Crate and Target
P = Player
Q = Player and Target
K = Cloud

SOUNDS

COLLISIONLAYERS

Background
Target
Player, Wall, Crate
Cloud

RULES

[ > Player | Crate ] -> [ > Player | > Crate ]

WINCONDITIONS

All Target on Crate

LEVELS

#######
#P.C.T#
#..@Q.#
#######
";

/// Grid level `n` (from 1) of `source`.
fn level(source: &str, n: usize) -> Level {
    let (game, _) = puzzlescript::load(source).unwrap_or_else(|e| panic!("{e:?}"));
    let game = Arc::new(game);
    let index = play::grid_index(&game, n).expect("the level exists");
    Level::new(game, index, play::DEFAULT_SEED).expect("a grid level")
}

/// `moves` played on `level`, a picture per state.
fn playback(level: &Level, moves: &str) -> Playback {
    AnyLevel::playback(level, moves)
        .unwrap()
        .expect("PuzzleScript levels draw")
}

/// The colour a stack of grids shows at pixel (`row`, `col`) of a 5 × 5
/// sprite: the topmost grid's that is not transparent there.
fn colour_at(sprite: &Sprite, row: usize, col: usize) -> Option<&str> {
    sprite.iter().rev().find_map(|grid| grid.at(row, col))
}

fn look_at(scene: &Scene, row: usize, col: usize) -> &Look {
    scene.look(row, col)
}

/// Parses an SVG and checks that every `<use>` names a defined id.
fn well_formed(text: &str) {
    let document = roxmltree::Document::parse(text).unwrap_or_else(|error| panic!("{error}"));
    let ids: HashSet<&str> = document
        .descendants()
        .filter_map(|node| node.attribute("id"))
        .collect();
    for node in document
        .descendants()
        .filter(|node| node.has_tag_name("use"))
    {
        let href = node.attribute("href").expect("a <use> has an href");
        let id = href.strip_prefix('#').expect("a local reference");
        assert!(ids.contains(id), "`{href}` is not defined");
    }
}

#[test]
fn a_small_levels_picture_is_a_snapshot() {
    let level = level(GAME, 1);
    let playback = playback(&level, "RRR");
    assert!(!playback.won, "the crate is one short of its target");
    let picture = svg::picture(&playback);
    well_formed(&picture);
    insta::assert_snapshot!(picture);
}

#[test]
fn later_collision_layers_are_drawn_on_top() {
    let level = level(GAME, 1);
    let scene = level.scene(&level.start());
    // Row 2, column 3: a crate on a target on the background.
    let look = look_at(&scene, 2, 3);
    assert_eq!(look.name, "crate on target");
    assert_eq!(look.glyph, '@');
    let colours: Vec<&str> = look.sprite.iter().map(|grid| &*grid.colours[0]).collect();
    // Bottom first; the palette has made `orange` a colour.
    assert_eq!(colours, ["#223344", "#00cc00", "#eb8931"]);
    // Where the crate and the target both have a pixel, the crate's shows;
    // where the crate is clear, the target's; where neither, the floor's.
    assert_eq!(colour_at(&look.sprite, 1, 1), Some("#ffee00"));
    assert_eq!(colour_at(&look.sprite, 1, 2), Some("#00cc00"));
    assert_eq!(colour_at(&look.sprite, 2, 2), Some("#ffee00"));
    assert_eq!(colour_at(&look.sprite, 2, 1), Some("#00cc00"));
    // The target's pixel in `transparent` lets the floor through.
    let target = look_at(&scene, 1, 5);
    assert_eq!(target.name, "target");
    assert_eq!(colour_at(&target.sprite, 2, 2), Some("#334455"));
    // In the SVG, a stack uses its grids in that order: later is on top.
    let picture = svg::picture(&playback(&level, ""));
    let stack = picture
        .lines()
        .find(|line| line.starts_with("<g id=\"s") && line.matches("<use").count() == 3)
        .expect("the crate on its target is a stack of three");
    let order: Vec<&str> = stack.split("href=\"#").skip(1).collect();
    let grid_of = |colour: &str| {
        picture
            .lines()
            .find(|line| line.starts_with("<g id=\"p") && line.contains(colour))
            .and_then(|line| line.split('"').nth(1))
            .unwrap()
            .to_string()
    };
    let (target, crate_) = (grid_of("#00cc00"), grid_of("#eb8931"));
    let at = |id: &str| order.iter().position(|used| used.starts_with(id)).unwrap();
    assert!(at(&target) < at(&crate_), "{stack}");
}

#[test]
fn a_player_and_the_layers_above_it_stand_as_a_piece() {
    let level = level(GAME, 1);
    let scene = level.scene(&level.start());
    let players: Vec<_> = scene.pieces.iter().filter(|piece| piece.actor).collect();
    assert_eq!(players.len(), 2, "two players");
    assert_eq!(players[0].cells, [(1, 1)]);
    assert_eq!(players[0].name, "player");
    // The second stands on a target: the cell keeps the target, the piece
    // is the player, and its glyph the legend's for both.
    assert_eq!(players[1].cells, [(2, 4)]);
    assert_eq!(players[1].glyph, 'Q');
    assert_eq!(look_at(&scene, 2, 4).name, "target");
    assert_eq!(look_at(&scene, 2, 4).glyph, 'T');
    // A cloud over a player belongs to the piece, on top of it.
    let clouded = GAME
        .replace("K = Cloud", "K = Cloud\nR = Player and Cloud")
        .replace("#..@Q.#", "#R.@Q.#");
    let level = self::level(&clouded, 1);
    let scene = level.scene(&level.start());
    let piece = scene.pieces.iter().find(|p| p.cells == [(2, 1)]).unwrap();
    assert_eq!(piece.name, "cloud on player");
    assert_eq!(piece.glyph, 'R');
    assert_eq!(colour_at(&piece.sprite, 0, 0), Some("#ffffff"));
    assert_eq!(colour_at(&piece.sprite, 1, 2), Some("#ff0000"));
    assert_eq!(colour_at(&piece.sprite, 4, 4), None, "the floor shows");
    assert_eq!(look_at(&scene, 2, 1).name, "background");
}

#[test]
fn an_object_without_a_sprite_is_a_square_of_its_colour() {
    let level = level(GAME, 1);
    let scene = level.scene(&level.start());
    let wall = look_at(&scene, 0, 0);
    assert_eq!(wall.name, "wall");
    assert_eq!(wall.glyph, '#');
    let grid = wall.sprite.last().unwrap();
    for row in 0..grid.side {
        for col in 0..grid.side {
            assert_eq!(grid.at(row, col), Some("#888888"), "({row}, {col})");
        }
    }
    // Drawn as one rectangle across the whole grid.
    let picture = svg::picture(&playback(&level, ""));
    let drawn = picture
        .lines()
        .find(|line| line.starts_with("<g id=\"p") && line.contains("#888888"))
        .unwrap();
    assert_eq!(drawn.matches("<rect").count(), 1, "{drawn}");
    assert!(drawn.contains("x=\"0\" y=\"0\" width=\"5\" height=\"5\""));
}

#[test]
fn the_terminal_grid_is_the_level_in_the_legends_characters() {
    let level = level(GAME, 1);
    let drawn = playback(&level, "RRD");
    // At the start, the grid is the level as its map writes it.
    let map: String = GAME[GAME.find("#######").unwrap()..]
        .lines()
        .map(|row| format!("{row}\n"))
        .collect();
    assert_eq!(ascii::grid(&drawn.frames[0].scene), map);
    assert_eq!(drawn.frames.len(), 4, "the start, then a frame per move");
    assert_eq!(
        ascii::key(&drawn.frames[0].scene),
        "key: # wall, . background, C crate, T target, @ crate on target, P player, \
         Q player\n"
    );
}

#[test]
fn the_contents_of_a_cell_are_its_objects_sorted_by_name() {
    let level = level(GAME, 1);
    let contents = playback(&level, "")
        .contents
        .expect("PuzzleScript tells its cells");
    let map: Vec<&str> = GAME[GAME.find("#######").unwrap()..].lines().collect();
    assert_eq!(contents.len(), map.len(), "a row of contents per map row");
    let at = |glyph: char| {
        let row = map.iter().position(|row| row.contains(glyph)).unwrap();
        let col = map[row].find(glyph).unwrap();
        contents[row][col].clone()
    };
    assert_eq!(at('#'), ["background", "wall"]);
    assert_eq!(at('@'), ["background", "crate", "target"]);
    assert_eq!(at('.'), ["background"]);
}

#[test]
fn a_big_levels_picture_stays_small() {
    // 20 × 20 cells of every kind: each distinct picture is drawn once.
    let rows: Vec<String> = (0..20)
        .map(|row| {
            (0..20)
                .map(|col| match (row, col) {
                    (0 | 19, _) | (_, 0 | 19) => '#',
                    (10, 10) => 'P',
                    _ => ['.', 'C', 'T', '@', '#', '.'][(row * 7 + col * 3) % 6],
                })
                .collect()
        })
        .collect();
    let source = format!(
        "{}{}\n",
        &GAME[..GAME.find("#######").unwrap()],
        rows.join("\n")
    );
    let level = level(&source, 1);
    let playback = playback(&level, "LLUURRDD");
    let picture = svg::picture(&playback);
    well_formed(&picture);
    let page = html::replay_page("big", "", &playback);
    // About 90 bytes a cell; the pixel art itself is a few kilobytes.
    assert!(picture.len() < 50_000, "{} bytes", picture.len());
    assert!(page.len() < 80_000, "{} bytes", page.len());
    assert!(picture.matches("<rect").count() < 200);
}

/// A game whose solutions press `X`: the action on the lever opens the
/// door (and a second press shuts it). The open door, made by a rule
/// only, has no legend character, nor has the spark. Its second level
/// cannot be won (the command line's tests draw it).
const LEVER: &str = include_str!("../fixtures/pictures/lever.txt");

/// The texts of the marks on the path of `picture`, each step's number
/// once, in the order drawn (a mark of several steps on the spot, `3,4`,
/// gives each).
fn step_numbers(picture: &str) -> Vec<u32> {
    let start = picture.find("<g class=\"path\">").unwrap();
    let end = start + picture[start..].find("</g>").unwrap();
    picture[start..end]
        .split("<text ")
        .skip(1)
        .map(|text| &text[text.find('>').unwrap() + 1..text.find('<').unwrap()])
        .flat_map(|mark| mark.split(','))
        .map(|number| number.parse().unwrap())
        .collect()
}

#[test]
fn every_step_of_a_solution_that_presses_x_is_numbered_the_action_on_the_players_cell() {
    let level = level(LEVER, 1);
    let solution = AnyLevel::solve(&level, SearchOptions::default());
    let moves = solution.moves.unwrap();
    assert!(moves.contains('X'), "the solution presses X: {moves}");
    let playback = playback(&level, &moves);
    let picture = svg::picture(&playback);
    well_formed(&picture);
    // 1 to par, each once: the X press is not skipped.
    let mut numbers = step_numbers(&picture);
    numbers.sort_unstable();
    let par = solution.par.unwrap();
    assert_eq!(numbers, (1..=par).collect::<Vec<_>>(), "{moves}");
    // The press is marked in the cell of the player who pressed, on the
    // lever, in its top right corner.
    let press = moves.find('X').unwrap() + 1;
    let lever = playback.frames[press].scene.pieces[0].cells[0];
    assert_eq!(lever, (1, 3));
    let at = picture.find(&format!(">{press}</text>")).unwrap();
    let rect = &picture[picture[..at].rfind("<rect").unwrap()..at];
    let attribute = |name: &str| -> f64 {
        let from = rect.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        rect[from..from + rect[from..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    let (x, y, width) = (attribute("x"), attribute("y"), attribute("width"));
    assert!(x >= 3.0 * 32.0 && x + width <= 4.0 * 32.0, "{rect}");
    assert_eq!(y, 32.0, "{rect}");
    // Pressed twice on the spot, both presses are numbered in one mark.
    let twice = svg::picture(&self::playback(&level, "RRXX"));
    assert!(twice.contains(">3,4</text>"), "{twice}");
    let start = picture.find("<g class=\"path\">").unwrap();
    let end = start + picture[start..].find("</g>").unwrap();
    insta::assert_snapshot!(&picture[start..end]);
}

#[test]
fn an_object_without_a_legend_character_is_drawn_by_a_letter_of_its_name_and_keyed() {
    let level = level(LEVER, 1);
    // The press opens the door: an object the legend has no character for.
    let drawn = playback(&level, "RRX");
    let opened = ascii::grid(&drawn.frames[3].scene);
    assert_eq!(opened, "#######\n#..P#G#\n#...O.#\n#######\n");
    assert!(!opened.contains('?'));
    // The key says what it stands for, and only what the grids show (the
    // spark is never drawn).
    assert_eq!(drawn.invented, [('O', "OpenDoor".to_string())]);
    assert_eq!(ascii::invented(&drawn), "not in the legend: O OpenDoor\n");
    assert_eq!(
        level.invented_glyphs(),
        [('O', "OpenDoor".to_string()), ('S', "Spark".to_string())]
    );
    // Nothing to key where every character is the legend's.
    assert_eq!(ascii::invented(&playback(&level, "RR")), "");
    // A character the legend has, in either case, is never taken: with
    // `o` the legend's, and `p` too (the player's `P`), the open door is
    // `e`, its name's next free letter.
    let taken = LEVER.replace("G = Goal", "G = Goal\no = Goal");
    let level = self::level(&taken, 1);
    let glyphs = level.invented_glyphs();
    assert_eq!(glyphs[0], ('e', "OpenDoor".to_string()));
    // The same on every load: made from the game alone.
    assert_eq!(self::level(&taken, 1).invented_glyphs(), glyphs);
    let legend = ['.', '#', 'p', 'l', 'd', 'g', 'o'];
    for (glyph, _) in &glyphs {
        assert!(!legend.contains(&glyph.to_ascii_lowercase()), "{glyph}");
    }
}

/// The example games' folder beside the repository, if present.
fn examples() -> Option<PathBuf> {
    let dir = match std::env::var_os("PUZZLESCRIPT_GAMES") {
        Some(dir) => PathBuf::from(dir),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/puzzlescript/games")
        }
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "pictures: the example games are absent ({}); none was drawn. Set \
             PUZZLESCRIPT_GAMES to their folder to draw them.",
            dir.display()
        );
        None
    }
}

#[test]
fn every_level_of_every_example_game_draws() {
    let Some(dir) = examples() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut drawn = 0;
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let Ok((game, _)) = puzzlescript::load(&source) else {
            eprintln!("pictures: {} does not compile; skipped", file.display());
            continue;
        };
        let game = Arc::new(game);
        for n in 1..=play::grid_count(&game) {
            let index = play::grid_index(&game, n).unwrap();
            let Some(level) = Level::new(Arc::clone(&game), index, play::DEFAULT_SEED) else {
                continue;
            };
            let what = format!("{} level {n}", file.display());
            let scene = level.scene(&level.start());
            let (width, height) = level.size();
            assert_eq!((scene.width, scene.height), (width, height), "{what}");
            assert_eq!(scene.cells.len(), width * height, "{what}");
            // The first move (often a push) is drawn too.
            let picture = svg::picture(&playback(&level, "R"));
            well_formed(&picture);
            drawn += 1;
        }
    }
    assert!(drawn > 0, "no level drawn in {}", dir.display());
}
