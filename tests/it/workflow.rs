//! The merge gate's files agree with each other: `ci/level-gate.yml` is a
//! valid workflow that shards the suite the way `.config/nextest.toml` and
//! the README say, and runs exactly the commands the README documents;
//! `ci/check-levels.sh` runs the same partition command.

use std::collections::BTreeSet;
use std::fs;

use yaml_rust2::{Yaml, YamlLoader};

use crate::support::repository;

fn read(file: &str) -> String {
    fs::read_to_string(repository().join(file)).unwrap_or_else(|error| panic!("{file}: {error}"))
}

fn workflow() -> Yaml {
    let text = read("ci/level-gate.yml");
    let mut documents = YamlLoader::load_from_str(&text).expect("ci/level-gate.yml is YAML");
    assert_eq!(documents.len(), 1, "one YAML document");
    let workflow = documents.remove(0);
    assert!(workflow.as_hash().is_some(), "a mapping at the top");
    workflow
}

/// The strings of a YAML list.
fn strings(list: &Yaml) -> Vec<&str> {
    list.as_vec()
        .unwrap_or_else(|| panic!("a list: {list:?}"))
        .iter()
        .map(|item| item.as_str().expect("a string"))
        .collect()
}

/// Every step of every job, with its job's name.
fn steps(workflow: &Yaml) -> Vec<(&str, &Yaml)> {
    let jobs = workflow["jobs"].as_hash().expect("jobs");
    let mut all = Vec::new();
    for (name, job) in jobs {
        let steps = job["steps"].as_vec().expect("each job has steps");
        for step in steps {
            all.push((name.as_str().unwrap(), step));
        }
    }
    all
}

/// The step of job `job` that uploads an artifact.
fn upload_step<'a>(workflow: &'a Yaml, job: &str) -> &'a Yaml {
    steps(workflow)
        .into_iter()
        .find(|(name, step)| {
            *name == job
                && step["uses"]
                    .as_str()
                    .is_some_and(|uses| uses.starts_with("actions/upload-artifact@"))
        })
        .map(|(_, step)| step)
        .unwrap_or_else(|| panic!("the {job} job uploads an artifact"))
}

/// Each command the workflow runs: every line of every `run:`.
fn commands(workflow: &Yaml) -> BTreeSet<String> {
    steps(workflow)
        .iter()
        .filter_map(|(_, step)| step["run"].as_str())
        .flat_map(str::lines)
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The commands in the README's block after the `workflow commands` marker.
fn readme_commands() -> BTreeSet<String> {
    let readme = read("README.md");
    let marker = "<!-- workflow commands:";
    let after = &readme[readme
        .find(marker)
        .expect("the README marks the workflow's commands")..];
    let fence = after.find("```sh\n").expect("a sh block after the marker") + "```sh\n".len();
    let block = &after[fence..];
    let block = &block[..block.find("```").expect("the block ends")];
    block
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_workflow_runs_exactly_the_commands_the_readme_documents() {
    let documented = readme_commands();
    assert!(documented.len() >= 3, "{documented:?}");
    assert_eq!(commands(&workflow()), documented);
}

#[test]
fn the_workflow_gates_pull_requests_touching_levels_expectations_or_code() {
    let workflow = workflow();
    let on = &workflow["on"];
    assert!(
        !on.is_badvalue(),
        "an `on` key (read as text, not a YAML 1.1 boolean)"
    );
    // The designers' files, and everything that decides what the checks say.
    let folders = ["levels", "expectations", "src", "crates", "tests"];
    let mut paths: Vec<String> = folders
        .iter()
        .map(|folder| format!("{folder}/**"))
        .collect();
    paths.extend(["Cargo.toml", "Cargo.lock"].map(String::from));
    assert_eq!(strings(&on["pull_request"]["paths"]), paths);
}

#[test]
fn the_suite_is_sharded_across_as_many_jobs_as_partitions() {
    let workflow = workflow();
    let shards = workflow["env"]["SHARDS"]
        .as_i64()
        .expect("SHARDS, a number");
    assert!(shards >= 2);
    let suite = &workflow["jobs"]["suite"];
    let matrix: Vec<i64> = suite["strategy"]["matrix"]["shard"]
        .as_vec()
        .expect("a shard matrix")
        .iter()
        .map(|shard| shard.as_i64().unwrap())
        .collect();
    assert_eq!(matrix, (1..=shards).collect::<Vec<_>>());
    assert_eq!(suite["env"]["SHARD"].as_str(), Some("${{ matrix.shard }}"));
    assert_eq!(
        suite["strategy"]["fail-fast"].as_bool(),
        Some(false),
        "one failing shard must not hide another's failures"
    );
    let suite_steps: Vec<&Yaml> = steps(&workflow)
        .into_iter()
        .filter(|(job, _)| *job == "suite")
        .map(|(_, step)| step)
        .collect();
    let install = suite_steps
        .iter()
        .find(|step| {
            step["uses"]
                .as_str()
                .is_some_and(|uses| uses.starts_with("taiki-e/install-action@"))
        })
        .expect("nextest installed by taiki-e/install-action");
    assert_eq!(install["with"]["tool"].as_str(), Some("cargo-nextest"));
    let run = suite_steps
        .iter()
        .find_map(|step| step["run"].as_str())
        .unwrap();
    assert!(run.contains("--profile ci"), "{run}");
    assert!(run.contains("--partition \"hash:$SHARD/$SHARDS\""), "{run}");

    // The local script partitions the same way.
    let script = read("ci/check-levels.sh");
    assert!(script.contains(run), "ci/check-levels.sh runs `{run}`");
    assert!(script.starts_with("#!/usr/bin/env bash\n"));
    assert!(script.contains("\nset -euo pipefail\n"));
}

#[test]
fn each_shard_uploads_the_junit_report_the_ci_profile_writes() {
    let workflow = workflow();
    let config: toml::Table = read(".config/nextest.toml").parse().unwrap();
    let junit = config["profile"]["ci"]["junit"]["path"].as_str().unwrap();
    let expected = format!("target/nextest/ci/{junit}");
    let upload = upload_step(&workflow, "suite");
    assert_eq!(upload["with"]["path"].as_str(), Some(expected.as_str()));
    assert_eq!(config["profile"]["ci"]["fail-fast"].as_bool(), Some(false));
}

#[test]
fn the_report_job_compares_with_the_base_branch_and_writes_the_step_summary() {
    let workflow = workflow();
    let report = &workflow["jobs"]["report"];
    assert_eq!(
        report["env"]["BASE"].as_str(),
        Some("origin/${{ github.base_ref }}")
    );
    let checkout = &report["steps"][0];
    assert!(
        checkout["uses"]
            .as_str()
            .unwrap()
            .starts_with("actions/checkout@")
    );
    assert_eq!(
        checkout["with"]["fetch-depth"].as_i64(),
        Some(0),
        "the base commit must be fetched"
    );
    let run = report["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .find_map(|step| step["run"].as_str())
        .unwrap();
    assert!(run.contains("report --base \"$BASE\" --markdown"), "{run}");
    assert!(run.ends_with(">> \"$GITHUB_STEP_SUMMARY\""), "{run}");
}

#[test]
fn the_report_job_uploads_the_pending_expectations_review_from_applies() {
    let workflow = workflow();
    let report = &workflow["jobs"]["report"];
    let dir = report["env"][puzzle_qa_core::_cli_support::harness::PENDING_DIR]
        .as_str()
        .expect("the report job names the pending folder");
    // Absolute (the workspace), so every process of the job means the same one.
    let folder = dir
        .strip_prefix("${{ github.workspace }}/")
        .expect("a folder of the workspace");
    let upload = upload_step(&workflow, "report");
    assert_eq!(upload["with"]["path"].as_str(), Some(folder));
    assert_eq!(
        upload["with"]["name"].as_str(),
        Some("pending-expectations")
    );
    // Uploaded when the gate fails, which stale expectations make it do.
    assert_eq!(upload["if"].as_str(), Some("${{ failure() }}"));
}
