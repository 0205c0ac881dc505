//! The board as box-drawn text, in the style of the classic box-drawn terminal board.

use std::fmt::Write as _;

use crate::rules::{Board, Pit, Rules, Side, Step};

/// `text` centred in `width` columns (extra space goes to the right).
fn center(text: &str, width: usize) -> String {
    let len = text.chars().count();
    let left = width.saturating_sub(len) / 2;
    let right = width.saturating_sub(len + left);
    format!("{}{text}{}", " ".repeat(left), " ".repeat(right))
}

/// The board as text: North's name, North's pit letters (right to left, as
/// North sees them from across the table), the box with North's store on
/// the left and South's on the right, South's letters and name.
///
/// ```text
/// North: Michael
///           l   k   j   i   h   g
/// ╔═══════╦═══╦═══╦═══╦═══╦═══╦═══╦═══════╗
/// ║ North ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ South ║
/// ║   0   ╠═══╬═══╬═══╬═══╬═══╬═══╣   0   ║
/// ║       ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║       ║
/// ╚═══════╩═══╩═══╩═══╩═══╩═══╩═══╩═══════╝
///           a   b   c   d   e   f
/// South: Alice
/// ```
///
/// Cells widen to fit the largest count, so any board size and seed count
/// stays aligned.
#[must_use]
pub fn render(board: &Board, names: [&str; 2]) -> String {
    render_counts(board.rules(), board.counts(), names)
}

/// [`render`] with the stores named `word` under their counts, as Oware
/// shows each player's captured seeds where Kalah's stores are:
///
/// ```text
/// ║   North    ║ 4 ║ … ║   South    ║
/// ║     0      ╠═══╬ … ╣     0      ║
/// ║  captures  ║ 4 ║ … ║  captures  ║
/// ```
#[must_use]
pub fn render_piles(board: &Board, names: [&str; 2], word: Option<&str>) -> String {
    draw(board.rules(), board.counts(), names, word)
}

/// [`render`] for counts in the board's layout (for showing a move seed by
/// seed).
#[must_use]
pub fn render_counts(rules: &Rules, counts: &[u16], names: [&str; 2]) -> String {
    draw(rules, counts, names, None)
}

fn draw(rules: &Rules, counts: &[u16], names: [&str; 2], word: Option<&str>) -> String {
    let north: Vec<Pit> = rules.pits_of(Side::North).rev().collect();
    let south: Vec<Pit> = rules.pits_of(Side::South).collect();
    let digits = |pits: &mut dyn Iterator<Item = Pit>| {
        pits.map(|p| counts[p.index()].to_string().len())
            .max()
            .unwrap_or(1)
    };
    let pit_width = digits(&mut north.iter().chain(&south).copied()) + 2;
    let stores = [rules.store(Side::North), rules.store(Side::South)];
    let label = word.map_or("North".len(), |w| w.chars().count().max("North".len()));
    let store_width = (digits(&mut stores.iter().copied()) + 2).max(label + 2);

    let bar = |w: usize| "═".repeat(w);
    let pit_bars = |join: &str| vec![bar(pit_width); rules.pits()].join(join);
    // the top or bottom edge: `join` between every two boxes
    let edge = |left: char, join: &str, right: char| {
        let store = bar(store_width);
        format!("{left}{store}{join}{}{join}{store}{right}", pit_bars(join))
    };
    let cells = |pits: &[Pit]| {
        pits.iter()
            .map(|p| center(&counts[p.index()].to_string(), pit_width))
            .collect::<Vec<_>>()
            .join("║")
    };
    let letters = |pits: &[Pit]| {
        let mut line = " ".repeat(store_width + 1);
        for p in pits {
            let letter = rules.letter(*p).unwrap_or('?').to_string();
            let _ = write!(line, " {}", center(&letter, pit_width));
        }
        line.trim_end().to_string()
    };
    let store = |side: Side| center(&counts[rules.store(side).index()].to_string(), store_width);
    let under = center(word.unwrap_or(""), store_width);

    let mut out = String::new();
    let _ = writeln!(out, "North: {}", names[Side::North.index()]);
    let _ = writeln!(out, "{}", letters(&north));
    let _ = writeln!(out, "{}", edge('╔', "╦", '╗'));
    let _ = writeln!(
        out,
        "║{}║{}║{}║",
        center("North", store_width),
        cells(&north),
        center("South", store_width)
    );
    let _ = writeln!(
        out,
        "║{}╠{}╣{}║",
        store(Side::North),
        pit_bars("╬"),
        store(Side::South)
    );
    let _ = writeln!(out, "║{under}║{}║{under}║", cells(&south));
    let _ = writeln!(out, "{}", edge('╚', "╩", '╝'));
    let _ = writeln!(out, "{}", letters(&south));
    let _ = writeln!(out, "South: {}", names[Side::South.index()]);
    out
}

/// A move's sowing as one line: where the hand lifted and each place it
/// dropped a seed, e.g. `sows c: d e f store` (relay lifts included), to
/// follow the mover's name.
/// `None` when the steps hold no sowing.
#[must_use]
pub fn sowing_line(rules: &Rules, steps: &[Step]) -> Option<String> {
    let name = |pit: Pit| match rules.letter(pit) {
        Some(c) => c.to_string(),
        None => "store".to_string(),
    };
    let mut line = String::new();
    for step in steps {
        match *step {
            Step::Lift { pit, .. } => {
                let _ = write!(line, "sows {}:", name(pit));
            }
            Step::Sow { pit } => {
                let _ = write!(line, " {}", name(pit));
            }
            Step::Relay { pit, .. } => {
                let _ = write!(line, "; relays {}:", name(pit));
            }
            _ => {}
        }
    }
    (!line.is_empty()).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_board_is_box_drawn_with_letters() {
        let board = Board::new(Rules::KALAH);
        let expected = "\
North: Michael
          l   k   j   i   h   g
╔═══════╦═══╦═══╦═══╦═══╦═══╦═══╦═══════╗
║ North ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ South ║
║   0   ╠═══╬═══╬═══╬═══╬═══╬═══╣   0   ║
║       ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║ 4 ║       ║
╚═══════╩═══╩═══╩═══╩═══╩═══╩═══╩═══════╝
          a   b   c   d   e   f
South: Alice
";
        assert_eq!(render(&board, ["Alice", "Michael"]), expected);
    }

    #[test]
    fn every_size_stays_aligned_and_wide_counts_widen_the_cells() {
        for pits in 1..=12 {
            let rules = Rules::new(pits, 20).unwrap();
            let mut board = Board::new(rules);
            board.play(rules.pit(Side::South, 1).unwrap()).unwrap();
            let text = render(&board, ["S", "N"]);
            let lines: Vec<&str> = text.lines().collect();
            let width = lines[2].chars().count();
            for line in &lines[2..7] {
                assert_eq!(line.chars().count(), width, "{pits} pits:\n{text}");
            }
            // Every letter sits over the middle of its column.
            let column = |line: &str, c: char| line.chars().position(|x| x == c).unwrap();
            let first = rules.letter(rules.pit(Side::South, 1).unwrap()).unwrap();
            let last_north = rules.letter(rules.pit(Side::North, pits).unwrap()).unwrap();
            assert_eq!(
                column(lines[7], first),
                column(lines[1], last_north),
                "{text}"
            );
            assert!(lines[2].contains("╦════╦"), "two-digit cells: {text}");
        }
    }

    #[test]
    fn sowing_lines_list_each_drop() {
        let rules = Rules::KALAH;
        let mut board = Board::new(rules);
        let mut steps = Vec::new();
        board
            .play_traced(rules.pit_by_letter('c').unwrap(), &mut steps)
            .unwrap();
        assert_eq!(sowing_line(&rules, &steps).unwrap(), "sows c: d e f store");
    }
}
