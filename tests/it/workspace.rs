//! The crate boundaries hold: the core depends on no game, each game on the
//! core alone among the workspace's crates, and only the command line
//! names the games. The compiler enforces the rest: a crate cannot use what
//! it does not depend on.

use crate::support::repository;

/// The workspace's members: (package name, its workspace dependencies).
fn members() -> Vec<(String, Vec<String>)> {
    let root = repository();
    let workspace: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let local: Vec<String> = workspace["workspace"]["dependencies"]
        .as_table()
        .unwrap()
        .iter()
        .filter(|(_, spec)| spec.get("path").is_some())
        .map(|(name, _)| name.clone())
        .collect();
    let mut folders = vec![root.to_path_buf()];
    let mut crates: Vec<_> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .collect();
    crates.sort();
    folders.extend(crates);
    folders
        .iter()
        .map(|folder| {
            let manifest: toml::Table = std::fs::read_to_string(folder.join("Cargo.toml"))
                .unwrap()
                .parse()
                .unwrap();
            let name = manifest["package"]["name"].as_str().unwrap().to_string();
            // Dev-dependencies count too: a test must not reach across either.
            let mut uses: Vec<String> = ["dependencies", "dev-dependencies", "build-dependencies"]
                .iter()
                .filter_map(|table| manifest.get(*table)?.as_table())
                .flat_map(|table| table.keys().cloned())
                .filter(|dependency| local.contains(dependency))
                .collect();
            uses.sort();
            (name, uses)
        })
        .collect()
}

#[test]
fn the_core_depends_on_no_game_and_each_game_on_the_core_alone() {
    let members = members();
    let names: Vec<&str> = members.iter().map(|(name, _)| name.as_str()).collect();
    assert!(names.contains(&"puzzle-qa-core"), "{names:?}");
    let games: Vec<&str> = names
        .iter()
        .copied()
        .filter(|name| !["puzzle-qa", "puzzle-qa-core"].contains(name))
        .collect();
    assert!(games.len() >= 3, "{games:?}");
    for (name, uses) in &members {
        match name.as_str() {
            "puzzle-qa-core" => assert!(uses.is_empty(), "the core depends on {uses:?}"),
            // The command line is the one crate that names the games.
            "puzzle-qa" => {
                for game in &games {
                    assert!(
                        uses.iter().any(|used| used == game),
                        "{game} is not registered"
                    );
                }
            }
            game => assert_eq!(uses, &["puzzle-qa-core"], "{game}"),
        }
    }
}
