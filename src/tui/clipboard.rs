//! The position key of the game, the replay and the analysis: the position
//! on screen in the one-line notation (RULES.md §8, [`Position`]), said on
//! the status line and copied to the clipboard with OSC 52.
//!
//! OSC 52 (`ESC ] 52 ; c ; BASE64 BEL`) asks the terminal to put the text
//! on the system clipboard; terminals that allow it take it (most modern
//! ones; tmux with `set-clipboard on`), the others ignore it without a
//! word. No answer tells which (reading the clipboard back is refused by
//! most terminals, and rightly; helix and gitui send it unasked too), so
//! the words never claim the copy was made ([`said`]): the status line
//! shows the position itself, which is always there. The text travels in base64:
//! nothing in it can end the sequence early or reach the terminal as a
//! control code. A screen hands the text to copy to the screen loop
//! ([`Screen::take_copy`](crate::tui::screen::Screen::take_copy)), which
//! writes the sequence; drawing stays free of output.

use crate::rules::{GameBoard, Position};

/// The key's letter on every screen that offers it (its capital where
/// the letter names a pit, as every command's).
pub const LETTER: char = 'c';
/// What the key does, in a key bar's few letters.
pub const LABEL: &str = "copy position";
/// What the key does, as the help says it.
pub const HELP: &str = "the position's one-line notation; copied where OSC 52 works";

/// What the status line says when the key is pressed: the position, and
/// only what is known of the copy (a terminal that ignores OSC 52 does not
/// say so).
#[must_use]
pub fn said(line: &str) -> String {
    // the position first: a narrow status line cuts the note, not it
    format!("Position: {line} (copied if your terminal allows OSC 52)")
}

/// What the key does for `position` (of either game): `(said, line)`,
/// the status line's words and the line to copy.
#[must_use]
pub fn copy(position: &GameBoard) -> (String, String) {
    let line = Position::new(*position).to_string();
    (said(&line), line)
}

/// The OSC 52 sequence that puts `text` on the clipboard.
#[must_use]
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

/// Standard base64 (RFC 4648, with padding).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Rules};

    #[test]
    fn base64_is_the_standard_encoding() {
        // the test vectors of RFC 4648, section 10
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded, "{plain}");
        }
    }

    #[test]
    fn the_sequence_is_exactly_the_base64_of_the_line_and_safe() {
        let board = Board::new(Rules::KALAH);
        let (said, line) = copy(&GameBoard::Kalah(board));
        assert_eq!(
            line,
            "kalah 6x4 capture=always sowing=single sweep=owner S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south"
        );
        assert!(said.starts_with(&format!("Position: {line} (")), "{said}");
        // never a claim the terminal did not confirm
        assert!(!said.contains("sent to"), "{said}");
        assert!(said.contains("if your terminal allows OSC 52"), "{said}");
        let sequence = osc52(&line);
        let payload = sequence
            .strip_prefix("\x1b]52;c;")
            .and_then(|s| s.strip_suffix('\x07'))
            .unwrap_or_else(|| panic!("{sequence:?}"));
        assert_eq!(
            payload,
            "a2FsYWggNng0IGNhcHR1cmU9YWx3YXlzIHNvd2luZz1zaW5nbGUgc3dlZXA9b3duZXIgUzo0LDQsNCw0LDQsNDowIE46NCw0LDQsNCw0LDQ6MCBzb3V0aA=="
        );
        // nothing between the opening and the end can end it early
        assert!(
            payload
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        );
        // and it reads back as the same position
        let back: Position = line.parse().unwrap();
        assert_eq!(back.kalah(), Some(&board));
    }

    #[test]
    fn an_oware_position_is_copied_in_its_own_notation() {
        let board = crate::rules::oware::OwareBoard::new();
        let (said, line) = copy(&GameBoard::Oware(board));
        assert_eq!(
            line,
            "oware grandslam=nocapture S:4,4,4,4,4,4:0 N:4,4,4,4,4,4:0 south"
        );
        assert!(said.starts_with(&format!("Position: {line} (")), "{said}");
        assert_eq!(line.parse::<Position>().unwrap().oware(), Some(&board));
    }
}
