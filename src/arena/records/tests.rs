use super::*;

fn sample() -> GameRecord {
    GameRecord {
        game: "connect6".into(),
        first: "champion-g300".into(),
        second: "hand".into(),
        moves: vec!["j10".into(), "j9l11".into(), "k9l8".into()],
        result: Outcome::First,
        reason: Reason::rule("six"),
        opening_moves: 1,
        opening: Some(3),
        seed: Some(9),
        first_engine: None,
        second_engine: None,
        first_ms: 5,
        second_ms: 7,
        version: String::new(),
    }
}

#[test]
fn json_has_the_required_fields() {
    let text = serde_json::to_string(&sample()).unwrap();
    for field in [
        r#""game":"connect6""#,
        r#""first":"champion-g300""#,
        r#""second":"hand""#,
        r#""moves":["j10","j9l11","k9l8"]"#,
        r#""result":"first""#,
        r#""reason":"six""#,
    ] {
        assert!(text.contains(field), "{field} missing in {text}");
    }
    let back: GameRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(back, sample());
}

/// Records written before the sides had names read as the same games.
#[test]
fn old_records_still_read() {
    let old = r#"{"game":"connect6","black":"champion-g300","white":"hand","moves":["j10","j9l11","k9l8"],"result":"black","reason":"six","opening_moves":1,"opening":3,"seed":9,"black_ms":5,"white_ms":7}"#;
    let back: GameRecord = serde_json::from_str(old).unwrap();
    assert_eq!(back, sample());
    let white: GameRecord = serde_json::from_str(&old.replace(r#""result":"black""#, r#""result":"white""#)).unwrap();
    assert_eq!(white.result, Outcome::Second);
    for r in ["movecap", "illegal", "full", "five", "adjudicated", "crash", "resign", "timeout"] {
        let g: GameRecord = serde_json::from_str(&old.replace("\"six\"", &format!("\"{r}\""))).unwrap();
        assert_eq!(g.reason.as_str(), r);
    }
}

#[test]
fn writer_and_reader_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a/games.jsonl");
    let mut w = RecordWriter::create(&p).unwrap();
    w.write(&sample()).unwrap();
    w.write(&sample()).unwrap();
    drop(w);
    assert_eq!(read_records(&p).unwrap().len(), 2);
    std::fs::write(&p, "{\"game\": 1}\n").unwrap();
    let e = read_records(&p).unwrap_err().to_string();
    assert!(e.contains("games.jsonl:1"), "{e}");
}
