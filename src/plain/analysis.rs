//! `mancala analyze FILE` as plain text: the table of moves, the turning
//! points and the value over the round as a line chart drawn in
//! characters, with the same said in words.

use std::fmt::Write as _;

use crate::analysis::{
    Analysis, Valuation, best_text, difference_word, loss_text, pit_text, value_text,
};
use crate::rules::Side;
use crate::store::Record;

/// Rows of the chart at most (values are scaled to fit).
const CHART_ROWS: i32 = 9;
/// Columns of the chart at most (long rounds show every n-th position).
const CHART_COLUMNS: usize = 64;

/// One line per turning point: `Move 6, Michael played j: lost 8 (best: i).`
#[must_use]
pub fn turning_lines(analysis: &Analysis, names: [&str; 2]) -> Vec<String> {
    analysis
        .turning_points()
        .into_iter()
        .map(|i| {
            let m = &analysis.moves[i];
            format!(
                "Move {}, {} played {}: lost {} (best: {}).",
                m.ply,
                names[m.side.index()],
                analysis.rules.letter(m.pit).unwrap_or('?'),
                loss_text(m),
                best_text(&analysis.rules, m)
            )
        })
        .collect()
}

/// The value over the round in words, for South: where it starts, its
/// lowest and highest and where it ends.
#[must_use]
pub fn chart_words(analysis: &Analysis, names: [&str; 2]) -> String {
    let values = &analysis.south_values;
    let at = |i: usize| {
        if i == 0 {
            "at the start".to_string()
        } else {
            format!("after move {i}")
        }
    };
    let (low, _) = values
        .iter()
        .enumerate()
        .min_by_key(|(i, v)| (v.value, *i))
        .unwrap_or((0, &Valuation::exact(0)));
    let (high, _) = values
        .iter()
        .enumerate()
        .max_by_key(|(i, v)| (v.value, std::cmp::Reverse(*i)))
        .unwrap_or((0, &Valuation::exact(0)));
    let first = values.first().copied().unwrap_or(Valuation::exact(0));
    let last = values.last().copied().unwrap_or(first);
    format!(
        "For {} (South): {} at the start, lowest {} {}, highest {} {}, {} at the end.",
        names[Side::South.index()],
        value_text(first),
        value_text(values[low]),
        at(low),
        value_text(values[high]),
        at(high),
        value_text(last)
    )
}

/// The value for South over the round as a line chart in characters: one
/// column per position (every n-th on long rounds), `*` for a proven
/// value, `~` for an estimate, `-` along zero, values on the left and move
/// numbers below.
#[must_use]
pub fn chart(values: &[Valuation]) -> String {
    if values.is_empty() {
        return String::new();
    }
    let stride = values.len().div_ceil(CHART_COLUMNS);
    let shown: Vec<(usize, Valuation)> = values
        .iter()
        .copied()
        .enumerate()
        .filter(|(i, _)| i % stride == 0 || *i == values.len() - 1)
        .collect();
    let hi = shown.iter().map(|(_, v)| v.value).max().unwrap_or(0).max(0);
    let lo = shown.iter().map(|(_, v)| v.value).min().unwrap_or(0).min(0);
    let rows = (hi - lo + 1).min(CHART_ROWS);
    let row_of = |v: i32| {
        if hi == lo {
            0
        } else {
            ((hi - v) * (rows - 1) + (hi - lo) / 2) / (hi - lo)
        }
    };
    let label_of = |r: i32| {
        if rows == 1 {
            hi
        } else {
            hi - (r * (hi - lo) + (rows - 1) / 2) / (rows - 1)
        }
    };
    let zero = row_of(0);
    let mut out = String::new();
    for r in 0..rows {
        let _ = write!(out, "{:>5} |", format!("{:+}", label_of(r)));
        for &(_, v) in &shown {
            out.push(if row_of(v.value) == r {
                if v.is_exact() { '*' } else { '~' }
            } else if r == zero {
                '-'
            } else {
                ' '
            });
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{:>5} +{}", "", "-".repeat(shown.len()));
    // move numbers under every tenth column
    let mut axis = String::new();
    let mut column = 0;
    while column < shown.len() {
        let label = shown[column].0.to_string();
        while axis.chars().count() < column {
            axis.push(' ');
        }
        axis.push_str(&label);
        column += 10;
    }
    let _ = writeln!(out, "{:>5}  {axis}", "move");
    out
}

/// The whole report of `analysis` of `record`'s round.
#[must_use]
pub fn report(record: &Record, analysis: &Analysis) -> String {
    let names = record.names();
    let rules = record.rules();
    let [s, n] = record.seats();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Analysis of round {}: {} (South, {}) against {} (North, {}).",
        record.round, s.name, s.kind, n.name, n.kind
    );
    let _ = writeln!(out, "Rules: {}.", record.config.rules_text());
    let _ = writeln!(
        out,
        "Values are final {} differences for the player who moves, under perfect play;",
        difference_word(analysis.game)
    );
    let _ = writeln!(
        out,
        "loss is the value before the move minus the value after it (≈: estimated, not proven)."
    );
    let _ = writeln!(out);
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:<3}  {:<9}  {:>6}  {:>6}  {:>4}",
        "move", "player", "pit", "best", "before", "after", "loss"
    );
    let turning = analysis.turning_points();
    for (i, m) in analysis.moves.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:<3}  {:<9}  {:>6}  {:>6}  {:>4}{}",
            m.ply,
            names[m.side.index()],
            pit_text(rules, m),
            best_text(rules, m),
            value_text(m.before),
            value_text(m.after),
            loss_text(m),
            if turning.contains(&i) {
                "  ◀ turning point"
            } else {
                ""
            }
        );
    }
    if analysis.moves.is_empty() {
        let _ = writeln!(out, "(no moves)");
    }
    let _ = writeln!(out);
    let turning_lines = turning_lines(analysis, names);
    if turning_lines.is_empty() {
        let _ = writeln!(out, "Turning points: none; no move lost anything.");
    } else {
        let _ = writeln!(out, "Turning points (the moves that lost most):");
        for line in turning_lines {
            let _ = writeln!(out, "  {line}");
        }
    }
    let [south_loss, north_loss] = analysis.mean_loss();
    for (name, loss) in [(names[0], south_loss), (names[1], north_loss)] {
        if let Some(loss) = loss {
            let _ = writeln!(out, "{name} lost {loss:.1} seeds per move on average.");
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Value for {} (South) over the round (above zero: South ahead):",
        names[0]
    );
    out.push_str(&chart(&analysis.south_values));
    let _ = writeln!(out, "{}", chart_words(analysis, names));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_puts_each_value_on_its_row_and_marks_estimates() {
        let values = [
            Valuation::exact(2),
            Valuation::exact(0),
            Valuation::exact(-2),
            Valuation {
                value: 1,
                lower: -3,
                upper: 3,
            },
        ];
        let chart = chart(&values);
        let rows: Vec<&str> = chart.lines().collect();
        assert_eq!(rows[0], "   +2 |*   ");
        assert_eq!(rows[1], "   +1 |   ~");
        assert_eq!(rows[2], "   +0 |-*--");
        assert_eq!(rows[3], "   -1 |    ");
        assert_eq!(rows[4], "   -2 |  * ");
        assert_eq!(rows[5], "      +----");
        assert_eq!(rows[6], " move  0");
    }

    #[test]
    fn a_long_round_fits_the_columns() {
        let values: Vec<Valuation> = (0..300).map(|i| Valuation::exact(i % 50 - 25)).collect();
        let chart = chart(&values);
        for line in chart.lines() {
            assert!(line.chars().count() <= 7 + CHART_COLUMNS + 1, "{line}");
        }
        assert_eq!(chart.lines().count() as i32, CHART_ROWS + 2);
    }
}
