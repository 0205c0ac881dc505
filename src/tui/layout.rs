//! Where each part of the game screen goes, from the terminal size alone,
//! so that drawing and mouse hit-testing always agree.

use ratatui::layout::Rect;

use crate::rules::Rules;
use crate::tui::widgets::board::{BoardGeometry, BoardSize};

/// Narrowest screen the text around the board needs.
const MIN_TEXT_WIDTH: u16 = 40;
/// The width of the text lines when the board is narrower.
const TEXT_WIDTH: u16 = 78;
/// Lines for the status line and the log (or the end-of-round panel).
const MIN_BOTTOM: u16 = 4;
/// Lines the bottom panel takes before the board grows; what the board
/// leaves goes to it too.
const MAX_BOTTOM: u16 = 8;
/// The most lines the status line and the log take; more room is margin.
const MAX_LOG: u16 = 12;

/// The game screen's parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenLayout {
    /// Round and match score.
    pub header: Rect,
    /// The rules in force (empty when the screen is low).
    pub rules: Rect,
    /// The board.
    pub board: Rect,
    /// Where the board's pits and stores are (for drawing and clicks).
    pub geometry: BoardGeometry,
    /// The status line and the log, or the end-of-round panel.
    pub bottom: Rect,
    /// The keys that work now.
    pub keys: Rect,
}

/// The terminal is smaller than the game needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooSmall {
    /// Columns needed.
    pub width: u16,
    /// Lines needed.
    pub height: u16,
}

impl ScreenLayout {
    /// The smallest terminal that shows `rules`' board with its panels.
    #[must_use]
    pub fn minimum(rules: &Rules) -> TooSmall {
        TooSmall {
            width: (BoardGeometry::min_width(rules.pits()) + 2).max(MIN_TEXT_WIDTH),
            height: 1 + BoardGeometry::min_height() + MIN_BOTTOM + 1,
        }
    }

    /// Lays out the screen for `rules` in `area`.
    ///
    /// # Errors
    /// [`TooSmall`] with the size needed when `area` is smaller.
    pub fn new(area: Rect, rules: &Rules) -> Result<ScreenLayout, TooSmall> {
        let need = ScreenLayout::minimum(rules);
        if area.width < need.width || area.height < need.height {
            return Err(need);
        }
        let mut extra = area.height - need.height;
        // Taller pits first (room for seed marks), up to the classic board;
        // then the rules line and breathing space, then a longer log. What
        // is left goes to a bigger board where the width allows it, and
        // the rest to the log: the key bar stays on the last line.
        let classic_grow = (BoardGeometry::classic_height() - BoardGeometry::min_height()) / 2;
        let grow = (extra / 2).min(classic_grow);
        extra -= 2 * grow;
        let mut take = |n: u16| {
            let t = extra.min(n);
            extra -= t;
            t
        };
        let rules_height = take(1);
        let gap_top = take(1);
        let gap_bottom = take(1);
        let mut bottom_height = MIN_BOTTOM + take(MAX_BOTTOM - MIN_BOTTOM);
        let classic_height = BoardGeometry::min_height() + 2 * grow;
        // The board's size, found once: in all the lines it may take.
        let room = Rect::new(area.x, area.y, area.width, classic_height + extra);
        let size = BoardSize::fitting(room, rules).ok_or(need)?;
        let board_height = size.height();
        bottom_height += classic_height + extra - board_height;
        // On a tall screen whose width stops the board growing, the lines
        // past a long log are split above and below, so the game sits in
        // the middle instead of on top of a mostly empty log.
        let surplus = bottom_height.saturating_sub(MAX_LOG);
        bottom_height -= surplus;
        let margin_top = surplus / 2;

        let x = area.x + 1;
        let width = area.width - 2;
        let mut y = area.y + margin_top;
        let mut row = |height: u16| {
            let r = Rect::new(x, y, width, height);
            y += height;
            r
        };
        let header = row(1);
        let rules_line = row(rules_height);
        row(gap_top);
        let board_row = row(board_height);
        // The board is centred on the whole width, without the side margins.
        let board = Rect::new(area.x, board_row.y, area.width, board_height);
        row(gap_bottom);
        let bottom = row(bottom_height);
        // The key bar stays on the last line.
        let keys = Rect::new(x, area.bottom() - 1, width, 1);
        let geometry = BoardGeometry::place(board, rules, size);
        // The text lines line up with the board: from its left edge, as
        // wide as it or as a classic 80-column terminal's text, whichever is
        // more (moved left if that runs off the screen).
        let outer = geometry.outer();
        let text_width = outer.width.max(TEXT_WIDTH).min(width);
        let text_x = outer.x.clamp(x, x + width - text_width);
        let column = |r: Rect| Rect::new(text_x, r.y, text_width, r.height);
        Ok(ScreenLayout {
            header: column(header),
            rules: column(rules_line),
            board,
            geometry,
            bottom: column(bottom),
            keys: column(keys),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_fits_80_by_24_with_full_size_pits() {
        for pits in 1..=crate::rules::MAX_PITS {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            let area = Rect::new(0, 0, 80, 24);
            let layout = ScreenLayout::new(area, &rules).unwrap();
            assert_eq!(layout.geometry.pit_height(), 5, "{pits} pits");
            assert!(layout.keys.bottom() <= area.bottom());
            assert_eq!(layout.rules.height, 1);
        }
    }

    #[test]
    fn on_a_wide_screen_the_text_lines_up_with_the_centred_board() {
        let layout = ScreenLayout::new(Rect::new(0, 0, 120, 40), &Rules::KALAH).unwrap();
        let board = layout.geometry.outer();
        let right_margin = 120 - board.right();
        assert!(
            board.x.abs_diff(right_margin) <= 1 && board.x > 0,
            "the board is centred: {board:?}"
        );
        for part in [layout.header, layout.rules, layout.bottom, layout.keys] {
            assert_eq!(part.width, board.width, "as wide as the board");
            assert_eq!(part.x, board.x, "lined up with the board: {part:?}");
        }
    }

    /// The sizes a player's terminal is likely to have, and a huge one.
    const SIZES: [(u16, u16); 6] = [
        (80, 24),
        (100, 30),
        (120, 40),
        (160, 50),
        (200, 60),
        (300, 100),
    ];

    #[test]
    fn a_board_narrower_than_the_text_keeps_the_classic_text_width() {
        let rules = Rules::KALAH.with_pits(1).unwrap();
        let layout = ScreenLayout::new(Rect::new(0, 0, 120, 40), &rules).unwrap();
        assert!(layout.geometry.outer().width < TEXT_WIDTH);
        for part in [layout.header, layout.rules, layout.bottom, layout.keys] {
            assert_eq!(part.width, TEXT_WIDTH);
        }
    }

    #[test]
    fn the_key_bar_is_on_the_last_line_and_the_log_takes_the_lines_left() {
        for pits in [1, 6, 12] {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            let need = ScreenLayout::minimum(&rules);
            for height in need.height..=100 {
                for width in [need.width, 80, 100, 120, 160, 200, 300] {
                    let area = Rect::new(2, 1, width.max(need.width), height);
                    let layout = ScreenLayout::new(area, &rules).unwrap();
                    let at = format!("{pits} pits, {}×{height}", area.width);
                    assert_eq!(layout.keys.y, area.bottom() - 1, "keys last: {at}");
                    assert!(layout.bottom.height <= MAX_LOG, "{at}");
                    let above = layout.header.y - area.y;
                    let below = layout.keys.y - layout.bottom.bottom();
                    assert!(
                        above.abs_diff(below) <= 1
                            && (above == 0 || layout.bottom.height == MAX_LOG),
                        "a margin only past a full log, as much above as below: {at}"
                    );
                    assert!(layout.rules.bottom() <= layout.board.y, "{at}");
                    assert!(layout.board.bottom() <= layout.bottom.y, "{at}");
                    assert_eq!(
                        layout.board.height,
                        BoardGeometry::height(layout.geometry.pit_height()),
                        "the board's row holds its pits and nothing else: {at}"
                    );
                    let outer = layout.geometry.outer();
                    assert_eq!(area.intersection(outer), outer, "{at}");
                    // what the board widget's debug assertion checks, here
                    // where the release build the tests run in checks it too
                    assert_eq!(
                        layout.board.union(layout.geometry.bounds()),
                        layout.board,
                        "the board is drawn where it was laid out: {at}"
                    );
                    assert_eq!(
                        Some(layout.geometry),
                        BoardGeometry::new(layout.board, &rules),
                        "laid out once, as the board's own row lays it out: {at}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_board_grows_with_the_screen_up_to_a_limit() {
        let pit = |pits: usize, (width, height): (u16, u16)| {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            let layout = ScreenLayout::new(Rect::new(0, 0, width, height), &rules).unwrap();
            let a = layout.geometry.cell(rules.pit_by_letter('a').unwrap());
            (a.width, a.height, layout.bottom.height)
        };
        let grown: Vec<_> = SIZES.iter().map(|&size| pit(6, size)).collect();
        assert_eq!(
            grown,
            [
                (9, 5, 6),
                (11, 6, 10),
                (13, 7, 12),
                (15, 8, 12),
                (15, 8, 12),
                (15, 8, 12)
            ],
            "(pit width, pit height, log lines) at {SIZES:?}"
        );
        assert_eq!(pit(1, (120, 40)), (15, 8, 12));
        // Twelve bigger pits need more than 120 columns: the classic board.
        assert_eq!(pit(12, (120, 40)), (7, 5, 12));
        assert_eq!(pit(12, (200, 60)), (13, 7, 12));
        // The first step up (as the README says): 93×28 on 6 pits.
        assert_eq!(pit(6, (93, 28)), (11, 6, 8));
        assert_eq!(pit(6, (92, 28)), (9, 5, 10));
        assert_eq!(pit(6, (93, 27)), (9, 5, 9));
        // A wide but low screen keeps the classic board and its shape.
        assert_eq!(pit(6, (300, 24)), (9, 5, 6));
    }

    #[test]
    fn too_small_says_what_is_needed_and_the_minimum_fits() {
        let rules = Rules::KALAH;
        let need = ScreenLayout::minimum(&rules);
        assert_eq!(
            ScreenLayout::new(Rect::new(0, 0, need.width - 1, 40), &rules),
            Err(need)
        );
        assert_eq!(
            ScreenLayout::new(Rect::new(0, 0, 100, need.height - 1), &rules),
            Err(need)
        );
        let layout = ScreenLayout::new(Rect::new(0, 0, need.width, need.height), &rules).unwrap();
        assert!(layout.keys.bottom() <= need.height);
    }
}
