//! The library's collections in and out: the RenLib fixture (written by hand from the format's
//! description), SGF collections, `.psq` records, position lines, folders and zip files, a
//! malformed file among good ones, games recognised when they come again, and the SGF export
//! read back as the same games; then the same through `gomoku library` on the command line.

use gomoku_app::library::game::{LibGame, ROOT};
use gomoku_app::library::import::ImportReport;
use gomoku_app::library::{Filter, Library};
use gomoku_engine::notation::{format_pos, parse_pos};
use gomoku_engine::{Pos, Rule};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/library")
        .join(name)
}

fn open(dir: &Path) -> Library {
    Library::open(&dir.join("lib.sqlite")).expect("a library")
}

fn p(s: &str) -> Pos {
    parse_pos(s, 15).expect("a point")
}

/// The child of `at` played at `point`.
fn child(g: &LibGame, at: u32, point: &str) -> u32 {
    let n = g.tree.get(at).expect("a node");
    *n.children
        .iter()
        .find(|&&c| g.tree.get(c).is_some_and(|c| c.point == p(point)))
        .unwrap_or_else(|| panic!("no {point} after node {at}"))
}

/// The only game of the library.
fn only_game(lib: &Library) -> LibGame {
    let ids = lib.ids(&Filter::default()).unwrap();
    assert_eq!(ids.len(), 1, "{ids:?}");
    lib.load(ids[0]).unwrap().unwrap().game
}

#[test]
fn the_renlib_fixture_imports_with_its_tree_comments_marks_and_board_texts() {
    let dir = tempfile::tempdir().unwrap();
    let lib = open(dir.path());
    let r = lib
        .import_paths(&[data("renlib-fixture.lib")], Rule::Freestyle)
        .unwrap();
    assert_eq!((r.added, r.failed.len()), (1, 0), "{r:?}");
    let g = only_game(&lib);
    assert_eq!((g.rule, g.size), (Rule::Renju, 15));
    assert_eq!(g.tags.name, "renlib-fixture");
    assert_eq!(
        g.tree.get(ROOT).unwrap().note.comment,
        "Fixture\nWritten by hand from the RenLib format description."
    );
    let h8 = child(&g, ROOT, "h8");
    let h9 = child(&g, h8, "h9");
    let i9 = child(&g, h8, "i9");
    assert_eq!(
        g.tree.get(h8).unwrap().children,
        [h9, i9],
        "the file's order"
    );
    let i8 = child(&g, h9, "i8");
    let n = g.tree.get(i8).unwrap();
    assert_eq!(n.note.comment, "main line");
    let labels: Vec<(String, &str)> = n
        .note
        .labels
        .iter()
        .map(|l| (format_pos(l.point, 15), l.text.as_str()))
        .collect();
    assert_eq!(labels, [("j7".to_string(), "A"), ("g9".to_string(), "B")]);
    // board texts are no moves: i8 has one move after it, i7, marked
    let i7 = child(&g, i8, "i7");
    assert_eq!(n.children, [i7]);
    let marks = &g.tree.get(i7).unwrap().note.labels;
    assert_eq!((marks[0].point, marks[0].text.as_str()), (p("i7"), ""));
    // an old-style comment, its letters mapped; a pass at the end of the line
    assert_eq!(g.tree.get(i9).unwrap().note.comment, "Skönt");
    let j10 = child(&g, i9, "j10");
    let pass = g.tree.get(j10).unwrap().children[0];
    assert_eq!(g.tree.get(pass).unwrap().point, Pos::PASS);
    assert_eq!(g.tree.moves(), 7);
    // the same file again is recognised
    let again = lib
        .import_paths(&[data("renlib-fixture.lib")], Rule::Freestyle)
        .unwrap();
    assert_eq!((again.added, again.duplicates), (0, 1));
}

/// Writes `files` (name, bytes) into `dir`.
fn write_files(dir: &Path, files: &[(&str, &[u8])]) {
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

fn collection() -> Vec<u8> {
    std::fs::read(data("collection.sgf")).unwrap()
}

const PSQ: &[u8] = b"Piskvorky 15x15, 11:11, 0\n8,8,1000\n9,9,2000\n8,9,500\nann.zip\nbo.zip\n-1\n";

#[test]
fn a_folder_with_bad_files_imports_the_others_and_names_each_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    let bad_second_game = b"(;GM[4]SZ[15];B[hh];W[ii])(;GM[4]SZ[15];B[hh];W[hh])";
    write_files(
        &games,
        &[
            ("a/collection.sgf", &collection()),
            ("a/game.psq", PSQ),
            (
                "fixture.lib",
                &std::fs::read(data("renlib-fixture.lib")).unwrap(),
            ),
            (
                "lines.txt",
                b"# two games\n15 standard h8 i9\n15 standard h8 i9 j10 | result=black\n",
            ),
            ("broken.sgf", b"(;GM[4];B[hh]"),
            ("half.sgf", bad_second_game),
            ("notes.md", b"not a record"),
        ],
    );
    let lib = open(dir.path());
    let r: ImportReport = lib
        .import_paths(std::slice::from_ref(&games), Rule::Standard)
        .unwrap();
    assert_eq!(r.added, 3 + 1 + 1 + 2, "{r:?}");
    assert_eq!(r.skipped, 1, "{r:?}");
    let failed: Vec<(String, String)> = r
        .failed
        .iter()
        .map(|f| {
            let name = Path::new(&f.file)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string();
            (name, f.error.clone())
        })
        .collect();
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert_eq!(failed[0].0, "broken.sgf");
    assert!(failed[0].1.contains("')' is missing"), "{failed:?}");
    assert_eq!(failed[1].0, "half.sgf");
    assert!(
        failed[1].1.contains("game 2") && failed[1].1.contains("on a stone"),
        "{failed:?}"
    );
    // nothing of the file with a bad second game went in: its first game is not there
    let (list, total) = lib.list(&Filter::default()).unwrap();
    assert_eq!(total, 7);
    assert!(list.iter().all(|s| !s.source.ends_with("half.sgf")));
    // the psq record has the rule asked for, its times and its players
    let psq = list
        .iter()
        .find(|s| s.source.ends_with("game.psq"))
        .unwrap();
    assert_eq!(
        (psq.rule.as_str(), psq.black.as_str()),
        ("standard", "ann.zip")
    );
    let g = lib.load(psq.id).unwrap().unwrap().game;
    assert_eq!(g.tree.get(g.tree.main_line()[1]).unwrap().ms, 2000);
    // filters
    let by = |f: Filter| lib.list(&f).unwrap().1;
    assert_eq!(
        by(Filter {
            rule: Some("renju".into()),
            ..Filter::default()
        }),
        4
    );
    assert_eq!(
        by(Filter {
            player: Some("ANN".into()),
            ..Filter::default()
        }),
        3
    );
    assert_eq!(
        by(Filter {
            result: Some("white".into()),
            ..Filter::default()
        }),
        1
    );
    assert_eq!(
        by(Filter {
            result: Some("unknown".into()),
            ..Filter::default()
        }),
        3
    );
    assert!(lib
        .list(&Filter {
            result: Some("maybe".into()),
            ..Filter::default()
        })
        .is_err());
}

#[test]
fn a_zip_file_imports_its_members_and_games_are_not_added_twice() {
    let dir = tempfile::tempdir().unwrap();
    let zip_path = dir.path().join("games.zip");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in [
            ("x/collection.sgf", collection()),
            ("x/game.psq", PSQ.to_vec()),
            (
                "x/bad.psq",
                b"Piskvorky 15x15, 11:11, 0\n99,99,0\n".to_vec(),
            ),
            ("readme.txt", b"15 freestyle h8 | game=1".to_vec()),
        ] {
            z.start_file(name, opts).unwrap();
            z.write_all(&bytes).unwrap();
        }
        z.finish().unwrap();
    }
    let lib = open(dir.path());
    let r = lib
        .import_paths(std::slice::from_ref(&zip_path), Rule::Freestyle)
        .unwrap();
    assert_eq!((r.files, r.added, r.duplicates), (4, 5, 0), "{r:?}");
    assert_eq!(r.failed.len(), 1);
    assert!(r.failed[0].file.ends_with("games.zip/x/bad.psq"), "{r:?}");
    // the same games again, some in another file: recognised
    let again = lib
        .import_paths(&[zip_path, data("collection.sgf")], Rule::Freestyle)
        .unwrap();
    assert_eq!((again.added, again.duplicates), (0, 8), "{again:?}");
    // not a zip file after all
    let r = lib
        .import_bytes("fake.zip", b"PK\x03\x04 and nothing", Rule::Freestyle)
        .unwrap();
    assert!(r.failed[0].error.contains("zip"), "{r:?}");
}

#[test]
fn the_export_holds_every_line_and_reads_back_as_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let lib = open(dir.path());
    lib.import_paths(
        &[data("collection.sgf"), data("renlib-fixture.lib")],
        Rule::Freestyle,
    )
    .unwrap();
    let ids = lib.ids(&Filter::default()).unwrap();
    let mut out = Vec::new();
    assert_eq!(lib.export_to(&ids, &mut out).unwrap(), 4);
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("PB[Cy]PW[Di]") && text.contains("RE[W+R]"),
        "{text}"
    );
    assert!(
        text.contains("C[a side line]") && text.contains("LB[gh:a]"),
        "{text}"
    );
    assert!(
        text.contains("LB[ji:A][gg:B]") && text.contains("MA[ii]"),
        "{text}"
    );
    // a library made from the export holds the same games
    let other = tempfile::tempdir().unwrap();
    let copy = open(other.path());
    let r = copy
        .import_bytes("export.sgf", text.as_bytes(), Rule::Freestyle)
        .unwrap();
    assert_eq!((r.added, r.failed.len()), (4, 0), "{r:?}");
    for (&a, &b) in ids.iter().zip(&copy.ids(&Filter::default()).unwrap()) {
        let (mut x, mut y) = (
            lib.load(a).unwrap().unwrap().game,
            copy.load(b).unwrap().unwrap().game,
        );
        x.tags.source.clear();
        y.tags.source.clear();
        assert_eq!(x, y, "game {a}");
    }
}

fn gomoku(lib: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .arg("library")
        .arg("--library")
        .arg(lib)
        .args(args)
        .output()
        .expect("gomoku runs")
}

#[test]
fn the_command_line_imports_lists_shows_searches_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let sgf = data("collection.sgf");
    let out = gomoku(&lib, &["import", "--json", sgf.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["added"], 3);
    let out = gomoku(&lib, &["list", "--player", "cy"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Cy - Di") && text.contains("1 of 1 games"),
        "{text}"
    );
    let out = gomoku(&lib, &["show", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["main_line"],
        serde_json::json!(["i8", "i9", "h8", "h9", "g8", "f8"])
    );
    assert_eq!(v["moves"], 7);
    let out = gomoku(
        &lib,
        &[
            "search", "--rule", "renju", "--json", "h8", "h9", "i8", "i9",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 3, "{v}");
    assert_eq!(v["moves"][0]["move"], "j8");
    assert_eq!(v["moves"][0]["games"], 2);
    let file = dir.path().join("out.sgf");
    let out = gomoku(
        &lib,
        &["export", "--player", "ann", "--out", file.to_str().unwrap()],
    );
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("(;FF[4]").count(), 2, "{text}");
    let out = gomoku(&lib, &["info"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("3 games") && text.contains("bytes per game"),
        "{text}"
    );
    // a file with an error: named, and the command fails
    let bad = dir.path().join("bad.sgf");
    std::fs::write(&bad, "(;GM[4];B[zz])").unwrap();
    let out = gomoku(&lib, &["import", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bad.sgf") && text.contains("B[zz]"), "{text}");
}

#[test]
fn a_file_that_is_not_a_library_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let out = gomoku(&notes, &["info"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a gomoku library"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    let out = Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .args(["serve", "--port", "0", "--library"])
        .arg(&notes)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a gomoku library"));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
}
