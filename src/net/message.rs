//! What the host and the joiner say to each other.
//!
//! Every message is a JSON object in one frame: [`Hello`] in the clear
//! during the handshake, [`ToHost`] and [`ToJoiner`] sealed after it.
//! Decoding never panics and refuses unknown fields; what a message means
//! (a legal move, a name, the right turn) is checked by whoever acts on it.

use serde::{Deserialize, Serialize};

use super::RemoteText;
use crate::game::{FirstMover, Match, MatchConfig, Seat, Tally};
use crate::players::PlayerKind;
use crate::rules::{Pit, Rules, Side};
use crate::store::Record;

/// The value of [`Hello`]'s `game` field: this is a mancala program.
pub const GAME: &str = "mancala";

/// The handshake's messages, in the clear.
///
/// These keep their shape in every protocol version, so that two programs
/// of different versions can still tell each other which one they speak.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Hello {
    /// The host's greeting: its protocol and its SPAKE2 message.
    Host {
        /// Always [`GAME`].
        game: String,
        /// The protocol the host speaks.
        version: u32,
        /// SPAKE2's first message.
        #[serde(default)]
        pake: Vec<u8>,
    },
    /// The joiner's answer: its protocol and its SPAKE2 message.
    Joiner {
        /// Always [`GAME`].
        game: String,
        /// The protocol the joiner speaks.
        version: u32,
        /// SPAKE2's message.
        #[serde(default)]
        pake: Vec<u8>,
    },
    /// The host turns the joiner away before the session starts.
    Refused {
        /// Why.
        reason: Refusal,
        /// When the joiner may try again, in seconds (for
        /// [`Refusal::TooManyTries`]; 0 otherwise).
        #[serde(default)]
        retry_in: u32,
    },
}

/// Why a host turned a joiner away during the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Refusal {
    /// The joiner's code is not this match's code.
    WrongCode,
    /// The joiner speaks another protocol than the host.
    Version,
    /// Too many wrong codes were tried lately (from the joiner's address,
    /// or in all): the host does not try this joiner's code now. Sent
    /// instead of the host's greeting.
    TooManyTries,
}

/// A place in the match: the round and how many moves of it were played.
/// Every move and undo names the place it was made at, so that a message
/// that arrives late or twice is recognised and never played twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct At {
    /// The round, from 1.
    pub round: u32,
    /// Moves of the round played before this point.
    pub ply: u32,
}

impl At {
    /// Where `m` is now.
    #[must_use]
    pub fn of(m: &Match) -> At {
        At {
            round: m.round(),
            ply: u32::try_from(m.moves().len()).unwrap_or(u32::MAX),
        }
    }
}

/// The joiner's messages to the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ToHost {
    /// The first sealed message: who is joining.
    Join {
        /// The joiner's name, cleaned as any name on decoding (the host
        /// still refuses an empty one).
        #[serde(deserialize_with = "cleaned::name")]
        name: String,
        /// The seat key the host gave this joiner's program in an earlier
        /// welcome of this match ([`ToJoiner::Welcome`]), shown to take
        /// its seat back; `None` from a program that was not welcomed yet.
        #[serde(default)]
        seat_key: Option<String>,
    },
    /// A proposed move at `at`.
    Move {
        /// Where it is played.
        at: At,
        /// The pit's letter (only an ASCII letter decodes).
        #[serde(with = "pit_letter")]
        pit: char,
    },
    /// The pie rule's swap (RULES.md §5.3) at `at`: the joiner takes the
    /// position the host's first turn made.
    Swap {
        /// Where it was asked.
        at: At,
    },
    /// A request to take back the last move, made at `at`.
    Undo {
        /// Where it was asked.
        at: At,
    },
    /// The answer to the host's request to take back a move.
    UndoAnswer {
        /// The place the request was made at.
        at: At,
        /// Agreed or not.
        yes: bool,
    },
    /// The answer to "Play again?".
    Again {
        /// Yes or no.
        yes: bool,
    },
    /// Still here (sent when nothing else is, to keep the connection alive).
    Ping,
    /// The joiner leaves the match (it stays saved on the host).
    Leave,
}

/// The host's messages to the joiner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ToJoiner {
    /// The joiner is in: the match as it stands.
    Welcome {
        /// The match.
        state: Box<Snapshot>,
        /// Whether the match was going on before this connection.
        resumed: bool,
        /// The secret that takes this seat back while a connection holds
        /// it ([`ToHost::Join`]'s `seat_key`); only this joiner's program
        /// knows it.
        seat_key: String,
    },
    /// The joiner is turned away after the handshake.
    Refused {
        /// The sentence to show (made by the host from its own words;
        /// cleaned on decoding, see `cleaned::text`).
        #[serde(deserialize_with = "cleaned::text")]
        text: String,
    },
    /// A move the host has saved: final. The joiner plays it on its own
    /// board with the rules, which work out its sowing: no board is sent.
    Moved {
        /// Where it was played.
        at: At,
        /// Whose move it is.
        #[serde(with = "side_text")]
        by: Side,
        /// The pit's letter (only an ASCII letter decodes).
        #[serde(with = "pit_letter")]
        pit: char,
    },
    /// The pie rule's swap (RULES.md §5.3), taken at `at` by the player
    /// asked: the seats change sides for the rest of the round (the board
    /// stays).
    Swapped {
        /// Where it was taken.
        at: At,
    },
    /// The host asks to take back the last move made before `at`.
    UndoAsked {
        /// Where it was asked.
        at: At,
    },
    /// The host's "no" to the joiner's request to take back a move.
    UndoDeclined,
    /// The joiner's move (or swap) at `at` is not played: when it reached
    /// the host's session the question it answered was no longer open. The
    /// match is unchanged; what the joiner is asked now follows.
    MoveRefused {
        /// Where the move was proposed.
        at: At,
        /// What closed the question.
        why: NotNow,
    },
    /// Both agreed: `by`'s last move and the replies to it were taken
    /// back, and the match is at `at` now.
    TookBack {
        /// Where the match is now.
        at: At,
        /// Whose move was taken back.
        #[serde(with = "side_text")]
        by: Side,
    },
    /// The host player's answer to "Play again?".
    Again {
        /// Yes or no.
        yes: bool,
    },
    /// Both want to play again: the next round starts.
    NextRound {
        /// Its number.
        round: u32,
        /// Who moves first.
        #[serde(with = "side_text")]
        starter: Side,
    },
    /// What the joiner's player is asked now (sent after every change).
    Asked {
        /// The question.
        question: OpenQuestion,
    },
    /// The match is over (someone said no to playing again).
    Finished,
    /// Still here.
    Ping,
    /// The host player stopped; the match stays saved on the host.
    Leave,
    /// The joiner's program broke the protocol; the connection ends.
    Error {
        /// What went wrong (cleaned on decoding).
        #[serde(deserialize_with = "cleaned::text")]
        text: String,
    },
}

impl ToJoiner {
    /// The host's words when it ends the connection (it turned the joiner
    /// away, or the joiner's program broke the protocol), safe to show.
    #[must_use]
    pub fn closing_words(&self) -> Option<String> {
        match self {
            ToJoiner::Refused { text } | ToJoiner::Error { text } => Some(super::remote_text(text)),
            _ => None,
        }
    }
}

/// Why the host's session refused a joiner's move that crossed a change
/// on the wire ([`ToJoiner::MoveRefused`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotNow {
    /// The host asked to take back its last move first: that request is
    /// answered before any move.
    TakeBackAsked,
    /// A swap came when the pie rule's question was not open to the joiner.
    NoSwapOpen,
}

/// What the host's session asks one player now, as [`ToJoiner::Asked`]
/// tells the joiner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpenQuestion {
    /// To choose a pit.
    Move,
    /// The pie rule's question (RULES.md §5.3): swap sides, or choose a pit.
    Swap,
    /// To wait for the other player's move.
    Wait,
    /// To agree to take back the other player's last move (y/n).
    Agree,
    /// To wait for the answer to their own request to take a move back.
    WaitAgree,
    /// "Play again? (y/n)".
    PlayAgain,
    /// To wait for the other player's answer to "Play again?".
    WaitAgain,
}

/// A match as the joiner needs it: rules, names, round, tally and moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The game family, `kalah` or `oware`.
    pub game: String,
    /// Pits per side.
    pub pits: u8,
    /// Seeds per pit at the start.
    pub seeds: u8,
    /// Capture rule, as on the command line.
    pub capture: String,
    /// Sowing rule.
    pub sowing: String,
    /// Sweep rule.
    pub sweep: String,
    /// Who starts each round.
    pub first: String,
    /// The host's and the joiner's names, the match's seats (cleaned on
    /// decoding): South's and North's unless they swapped sides.
    #[serde(deserialize_with = "cleaned::names")]
    pub names: [String; 2],
    /// Whether the pie rule is played (`--swap`, RULES.md §5.3).
    pub pie_rule: bool,
    /// After how many moves of this round the seats swapped sides, if
    /// they did.
    pub swapped: Option<u32>,
    /// The round in play.
    pub round: u32,
    /// Who started it.
    #[serde(with = "side_text")]
    pub starter: Side,
    /// The tally before this round: South's wins, North's wins, draws.
    pub earlier: [u32; 3],
    /// This round's moves as pit letters.
    pub moves: String,
}

impl Snapshot {
    /// The snapshot of `m`, played with the pie rule when `pie_rule`.
    #[must_use]
    pub fn of(m: &Match, pie_rule: bool) -> Snapshot {
        let record = Record::of_match(m);
        let rules = m.rules();
        Snapshot {
            game: m.game().as_str().to_string(),
            pits: u8::try_from(rules.pits()).unwrap_or(u8::MAX),
            seeds: u8::try_from(rules.seeds()).unwrap_or(u8::MAX),
            capture: rules.capture().to_string(),
            sowing: rules.sowing().to_string(),
            sweep: rules.sweep().to_string(),
            first: m.config().first.to_string(),
            names: m.config().seats.clone().map(|seat| seat.name),
            pie_rule,
            swapped: m
                .swapped()
                .map(|after| u32::try_from(after).unwrap_or(u32::MAX)),
            round: m.round(),
            starter: m.starter(),
            earlier: [
                record.earlier.wins[0],
                record.earlier.wins[1],
                record.earlier.draws,
            ],
            moves: record.moves_text(),
        }
    }

    /// Rebuilds the match, checking everything: the rules, the names
    /// (cleaned as any name from the network) and every move. The seats
    /// are as the joiner sees them: the host's is
    /// [`PlayerKind::Network`], the joiner's [`PlayerKind::Human`].
    ///
    /// # Errors
    /// A sentence saying what is wrong.
    pub fn to_match(&self) -> Result<Match, String> {
        let bad = |what: &str| format!("the host sent a match that cannot be used ({what})");
        let rules = Rules::new(self.pits.into(), self.seeds.into())
            .map_err(|e| bad(&e.to_string()))?
            .with_capture(self.capture.parse().map_err(|_| bad("capture rule"))?)
            .with_sowing(self.sowing.parse().map_err(|_| bad("sowing rule"))?)
            .with_sweep(self.sweep.parse().map_err(|_| bad("sweep rule"))?);
        let first: FirstMover = self.first.parse().map_err(|_| bad("starter setting"))?;
        let name = |n: &str| super::clean_remote_name(n).ok_or_else(|| bad("a name"));
        let config = MatchConfig {
            game: self.game.parse().map_err(|_| bad("game"))?,
            rules,
            seats: [
                // As the joiner sees it: the host is the friend over the network.
                Seat::new(name(&self.names[0])?, PlayerKind::Network),
                Seat::new(name(&self.names[1])?, PlayerKind::Human),
            ],
            first,
            start: None,
        };
        let moves = if self.moves.is_empty() {
            Vec::new()
        } else {
            self.moves
                .split(',')
                .map(|l| {
                    let mut chars = l.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => rules.pit_by_letter(c),
                        _ => None,
                    }
                    .ok_or_else(|| bad("a move"))
                })
                .collect::<Result<Vec<Pit>, String>>()?
        };
        let record = Record {
            config,
            round: self.round.max(1),
            starter: self.starter,
            earlier: Tally {
                wins: [self.earlier[0], self.earlier[1]],
                draws: self.earlier[2],
            },
            // A swap is taken after a move, within the round's moves.
            swapped: match self.swapped {
                Some(after) => Some(
                    usize::try_from(after)
                        .ok()
                        .filter(|&after| after > 0 && after <= moves.len())
                        .ok_or_else(|| bad("the swap"))?,
                ),
                None => None,
            },
            moves,
        };
        record.to_match(0).map_err(|e| bad(&e.to_string()))
    }
}

/// A [`Side`] as `"south"` or `"north"`.
mod side_text {
    use crate::rules::Side;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(side.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        let text = String::deserialize(d)?;
        // The refusal never repeats the text: it came from the network.
        text.parse()
            .map_err(|_| serde::de::Error::custom("a side must be \"south\" or \"north\""))
    }
}

/// A pit's letter: one ASCII letter, or the message does not decode (and
/// the refusal does not repeat what was sent).
mod pit_letter {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(letter: &char, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(*letter)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<char, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Ok(c),
            _ => Err(serde::de::Error::custom("a pit must be one letter")),
        }
    }
}

/// Text from the network, cleaned as it is decoded, so that no later
/// printing can forget it: sentences through [`super::super::remote_text`],
/// names through [`crate::game::names::clean_name`].
mod cleaned {
    use serde::{Deserialize, Deserializer};

    pub fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        Ok(crate::net::remote_text(&String::deserialize(d)?))
    }

    pub fn name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        Ok(crate::game::names::clean_name(&String::deserialize(d)?))
    }

    pub fn names<'de, D: Deserializer<'de>>(d: D) -> Result<[String; 2], D::Error> {
        let [south, north] = <[String; 2]>::deserialize(d)?;
        Ok([
            crate::game::names::clean_name(&south),
            crate::game::names::clean_name(&north),
        ])
    }
}

/// The longest description of a message that could not be read, in
/// characters (the decoder's own words, which may quote what was sent).
const MAX_DECODE_ERROR: usize = 120;

/// Reads a message of type `T` from a frame's body.
///
/// # Errors
/// A short description of what is wrong, for the message that ends the
/// connection: already cleaned ([`RemoteText`]), because the decoder's
/// words quote what was sent (an unknown field's name, say).
pub fn decode<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, RemoteText> {
    serde_json::from_slice(body).map_err(|e| {
        let said = crate::escape::escaped(&e.to_string(), MAX_DECODE_ERROR);
        RemoteText::new(&format!("a message could not be read ({said})"))
    })
}

/// A message as a frame's body.
#[must_use]
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // Serializing these plain types cannot fail.
    serde_json::to_vec(message).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::NoTrace;

    fn a_match() -> Match {
        let config = MatchConfig {
            game: crate::rules::Game::Kalah,
            rules: Rules::new(4, 3).unwrap(),
            seats: [
                Seat::new("Alice", PlayerKind::Human),
                Seat::new("Michael", PlayerKind::Human),
            ],
            first: FirstMover::Alternate,
            start: None,
        };
        let mut m = Match::new(config, 1);
        for _ in 0..3 {
            let pit = m.board().legal_moves().next().unwrap();
            m.play(pit, &mut NoTrace).unwrap();
        }
        m
    }

    #[test]
    fn a_snapshot_rebuilds_the_same_match() {
        let m = a_match();
        let snap = Snapshot::of(&m, false);
        let json = encode(&ToJoiner::Welcome {
            state: Box::new(snap.clone()),
            resumed: true,
            seat_key: "k".into(),
        });
        let back: ToJoiner = decode(&json).unwrap();
        assert_eq!(
            back,
            ToJoiner::Welcome {
                state: Box::new(snap.clone()),
                resumed: true,
                seat_key: "k".into(),
            }
        );
        let rebuilt = snap.to_match().unwrap();
        assert_eq!(rebuilt.board(), m.board());
        assert_eq!(rebuilt.moves(), m.moves());
        assert_eq!(rebuilt.tally(), m.tally());
    }

    #[test]
    fn bad_snapshots_and_messages_are_refused_in_words() {
        let mut snap = Snapshot::of(&a_match(), false);
        snap.moves = "a,a,a,a,a,a".into();
        assert!(snap.to_match().unwrap_err().contains("cannot be used"));
        snap.moves = "zz".into();
        assert!(snap.to_match().is_err());
        snap.pits = 0;
        assert!(snap.to_match().is_err());
        assert!(decode::<ToHost>(b"{\"type\":\"move\"}").is_err());
        assert!(decode::<ToHost>(b"{\"type\":\"again\",\"yes\":true,\"x\":1}").is_err());
        assert!(decode::<ToHost>(&[0xff, 0, 1]).is_err());
        assert_eq!(decode::<ToHost>(b"{\"type\":\"ping\"}"), Ok(ToHost::Ping));
    }

    /// Strings a hostile program might send: escape sequences (CSI, OSC
    /// with a bell, the one-byte C1 CSI), a bidirectional override, and
    /// multibyte text long enough to be cut.
    const HOSTILE: [&str; 4] = [
        "\u{1b}[2J\u{1b}]0;owned\u{7}",
        "x\u{9b}31m\u{202e}",
        "é",
        "\u{1b}",
    ];

    fn clean(text: &str) -> bool {
        !text.chars().any(crate::escape::is_unsafe_char)
    }

    #[test]
    fn decoding_cleans_every_string_and_never_repeats_one_raw() {
        for hostile in HOSTILE {
            let long = hostile.repeat(150);
            for text in [hostile, long.as_str()] {
                let json = |value: serde_json::Value| serde_json::to_vec(&value).unwrap();
                // Sentences and names are cleaned as they are decoded.
                for kind in ["refused", "error"] {
                    let message: ToJoiner =
                        decode(&json(serde_json::json!({"type": kind, "text": text}))).unwrap();
                    let (ToJoiner::Refused { text: got } | ToJoiner::Error { text: got }) = message
                    else {
                        panic!("{message:?}")
                    };
                    assert!(clean(&got) && got.len() < 4096, "{got:?}");
                }
                let join: ToHost =
                    decode(&json(serde_json::json!({"type": "join", "name": text}))).unwrap();
                let ToHost::Join { name, .. } = join else {
                    panic!("{join:?}")
                };
                assert!(clean(&name), "{name:?}");
                let mut snapshot = serde_json::to_value(Snapshot::of(&a_match(), false)).unwrap();
                snapshot["names"] = serde_json::json!([text, text]);
                let snapshot: Snapshot = serde_json::from_value(snapshot).unwrap();
                assert!(snapshot.names.iter().all(|n| clean(n)), "{snapshot:?}");
                // Anything else that does not decode is refused in words
                // that quote nothing raw, whatever its length (a cut in the
                // middle of a character once panicked here).
                let at = serde_json::json!({"round": 1, "ply": 0});
                let refused = [
                    json(serde_json::json!({"type": "move", "at": at, "pit": text})),
                    json(serde_json::json!({"type": "again", "yes": true, text: 1})),
                    json(serde_json::json!({"type": text})),
                    json(serde_json::json!({"type": "moved", "at": at, "pit": "a", "by": text})),
                    json(serde_json::json!({"type": "next-round", "round": 2, "starter": text})),
                ];
                for body in refused {
                    for error in [
                        decode::<ToHost>(&body).map(|_| ()).err(),
                        decode::<ToJoiner>(&body).map(|_| ()).err(),
                    ] {
                        let error = error.unwrap_or_else(|| {
                            panic!("{} decoded", String::from_utf8_lossy(&body))
                        });
                        assert!(clean(error.as_str()), "{error:?}");
                    }
                }
            }
        }
        // A pit is one ASCII letter.
        let moved = |pit: &str| {
            decode::<ToHost>(
                format!(r#"{{"type":"move","at":{{"round":1,"ply":0}},"pit":"{pit}"}}"#).as_bytes(),
            )
        };
        assert!(moved("d").is_ok());
        assert!(moved("\\u001b").is_err());
        assert!(moved("7").is_err());
    }
}
